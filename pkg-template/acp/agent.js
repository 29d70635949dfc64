// The ACP agent: `initialize`, `authenticate`, `session/new|load|resume|close|list|prompt|cancel|
// set_mode|set_config_option` on the package's `LettaAgentClient`. One ACP session = one
// conversation of one agent; the ACP session id is the conversation id. A turn ends on the
// session's own `result`.
import { RequestError, agent as acpAgent, methods } from "@agentclientprotocol/sdk";
import { authMethods, authenticate } from "./auth.js";
import { backendError, backendKind } from "./backend.js";
import { parseCommand, runServerCommand } from "./commands.js";
import { promptText, promptToContent } from "./content.js";
import { errorText, log } from "./log.js";
import { configOptions, runModelCommand, switchModel } from "./models.js";
import { PERMISSIONS_OPTION, initialMode, isMode, modeState } from "./permissions.js";
import { replayHistory } from "./replay.js";
import { listSessions } from "./session-list.js";
import { openSession } from "./session-state.js";
import { SessionStore } from "./store.js";
import { titleConversation } from "./titles.js";
import { TurnTranslator } from "./updates.js";

const HISTORY_LIMIT = 200;
const dispose = (session) => session[Symbol.asyncDispose ?? Symbol.for("Symbol.asyncDispose")]();

/**
 * Builds the ACP app. `backend` is a promise of `{client}` (started at launch: a failed start
 * answers session requests with its error), `agentId` a promise of the agent id.
 */
