// One ACP session's state and the LettaCodeSession under it: opened new (a new conversation of
// the agent) or on an existing conversation (session/load and session/resume), with the
// session's SDK-hosted tools (the editor's fs and terminal), the editor's MCP servers, the
// permission callback, the model catalog, the `/` menu (server commands and skills) and the
// context window size for `usage_update`.
import { createTranscriptAccumulator } from "letta-agent-wasm/client";
import { availableCommands, serverCommandsOf } from "./commands.js";
import { fsTools } from "./fs-tools.js";
import { log } from "./log.js";
import { mcpServersOption } from "./mcp.js";
import { initialMode, permissionCallback } from "./permissions.js";
import { discoverSkills } from "./skills.js";
import { terminalTools } from "./terminal-tool.js";
import { toolState } from "./updates.js";
import { contextWindowOf } from "./usage.js";

/**
 * @typedef {object} Turn the prompt turn running in a session
 * @property {boolean} cancelled set by session/cancel (and session/close)
 * @property {AbortController} abort aborted on cancel: withdraws questions, kills terminals
 */
/**
 * @typedef {object} AcpSession one ACP session
 * @property {string} id the conversation id (= the ACP session id; set once started)
 * @property {string} cwd
 * @property {string} mode the permission mode
 * @property {Set<string>} alwaysAllowed tools the user allowed for the session
 * @property {import("letta-agent-wasm/client").TranscriptAccumulator} transcript
 * @property {Map<string, any>} announced tool cards by tool call id
 * @property {import("./plan.js").PlanTracker} plan
 * @property {Map<string, string>} editorTerminals client terminals by tool call id
 * @property {Turn | null} turn
 * @property {import("letta-agent-wasm/client").LettaCodeModelEntry[]} models
 * @property {string | undefined} model
 * @property {ReturnType<typeof serverCommandsOf>} serverCommands
 * @property {{name: string, description: string}[]} skills
 * @property {import("./store.js").SessionStore} store
 * @property {boolean} titled
 * @property {import("letta-agent-wasm/client").LettaCodeSession} session
 * @property {string} agentId
 * @property {number | undefined} contextWindow for usage_update
 * @property {() => void} announceCommands
 * @property {Promise<void> | undefined} commandsAnnounced
 */

/**
 * Opens a session. `context`: the connection's {clientCapabilities, acp, models (catalog
 * cache, filled here), env, store}; `client` the backend's client; `agentId` a promise of the
 * agent; `notify(sessionId, update)`; `sessionId` the conversation to resume, if any.
 * @returns {Promise<AcpSession>}
 */
export async function openSession(context, { client, agentId, notify, cwd, sessionId, mcpServers }) {
  const { clientCapabilities, acp, env, store } = context;
  /** @type {AcpSession} */
  const state = {
    id: sessionId ?? "",
    cwd,
    // A loaded session keeps the mode chosen for it (another process may have set it).
    mode: initialMode((sessionId && store.get(sessionId)?.mode) || env.LETTA_ACP_PERMISSION_MODE),
    alwaysAllowed: new Set(),
    transcript: createTranscriptAccumulator(),
    ...toolState(),
    turn: null,
    models: [],
    model: undefined,
    serverCommands: [],
    skills: [],
    store,
    titled: false,
    // Set below, once the session exists and has started.
    session: /** @type {any} */ (undefined),
    agentId: "",
    contextWindow: undefined,
    announceCommands: () => {},
    commandsAnnounced: undefined,
  };
  const notifyThis = (update) => notify(state.id, update);
  const options = {
    cwd,
    permissionMode: state.mode,
    canUseTool: permissionCallback(state, acp),
    tools: [...fsTools(state, acp, clientCapabilities), ...terminalTools(state, acp, clientCapabilities, notifyThis)],
    // The editor's MCP servers run in this process; their tools go through canUseTool too.
    mcpServers: mcpServersOption(mcpServers),
  };
  if (env.LETTA_ACP_MODEL && !sessionId) options.model = env.LETTA_ACP_MODEL;
  state.session = sessionId ? client.resumeSession(sessionId, options) : client.createSession(await agentId, options);
  let ready;
  try {
    ready = await state.session.ready();
  } catch (error) {
    state.session.close();
    throw error;
  }
  state.id = ready.conversationId;
  state.agentId = ready.agentId;
  // The model a /model or set_config_option chose for this session (any process), else the server's.
  state.model = env.LETTA_ACP_MODEL && !sessionId ? env.LETTA_ACP_MODEL : (store.get(state.id)?.model ?? ready.model);
  context.models ??= (await state.session.listModels().catch((error) => (log(`listModels failed: ${error.message}`), { entries: [] }))).entries;
  state.models = context.models;
  const [status, contextWindow] = await Promise.all([state.session.getDeviceStatus({ timeoutMs: 5_000 }).catch(() => undefined), contextWindowOf(client, state.agentId)]);
  state.serverCommands = serverCommandsOf(status);
  state.skills = discoverSkills(cwd, { env, serverSkills: status?.raw?.current_available_skills ?? [] });
  state.contextWindow = contextWindow;
  /**
   * `available_commands_update`, sent just after the session/new|load|resume response (a
   * client drops updates for a session it has not heard of yet). `prompt` waits for it, so the
   * announcement always precedes a prompt's reply, however loaded the machine is.
   */
  state.announceCommands = () => {
    state.commandsAnnounced = new Promise((resolve) => setTimeout(resolve, 20))
      .then(() => notifyThis({ sessionUpdate: "available_commands_update", availableCommands: availableCommands(state) }))
      .catch(() => {});
  };
  return state;
}
