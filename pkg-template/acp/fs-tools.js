// fs delegation: when the editor advertises fs capabilities, two SDK-hosted tools let the agent
// read the editor's buffer (unsaved changes included) and write through the editor.

const text = (value) => ({ content: [{ type: "text", text: value }] });

/** The SDK-hosted tools of a session (`state.id` is read at call time), possibly none. */
export function fsTools(state, acp, capabilities) {
  const tools = [];
  if (capabilities?.fs?.readTextFile) {
    tools.push({
      name: "read_editor_buffer",
      label: "Read editor buffer",
      description: "Reads a file as the editor has it open (including unsaved changes). Absolute path.",
      parameters: { type: "object", properties: { path: { type: "string" }, line: { type: "integer" }, limit: { type: "integer" } }, required: ["path"] },
      async execute(_id, args) {
        const response = await acp.request("fs/read_text_file", { sessionId: state.id, path: args.path, line: args.line ?? null, limit: args.limit ?? null });
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
        await acp.request("fs/write_text_file", { sessionId: state.id, path: args.path, content: args.content });
        return text(`wrote ${args.path}`);
      },
    });
  }
  return tools;
}
