// Streamed SDK messages of one turn → ACP `session/update`s: message and thought chunks, tool
// cards (tool-cards.js), `plan` from the todo tools (plan.js) and `usage_update` (usage.js).
import { PlanTracker } from "./plan.js";
import {
  diffContent,
  isShellTool,
  resultContent,
  resultLine,
  terminalCard,
  terminalExitMeta,
  terminalOutputMeta,
  toolKind,
  toolLocations,
  toolTitle,
} from "./tool-cards.js";
import { usageUpdate } from "./usage.js";

const text = (value) => ({ type: "text", text: value });

/**
 * The per-session tool state a translator reads and writes: `announced` (toolCallId → card
 * state), `transcript` (the accumulator, whose rows assemble streamed arguments), `plan`
 * (a PlanTracker), `editorTerminals` (toolCallId → the client terminal a tool ran in).
 */
export function toolState() {
  return { announced: new Map(), plan: new PlanTracker(), editorTerminals: new Map() };
}

/**
 * Per-turn translator. A tool call gives a `tool_call` when first seen and a `tool_call_update`
 * once its arguments parse (title, locations, a diff or a display-only terminal); its result
 * a completed or failed `tool_call_update` (with the terminal's output and exit first, where
 * the card has one).
 */
export class TurnTranslator {
  /**
   * `state`: the session ({announced, transcript, plan, editorTerminals, cwd, contextWindow});
   * `terminalOutput`: the client advertised `_meta.terminal_output`.
   */
  constructor(state, { terminalOutput = false } = {}) {
    this.state = state;
    this.terminalOutput = terminalOutput;
    /** Tool calls of this turn without a result yet. */
    this.open = new Set();
  }

  /**
   * The closing updates of a cancelled turn: its tool calls that never returned end `failed`
   * (the server drops an interrupted call's result from the stream).
   */
  unfinished() {
    const out = [...this.open].map((toolCallId) => ({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" }));
    this.open.clear();
    return out;
  }

  /** The updates one message gives (possibly none). */
  updates(message) {
    switch (message.type) {
      case "assistant":
        return [{ sessionUpdate: "agent_message_chunk", content: text(message.content) }];
      case "reasoning":
        return [{ sessionUpdate: "agent_thought_chunk", content: text(message.content) }];
      case "tool_call":
        return this.#toolCall(message);
      case "tool_result":
        return this.#toolResult(message);
      case "stream_event": {
        const usage = usageUpdate(message, this.state.contextWindow);
        return usage ? [usage] : [];
      }
      default:
        return [];
    }
  }

  #toolCall(message) {
    const { announced, transcript } = this.state;
    const row = transcript.apply(message).find((r) => r.kind === "tool_call" && r.toolCallId === message.toolCallId);
    const name = row?.toolName ?? message.toolName;
    const input = row?.toolInput ?? {};
    const id = message.toolCallId;
    const out = [];
    let card = announced.get(id);
    if (!card) {
      card = { parsed: false, name, input, diff: [], terminal: false, sentOutput: "" };
      announced.set(id, card);
      this.open.add(id);
      out.push({ sessionUpdate: "tool_call", toolCallId: id, title: toolTitle(name, input), kind: toolKind(name), status: "pending", rawInput: input });
    }
    if (!card.parsed && row?.argumentsComplete) {
      Object.assign(card, { parsed: true, name, input, diff: diffContent(name, input), terminal: this.terminalOutput && isShellTool(name) });
      const update = { sessionUpdate: "tool_call_update", toolCallId: id, title: toolTitle(name, input), kind: toolKind(name), rawInput: input, locations: toolLocations(input) };
      if (card.diff.length > 0) update.content = card.diff;
      else if (card.terminal) Object.assign(update, terminalCard(id, this.state.cwd));
      out.push(update);
    }
    return out;
  }

  #toolResult(message) {
    const { announced, transcript, plan, editorTerminals } = this.state;
    transcript.apply(message);
    const id = message.toolCallId;
    this.open.delete(id);
    const card = announced.get(id) ?? { name: "?", input: {}, diff: [], terminal: false, sentOutput: "" };
    const output = message.content;
    const out = [];
    if (card.terminal) {
      // The display-only terminal appends what it is given: send only what it has not shown.
      const fresh = output.startsWith(card.sentOutput) ? output.slice(card.sentOutput.length) : "";
      if (fresh) out.push({ sessionUpdate: "tool_call_update", toolCallId: id, _meta: terminalOutputMeta(id, fresh) });
      card.sentOutput += fresh;
    }
    const terminalId = card.terminal ? id : editorTerminals.get(id);
    editorTerminals.delete(id);
    const locations = toolLocations(card.input, resultLine(output));
    const update = {
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      status: message.isError ? "failed" : "completed",
      content: resultContent(output, { diff: card.diff, terminalId, isError: message.isError }),
      rawOutput: { content: output, isError: message.isError },
    };
    if (locations.length > 0) update.locations = locations;
    if (card.terminal) update._meta = terminalExitMeta(id, message.isError);
    out.push(update);
    const entries = message.isError ? undefined : plan.afterResult(card.name, card.input, output);
    if (entries) out.push({ sessionUpdate: "plan", entries });
    return out;
  }
}
