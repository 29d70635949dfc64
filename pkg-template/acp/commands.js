// Slash commands of an ACP session, announced with `available_commands_update`: `/model`
// (answered here, see models.js), the app server's own commands (`supported_commands` and
// `mod_commands` of its device status), run with `execute_command` without a model turn, and
// the skills (skills.js), which go to the agent as prompt text.

const MODEL_COMMAND = { name: "model", description: "List the models, or switch: /model <handle>", input: { hint: "model handle (empty: list)" } };
/** Server commands that make no sense from an editor. */
const HIDDEN = new Set(["upgrade-letta-code"]);

/** Reads the server's commands from a device status (`raw` is the wire object). */
export function serverCommandsOf(status) {
  const raw = status?.raw ?? {};
  const builtIn = (raw.supported_commands ?? []).filter((id) => typeof id === "string" && !HIDDEN.has(id)).map((id) => ({ name: id, description: `Letta Code /${id}` }));
  const mods = (raw.mod_commands ?? []).filter((c) => typeof c?.id === "string").map((c) => ({ name: c.id, description: c.description || `/${c.id}`, hint: c.args }));
  return [...builtIn, ...mods].filter((c) => c.name !== "model");
}

/** The commands of a session (its `serverCommands` and `skills` were read at open). */
export function availableCommands(state) {
  const commands = [MODEL_COMMAND, ...state.serverCommands.map((c) => ({ name: c.name, description: c.description, input: { hint: c.hint || "arguments (optional)" } }))];
  const taken = new Set(commands.map((c) => c.name));
  for (const skill of state.skills ?? []) {
    if (!taken.has(skill.name)) commands.push({ name: skill.name, description: skill.description, input: { hint: "optional instructions" } });
  }
  return commands;
}

/** `{name, args}` of a typed `/name args`, else `undefined`. */
export function parseCommand(text) {
  const match = text.match(/^\/([A-Za-z0-9_.:-]+)(?:\s+([\s\S]*))?$/);
  return match ? { name: match[1], args: (match[2] ?? "").trim() } : undefined;
}

/** Runs a server command; resolves with the text to show. */
export async function runServerCommand(state, name, args) {
  const command = { type: "execute_command", command_id: name, runtime: { agent_id: state.agentId, conversation_id: state.id } };
  if (args) command.args = args;
  const response = await state.session.sendCommand(command, { responseType: "execute_command_response", timeoutMs: 300_000 });
  const output = typeof response.output === "string" ? response.output.trim() : "";
  return response.success ? output || `/${name} done.` : `/${name} failed${output ? `: ${output}` : ""}`;
}
