// What an ACP tool card shows for a tool call, whether streamed live (updates.js) or replayed
// from history (replay.js): kind, title, locations (path and line), native `diff` content for
// file edits and writes, and the display-only terminal of tools that run a shell command (the
// `_meta.terminal_info` / `terminal_output` / `terminal_exit` extension editors such as Zed
// render, used only when the client advertises `_meta.terminal_output`).
import { isAbsolute, win32 } from "node:path";

const KINDS = {
  Read: "read",
  read_editor_buffer: "read",
  ViewImage: "read",
  Edit: "edit",
  MultiEdit: "edit",
  Write: "edit",
  NotebookEdit: "edit",
  ApplyPatch: "edit",
  apply_patch: "edit",
  write_via_editor: "edit",
  memory_apply_patch: "edit",
  Bash: "execute",
  exec_command: "execute",
  write_stdin: "execute",
  run_in_editor_terminal: "execute",
  TaskStop: "execute",
  Grep: "search",
  Glob: "search",
  WebSearch: "search",
  WebFetch: "fetch",
  TodoWrite: "think",
  UpdatePlan: "think",
  TaskCreate: "think",
  TaskGet: "think",
  TaskList: "think",
  TaskUpdate: "think",
};

/** The tool kind ACP clients use for icons and grouping. */
export function toolKind(name) {
  const known = KINDS[name];
  if (known) return known;
  const n = String(name).toLowerCase();
  if (/bash|shell|exec|command|terminal/.test(n)) return "execute";
  if (/^(read|view|cat)/.test(n)) return "read";
  if (/edit|write|patch|replace/.test(n)) return "edit";
  if (/grep|glob|search|find|ls$|list/.test(n)) return "search";
  if (/fetch|web|http/.test(n)) return "fetch";
  if (/think|todo|plan/.test(n)) return "think";
  return "other";
}

const firstString = (input, keys) => {
  for (const key of keys) if (typeof input?.[key] === "string" && input[key]) return input[key];
  return undefined;
};

/** A short title of a tool call: the command, the path, else the tool name. */
export function toolTitle(name, input) {
  const value = input?.command ?? input?.cmd ?? firstString(input, ["file_path", "notebook_path", "path", "pattern", "url", "query", "subject", "taskId"]);
  if (typeof value === "string" && value) return `${name}: ${value.length > 120 ? `${value.slice(0, 117)}…` : value}`;
  if (Array.isArray(value)) return `${name}: ${value.join(" ")}`;
  return String(name);
}

/** Shell tools whose card can be a display-only terminal (the command ran where the agent runs). */
export function isShellTool(name) {
  return name === "Bash" || name === "exec_command";
}

/**
 * The file a tool call touches, as ACP `locations` (absolute paths only): the line where the
 * edit starts (`line`, e.g. from the result's `startLine`), else where a read starts.
 */
export function toolLocations(input, line) {
  const path = firstString(input, ["file_path", "notebook_path", "path"]);
  if (!path || !(isAbsolute(path) || win32.isAbsolute(path))) return [];
  const start = line ?? positiveInteger(input?.offset) ?? positiveInteger(input?.line);
  return [start === undefined ? { path } : { path, line: start }];
}

const positiveInteger = (value) => (Number.isInteger(value) && value >= 1 ? value : undefined);

/** The first changed line a tool result reports (letta-code's Edit: `{"startLine": n}`). */
export function resultLine(content) {
  const parsed = parseToolOutput(content);
  return positiveInteger(parsed?.startLine);
}

/** Tool output for `rawOutput`: the parsed JSON when it is JSON, else the text. */
export function parseToolOutput(content) {
  if (typeof content !== "string") return content;
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/**
 * Native ACP `diff` content for a complete file edit or write, else `[]`. A write shows the
 * whole new text (`oldText: null`: the adapter does not read the file the agent is about to
 * replace); an edit shows the replaced fragment.
 */
export function diffContent(name, input) {
  const path = firstString(input, ["file_path", "path"]);
  if (!path) return [];
  const diff = (oldText, newText) => ({ type: "diff", path, oldText: oldText || null, newText });
  if (name === "Edit" || name === "edit_file" || name === "replace") {
    const { old_string: oldText, new_string: newText } = input;
    return typeof oldText === "string" && typeof newText === "string" ? [diff(oldText, newText)] : [];
  }
  if (name === "MultiEdit") {
    const edits = Array.isArray(input.edits) ? input.edits : [];
    return edits.filter((e) => typeof e?.old_string === "string" && typeof e?.new_string === "string").map((e) => diff(e.old_string, e.new_string));
  }
  if (name === "Write" || name === "write_file" || name === "write_via_editor") {
    return typeof input.content === "string" ? [diff(null, input.content)] : [];
  }
  return [];
}

const text = (value) => ({ type: "content", content: { type: "text", text: value } });

/**
 * The card's content once the tool returned: a diff stays the presentation of a successful
 * edit (the text is added on failure); a terminal reference comes first where the card has
 * one; otherwise the output text.
 * @param {string} output
 * @param {{diff?: object[], terminalId?: string, isError?: boolean}} [options]
 */
export function resultContent(output, { diff = [], terminalId, isError = false } = {}) {
  const content = [];
  if (terminalId) content.push({ type: "terminal", terminalId });
  content.push(...diff);
  if ((diff.length === 0 || isError) && output) content.push(text(output));
  return content;
}

/**
 * The display-only terminal of a shell tool's card: the fields of its first complete update
 * (`content` with the terminal and `_meta.terminal_info`).
 */
export function terminalCard(toolCallId, cwd) {
  return {
    content: [{ type: "terminal", terminalId: toolCallId }],
    _meta: { terminal_info: { terminal_id: toolCallId, ...(cwd ? { cwd } : {}) } },
  };
}

/** `_meta` of the update carrying new terminal output. */
export const terminalOutputMeta = (toolCallId, data) => ({ terminal_output: { terminal_id: toolCallId, data } });

/** `_meta` of the update that ends the display-only terminal. */
export const terminalExitMeta = (toolCallId, isError) => ({ terminal_exit: { terminal_id: toolCallId, exit_code: isError ? 1 : 0, signal: null } });
