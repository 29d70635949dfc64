// fs delegation: when the editor advertises fs capabilities, two SDK-hosted tools let the agent
// read the editor's buffer (unsaved changes included) and write through the editor. Each
// request to the editor has a deadline.
import { isAbsolute } from "node:path";
import { FS_REQUEST_TIMEOUT_MS, requestWithDeadline } from "./deadlines.js";

const text = (value) => ({ content: [{ type: "text", text: value }] });

/** The tool's `path`, which must be absolute (ACP paths are). */
function absolutePath(args) {
  if (typeof args?.path !== "string" || !isAbsolute(args.path)) throw new Error(`path must be an absolute path, got ${JSON.stringify(args?.path)}`);
  return args.path;
}

/**
 * The SDK-hosted tools of a session (`state.id` is read at call time), possibly none;
 * `timeoutMs` bounds each request to the editor.
 */
export function fsTools(state, acp, capabilities, { timeoutMs = FS_REQUEST_TIMEOUT_MS } = {}) {
  const tools = [];
  if (capabilities?.fs?.readTextFile) {
    tools.push({
      name: "read_editor_buffer",
      label: "Read editor buffer",
      description: "Reads a file as the editor has it open (including unsaved changes). Absolute path.",
      parameters: { type: "object", properties: { path: { type: "string" }, line: { type: "integer" }, limit: { type: "integer" } }, required: ["path"] },
      async execute(_id, args) {
        const path = absolutePath(args);
        const params = { sessionId: state.id, path, line: args.line ?? null, limit: args.limit ?? null };
        const response = await requestWithDeadline(acp, "fs/read_text_file", params, { timeoutMs, what: `reading ${path}` });
        return text(response.content);
      },
    });
  }
  if (capabilities?.fs?.writeTextFile) {
    tools.push({
      name: "write_via_editor",
      label: "Write via editor",
      description: "Writes a whole file through the editor (it shows the change). Absolute path.",
      parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
      async execute(_id, args) {
        const path = absolutePath(args);
        if (typeof args.content !== "string") throw new Error("content must be a string");
        const params = { sessionId: state.id, path, content: args.content };
        await requestWithDeadline(acp, "fs/write_text_file", params, { timeoutMs, what: `writing ${path}` });
        return text(`wrote ${path}`);
      },
    });
  }
  return tools;
}
