// `session/load`'s replay: a conversation's raw history (the server's Letta messages, oldest
// first) → the `session/update`s an editor would have seen live: user, assistant and thought
// chunks; each tool call as one card with its final state (approval outcome, diff, locations,
// output; a shell tool's display-only terminal as info → output → exit when the client
// advertises it); the plan the todo tools left.
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

const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** The text of a message's `content` (a string, or text parts). */
function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part === "string" ? part : part?.type === "text" && typeof part.text === "string" ? part.text : "")).join("");
}

/** What the user typed: history carries the server's reminders and JSON system events too. */
function typedText(message) {
  const typed = textOf(message.content).replace(SYSTEM_REMINDER, "").trim();
  if (typed.startsWith("{")) {
    try {
      if (typeof JSON.parse(typed)?.type === "string") return ""; // a heartbeat or system event
    } catch {
      // plain text that starts with a brace
    }
  }
  return typed;
}

function parseArguments(value) {
  if (value && typeof value === "object" && !Array.isArray(value)) return value;
  try {
    const parsed = JSON.parse(value);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

const chunk = (sessionUpdate, value) => ({ sessionUpdate, content: { type: "text", text: value } });

/**
 * The replay of `messages` (oldest first). Returns `{updates, calls, plan}`: `calls` maps
 * each replayed tool call id to its card state (so live updates do not announce it again),
 * `plan` is the PlanTracker after the replayed todo calls (its entries: the `plan` to send
 * after the updates).
 * @param {any[]} messages
 * @param {{cwd?: string, terminalOutput?: boolean}} [options]
 */
export function replayHistory(messages, { cwd, terminalOutput = false } = {}) {
  const updates = [];
  const calls = new Map();
  const open = new Map(); // tool calls without a result yet
  const plan = new PlanTracker();
  const seen = new Set();
  for (const message of messages) {
    if (message?.id !== undefined) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
    }
    switch (message?.message_type) {
      case "user_message": {
        const typed = typedText(message);
        if (typed) updates.push(chunk("user_message_chunk", typed));
        break;
      }
      case "assistant_message": {
        const said = textOf(message.content);
        if (said) updates.push(chunk("agent_message_chunk", said));
        break;
      }
      case "reasoning_message": {
        const thought = typeof message.reasoning === "string" ? message.reasoning : textOf(message.content);
        if (thought) updates.push(chunk("agent_thought_chunk", thought));
        break;
      }
      case "tool_call_message":
      case "approval_request_message": {
        const call = message.tool_call ?? message.tool_calls?.[0];
        const id = call?.tool_call_id ?? call?.id;
        if (!id || open.has(id) || calls.has(id)) break;
        const name = call.name ?? "tool";
        const input = parseArguments(call.arguments);
        open.set(id, { name, input, diff: diffContent(name, input), terminal: terminalOutput && isShellTool(name) });
        break;
      }
      case "tool_return_message": {
        const id = message.tool_call_id;
        const card = open.get(id);
        if (!card) break;
        open.delete(id);
        calls.set(id, { ...card, parsed: true, sentOutput: "" });
        const output = typeof message.tool_return === "string" ? message.tool_return : textOf(message.content);
        const isError = message.status === "error";
        updates.push(...finishedCard(id, card, output, isError, cwd));
        if (!isError) plan.afterResult(card.name, card.input, output); // the final plan follows the replay
        break;
      }
      default:
        break;
    }
  }
  // Calls still waiting (an approval nobody answered yet) show as pending.
  for (const [id, card] of open) {
    calls.set(id, { ...card, parsed: true, sentOutput: "" });
    updates.push({ ...opening(id, card, cwd), status: "pending" });
  }
  return { updates, calls, plan };
}

/** The `tool_call` that opens a card with everything known from the arguments. */
function opening(id, card, cwd) {
  const update = { sessionUpdate: "tool_call", toolCallId: id, title: toolTitle(card.name, card.input), kind: toolKind(card.name), rawInput: card.input, locations: toolLocations(card.input) };
  if (card.diff.length > 0) update.content = card.diff;
  else if (card.terminal) Object.assign(update, terminalCard(id, cwd));
  return update;
}

/** A finished call: one card, or for a display-only terminal its info, output and exit. */
function finishedCard(id, card, output, isError, cwd) {
  const status = isError ? "failed" : "completed";
  const content = resultContent(output, { diff: card.diff, terminalId: card.terminal ? id : undefined, isError });
  const locations = toolLocations(card.input, resultLine(output));
  const rawOutput = { content: output, isError };
  if (!card.terminal) return [{ ...opening(id, card, cwd), status, content, locations, rawOutput }];
  return [
    { ...opening(id, card, cwd), status: "in_progress" },
    ...(output ? [{ sessionUpdate: "tool_call_update", toolCallId: id, _meta: terminalOutputMeta(id, output) }] : []),
    { sessionUpdate: "tool_call_update", toolCallId: id, status, content, locations, rawOutput, _meta: terminalExitMeta(id, isError) },
  ];
}
