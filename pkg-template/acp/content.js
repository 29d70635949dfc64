// Translation between ACP and the package's messages: prompt blocks → content parts, streamed
// SDK messages → `session/update`s, history rows (from the transcript accumulator) → replayed
// updates.

/** The tool kind ACP clients use for icons and grouping. */
export function toolKind(name) {
  const n = String(name).toLowerCase();
  if (/bash|shell|exec|command|terminal/.test(n)) return "execute";
  if (/^(read|view|cat)|read_editor_buffer/.test(n)) return "read";
  if (/edit|write|patch|replace/.test(n)) return "edit";
  if (/grep|glob|search|find|ls$|list/.test(n)) return "search";
  if (/fetch|web|http/.test(n)) return "fetch";
  if (/think|todo|plan/.test(n)) return "think";
  return "other";
}

/** A short title of a tool call: the command, the path, else the tool name. */
export function toolTitle(name, input) {
  const value = input?.command ?? input?.cmd ?? input?.file_path ?? input?.path ?? input?.pattern;
  if (typeof value === "string" && value) return `${name}: ${value.length > 120 ? `${value.slice(0, 117)}…` : value}`;
  if (Array.isArray(value)) return `${name}: ${value.join(" ")}`;
  return String(name);
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** ACP prompt blocks → `send()` content parts (text, image, resource, resource_link). */
export function promptToContent(blocks) {
  const parts = [];
  for (const block of blocks ?? []) {
    if (block.type === "text") parts.push({ type: "text", text: block.text });
    else if (block.type === "image" && IMAGE_TYPES.has(block.mimeType)) {
      parts.push({ type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } });
    } else if (block.type === "resource") {
      const { uri, text, mimeType } = block.resource ?? {};
      if (typeof text === "string") parts.push({ type: "text", text: `<resource uri="${uri}">\n${text}\n</resource>` });
      else parts.push({ type: "text", text: `[binary resource ${uri}${mimeType ? ` (${mimeType})` : ""}]` });
    } else if (block.type === "resource_link") {
      parts.push({ type: "text", text: `[${block.name ?? block.uri}](${block.uri})` });
    }
  }
  return parts;
}

/** The prompt's plain text (for slash commands and titles). */
export function promptText(blocks) {
  return (blocks ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("")
    .trim();
}

const text = (value) => ({ type: "text", text: value });

/** The `tool_call_update` fields of a tool result. */
export function resultUpdate(toolCallId, content, isError, terminalOutput) {
  const update = {
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: isError ? "failed" : "completed",
    content: content ? [{ type: "content", content: text(content) }] : [],
    rawOutput: { content, isError },
  };
  if (terminalOutput) update._meta = { terminal_output: { terminal_id: toolCallId, data: content } };
  return update;
}

/**
 * Per-turn translator of streamed SDK messages to ACP updates. Tool calls: a `tool_call` when
 * first seen, a `tool_call_update` with the input once the arguments parse (read from the
 * transcript accumulator's row), the result as a completed / failed `tool_call_update`.
 */
export class TurnTranslator {
  constructor(state, { terminalOutput = false } = {}) {
    this.state = state; // {announced: Map<toolCallId, {parsed}>, transcript}
    this.terminalOutput = terminalOutput;
  }

  /** The updates one message gives (possibly none). */
  updates(message) {
    const { announced, transcript } = this.state;
    switch (message.type) {
      case "assistant":
        return [{ sessionUpdate: "agent_message_chunk", content: text(message.content) }];
      case "reasoning":
        return [{ sessionUpdate: "agent_thought_chunk", content: text(message.content) }];
      case "tool_call": {
        const row = transcript.apply(message).find((r) => r.kind === "tool_call" && r.toolCallId === message.toolCallId);
        const name = row?.toolName ?? message.toolName;
        const input = row?.toolInput ?? {};
        const out = [];
        let entry = announced.get(message.toolCallId);
        if (!entry) {
          entry = { parsed: false, name };
          announced.set(message.toolCallId, entry);
          out.push({ sessionUpdate: "tool_call", toolCallId: message.toolCallId, title: toolTitle(name, input), kind: toolKind(name), status: "pending", rawInput: input });
        }
        if (!entry.parsed && row?.argumentsComplete) {
          entry.parsed = true;
          entry.name = name;
          out.push({ sessionUpdate: "tool_call_update", toolCallId: message.toolCallId, title: toolTitle(name, input), kind: toolKind(name), rawInput: input });
        }
        return out;
      }
      case "tool_result":
        transcript.apply(message);
        return [resultUpdate(message.toolCallId, message.content, message.isError, this.terminalOutput)];
      default:
        return [];
    }
  }
}

/** History rows (transcript accumulator) → the updates that replay them, in order. */
export function replayUpdates(rows) {
  const out = [];
  for (const row of rows) {
    if (row.kind === "user") {
      // History carries the server's <system-reminder> parts inside user messages.
      const typed = row.text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
      if (typed) out.push({ sessionUpdate: "user_message_chunk", content: text(typed) });
    }
    else if (row.kind === "assistant") out.push({ sessionUpdate: "agent_message_chunk", content: text(row.text) });
    else if (row.kind === "reasoning") out.push({ sessionUpdate: "agent_thought_chunk", content: text(row.text) });
    else if (row.kind === "tool_call") {
      out.push({
        sessionUpdate: "tool_call",
        toolCallId: row.toolCallId,
        title: toolTitle(row.toolName, row.toolInput),
        kind: toolKind(row.toolName),
        status: row.result ? (row.result.isError ? "failed" : "completed") : "pending",
        rawInput: row.toolInput,
        content: row.result?.content ? [{ type: "content", content: text(row.result.content) }] : [],
      });
    }
  }
  return out;
}