export function createAgentApp({ backend, agentId, env = process.env, version = "0.0.0", store = new SessionStore() }) {
  const sessions = new Map(); // sessionId → state
  const kind = backendKind(env);
  /**
   * The connection's: what the client offers, its context (set on connect), the model catalog
   * (fetched once).
   * @type {{clientCapabilities: import("@agentclientprotocol/sdk").ClientCapabilities, acp: import("@agentclientprotocol/sdk").AgentContext | undefined, models: import("letta-agent-wasm/client").LettaCodeModelEntry[] | undefined, env: NodeJS.ProcessEnv, store: SessionStore}}
   */
  const context = { clientCapabilities: {}, acp: undefined, models: undefined, env, store };

  /** Sends a `session/update` (the connection exists before any session does). */
  const notify = (sessionId, update) => /** @type {import("@agentclientprotocol/sdk").AgentContext} */ (context.acp).notify(methods.client.session.update, { sessionId, update });
  const connected = () => backend.catch((error) => Promise.reject(backendError(error, env)));

  /** The session state of an id, or a JSON-RPC "resource not found". */
  const stateOf = (sessionId) => {
    const state = sessions.get(sessionId);
    if (!state) throw RequestError.resourceNotFound(sessionId);
    return state;
  };

  /** Opens (new or resumed) a session; a session displaced by loading its id again is closed. */
  async function open(cwd, sessionId, mcpServers) {
    // An agent id would open the agent's default conversation under another session id.
    if (sessionId !== undefined && !/^(local-)?conv-/.test(sessionId)) throw RequestError.invalidParams({ sessionId }, `${sessionId} is not a Letta conversation id (conv-… or local-conv-…)`);
    const { client } = await connected();
    const state = await openSession(context, { client, agentId, notify, cwd, sessionId, mcpServers }).catch((error) => {
      if (sessionId && /not found/i.test(errorText(error))) throw RequestError.resourceNotFound(sessionId);
      throw backendError(error, env);
    });
    const displaced = sessions.get(state.id);
    if (displaced) await closeState(displaced);
    sessions.set(state.id, state);
    return state;
  }

  /** Cancels the state's turn: pending questions are withdrawn (deny), the run interrupted. */
  async function cancel(state) {
    if (!state.turn || state.turn.cancelled) return;
    state.turn.cancelled = true;
    state.turn.abort.abort(new Error("the turn was cancelled"));
    await state.session.abort().catch((error) => log(`abort failed: ${error.message}`));
  }

  /** Cancels and closes one session: its MCP servers end and its socket closes. */
  async function closeState(state) {
    sessions.delete(state.id);
    await cancel(state);
    await dispose(state.session).catch((error) => log(`closing ${state.id} failed: ${error?.message ?? error}`));
  }

  /** `session/new|load|resume`'s answer, and the `/` menu right after it. */
  const opened = (state) => {
    state.announceCommands();
    return { modes: modeState(state.mode), configOptions: configOptions(state) };
  };

  /** Sets the permission mode (set_mode and the permissions select are one choice). */
  async function applyMode(state, value) {
    if (!isMode(value)) throw RequestError.invalidParams({ value }, `unknown permission mode ${JSON.stringify(value)}`);
    state.mode = value;
    store.put({ sessionId: state.id, mode: value });
    await state.session.changeDeviceState({ permissionMode: value });
    await notify(state.id, { sessionUpdate: "current_mode_update", currentModeId: value });
    await notify(state.id, { sessionUpdate: "config_option_update", configOptions: configOptions(state) });
  }

  /**
   * A slash command answered without a model turn, `undefined` when `typed` is none.
   * @returns {Promise<import("@agentclientprotocol/sdk").PromptResponse | undefined>}
   */
  async function runCommand(state, typed) {
    const command = parseCommand(typed);
    let text;
    if (command?.name === "model") {
      const result = await runModelCommand(state, command.args);
      if (result.switched) await notify(state.id, { sessionUpdate: "config_option_update", configOptions: configOptions(state) });
      text = result.text;
    } else if (command && state.serverCommands.some((c) => c.name === command.name)) {
      text = await runServerCommand(state, command.name, command.args);
    } else return undefined;
    await notify(state.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    return { stopReason: "end_turn" };
  }

  /**
   * @param {import("@agentclientprotocol/sdk").PromptRequest} request
   * @returns {Promise<import("@agentclientprotocol/sdk").PromptResponse>}
   */
  async function prompt({ sessionId, prompt: blocks }) {
    const state = stateOf(sessionId);
    await state.commandsAnnounced;
    if (state.turn) throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    const typed = promptText(blocks);
    const answered = await runCommand(state, typed);
    if (answered) return answered;
    const turn = (state.turn = { cancelled: false, abort: new AbortController() });
    const translator = new TurnTranslator(state, { terminalOutput: context.clientCapabilities?._meta?.terminal_output === true });
    let result;
    try {
      await state.session.send(promptToContent(blocks));
      for await (const message of state.session.stream()) {
        for (const update of translator.updates(message)) await notify(state.id, update);
        if (message.type === "error") log(`turn error: ${message.message}`);
        if (message.type === "result") result = message;
      }
    } finally {
      state.turn = null;
    }
    store.put({ sessionId: state.id, cwd: state.cwd, agentId: state.agentId });
    if (turn.cancelled || result?.errorCode === "interrupted") {
      for (const update of translator.unfinished()) await notify(state.id, update);
      return { stopReason: "cancelled" };
    }
    if (!result) throw RequestError.internalError(undefined, "the session closed before the turn ended");
    if (result.success) {
      const { client } = await connected();
      await titleConversation(state, client, notify, typed);
      return { stopReason: "end_turn" };
    }
    if (result.errorCode === "max_steps") return { stopReason: "max_turn_requests" };
    throw RequestError.internalError({ errorCode: result.errorCode, detail: result.errorDetail }, result.error);
  }

  const app = acpAgent({ name: "letta-acp" })
    .onConnect((connection) => {
      context.acp = connection.client;
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      context.clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: 1,
        agentInfo: { name: "letta-acp", title: "Letta", version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: authMethods(kind, context.clientCapabilities),
      };
    })
    .onRequest(methods.agent.authenticate, ({ params }) => authenticate(params.methodId, { kind, env, backend }))
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const state = await open(params.cwd, undefined, params.mcpServers);
      store.put({ sessionId: state.id, cwd: state.cwd, agentId: state.agentId, createdAt: new Date().toISOString() });
      return { sessionId: state.id, ...opened(state) };
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      const state = sessions.get(params.sessionId) ?? (await open(params.cwd, params.sessionId, params.mcpServers));
      const page = await state.session.listMessages({ limit: HISTORY_LIMIT, order: "desc" });
      if (page.hasMore) log(`session ${state.id}: replaying the last ${HISTORY_LIMIT} messages of a longer history`);
      const terminalOutput = context.clientCapabilities?._meta?.terminal_output === true;
      const replay = replayHistory([...page.messages].reverse(), { cwd: state.cwd, terminalOutput });
      for (const update of replay.updates) await notify(state.id, update);
      const plan = replay.plan.entries();
      if (plan) await notify(state.id, { sessionUpdate: "plan", entries: plan });
      for (const [id, card] of replay.calls) state.announced.set(id, card);
      state.plan = replay.plan;
      store.put({ sessionId: state.id, cwd: params.cwd, agentId: state.agentId });
      return opened(state);
    })
    .onRequest(methods.agent.session.resume, async ({ params }) => {
      const state = sessions.get(params.sessionId) ?? (await open(params.cwd, params.sessionId, params.mcpServers));
      store.put({ sessionId: state.id, cwd: params.cwd, agentId: state.agentId });
      return opened(state);
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      await closeState(stateOf(params.sessionId));
      return {};
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      const { client } = await connected();
      return listSessions({ store, client, agentId: await agentId, cwd: params.cwd, cursor: params.cursor });
    })
    .onRequest(methods.agent.session.prompt, ({ params }) => prompt(params))
    .onNotification(methods.agent.session.cancel, async ({ params }) => {
      const state = sessions.get(params.sessionId);
      if (state) await cancel(state);
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      const state = stateOf(params.sessionId);
      if (initialMode(params.modeId) !== params.modeId) throw RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
      await applyMode(state, params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const state = stateOf(params.sessionId);
      if (params.configId === PERMISSIONS_OPTION) await applyMode(state, params.value);
      else if (params.configId === "model") await switchModel(state, String(params.value));
      else throw RequestError.invalidParams(undefined, `unknown config option ${params.configId}`);
      return { configOptions: configOptions(state) };
    });
  /** Closes every session and waits for their MCP servers to end (on shutdown). */
  const closeSessions = () => Promise.all([...sessions.values()].map(closeState));
  return Object.assign(app, { closeSessions });
}
