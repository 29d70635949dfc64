// The ACP agent: `initialize`, `session/new|load|list|prompt|cancel|set_mode|set_config_option`
// on the package's `LettaAgentClient`. One ACP session = one conversation of one agent; the ACP
// session id is the conversation id. A turn ends on the session's own `result`.
import { RequestError, agent as acpAgent, methods } from "@agentclientprotocol/sdk";
import { createTranscriptAccumulator } from "letta-agent-wasm/client";
import { log } from "./log.js";
import { availableCommands, parseCommand, runServerCommand, serverCommandsOf } from "./commands.js";
import { configOptions, runModelCommand, switchModel } from "./models.js";
import { initialMode, modeState, permissionCallback } from "./permissions.js";
import { SessionStore } from "./store.js";
import { TurnTranslator, promptText, promptToContent, replayUpdates } from "./updates.js";
import { fsTools } from "./fs-tools.js";
import { mcpServersOption } from "./mcp.js";

const HISTORY_LIMIT = 200;

/**
 * Builds the ACP app. `backend` is a promise of `{client}`, `agentId` a promise of the agent id
 * (both started at launch, awaited by the first session request).
 */
export function createAgentApp({ backend, agentId, env = process.env, version = "0.0.0", store = new SessionStore() }) {
  const sessions = new Map(); // sessionId → state
  let clientCapabilities = {};
  let acp; // the connection's client context (set on connect)
  let models; // the catalog, fetched once

  const notify = (sessionId, update) => acp.notify(methods.client.session.update, { sessionId, update });

  /** The session state of an id, or a JSON-RPC "session not found". */
  const stateOf = (sessionId) => {
    const state = sessions.get(sessionId);
    if (!state) throw RequestError.resourceNotFound(sessionId);
    return state;
  };

  /** Opens (new or resumed) a LettaCodeSession and its ACP state. */
  async function open(cwd, sessionId, mcpServers) {
    const { client } = await backend;
    const state = {
      id: sessionId,
      cwd,
      // A loaded session keeps the mode chosen for it (another process may have set it).
      mode: initialMode((sessionId && store.get(sessionId)?.mode) || env.LETTA_ACP_PERMISSION_MODE),
      alwaysAllowed: new Set(),
      announced: new Map(),
      transcript: createTranscriptAccumulator(),
      turn: null,
      models: /** @type {import("letta-agent-wasm/client").LettaCodeModelEntry[]} */ ([]),
      model: undefined,
      serverCommands: /** @type {ReturnType<typeof serverCommandsOf>} */ ([]),
    };
    const options = {
      cwd,
      permissionMode: state.mode,
      canUseTool: permissionCallback(state, acp),
      tools: fsTools(state, acp, clientCapabilities),
      // The editor's MCP servers run in this process; their tools go through canUseTool too.
      mcpServers: mcpServersOption(mcpServers),
    };
    if (env.LETTA_ACP_MODEL && !sessionId) options.model = env.LETTA_ACP_MODEL;
    state.session = sessionId ? client.resumeSession(sessionId, options) : client.createSession(await agentId, options);
    const ready = await state.session.ready();
    state.id = ready.conversationId;
    state.agentId = ready.agentId;
    state.store = store;
    // The model a /model or set_config_option chose for this session (any process), else the server's.
    state.model = env.LETTA_ACP_MODEL && !sessionId ? env.LETTA_ACP_MODEL : (store.get(state.id)?.model ?? ready.model);
    models ??= (await state.session.listModels().catch((error) => (log(`listModels failed: ${error.message}`), { entries: [] }))).entries;
    state.models = models;
    const status = await state.session.getDeviceStatus({ timeoutMs: 5_000 }).catch(() => undefined);
    state.serverCommands = serverCommandsOf(status);
    sessions.set(state.id, state);
    return state;
  }

  /**
   * `available_commands_update`, sent just after the session/new or session/load response (a
   * client drops updates for a session it has not heard of yet). `prompt` waits for it, so the
   * announcement always precedes a prompt's reply, however loaded the machine is.
   */
  const announceCommands = (state) => {
    state.commandsAnnounced = new Promise((resolve) => setTimeout(resolve, 20))
      .then(() => notify(state.id, { sessionUpdate: "available_commands_update", availableCommands: availableCommands(state) }))
      .catch(() => {});
  };

  /**
   * @param {import("@agentclientprotocol/sdk").PromptRequest} request
   * @returns {Promise<import("@agentclientprotocol/sdk").PromptResponse>}
   */
  async function prompt({ sessionId, prompt: blocks }) {
    const state = stateOf(sessionId);
    await state.commandsAnnounced;
    if (state.turn) throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    const typed = promptText(blocks);
    if (!store.get(state.id)?.title && typed) store.put({ sessionId: state.id, cwd: state.cwd, agentId: state.agentId, title: typed.slice(0, 80) });
    const command = parseCommand(typed);
    if (command?.name === "model") {
      const { text, switched } = await runModelCommand(state, command.args);
      if (switched) await notify(state.id, { sessionUpdate: "config_option_update", configOptions: configOptions(state) });
      await notify(state.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
      return { stopReason: "end_turn" };
    }
    if (command && state.serverCommands.some((c) => c.name === command.name)) {
      const text = await runServerCommand(state, command.name, command.args);
      await notify(state.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
      return { stopReason: "end_turn" };
    }
    const turn = (state.turn = { cancelled: false });
    const translator = new TurnTranslator(state, { terminalOutput: clientCapabilities?._meta?.terminal_output === true });
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
    if (turn.cancelled || result?.errorCode === "interrupted") return { stopReason: "cancelled" };
    if (!result) throw RequestError.internalError(undefined, "the session closed before the turn ended");
    if (result.success) return { stopReason: "end_turn" };
    if (result.errorCode === "max_steps") return { stopReason: "max_turn_requests" };
    throw RequestError.internalError({ errorCode: result.errorCode, detail: result.errorDetail }, result.error);
  }

  const app = acpAgent({ name: "letta-acp" })
    .onConnect((connection) => {
      acp = connection.client;
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: 1,
        agentInfo: { name: "letta-acp", title: "Letta", version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {} },
        },
        authMethods: [],
      };
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const state = await open(params.cwd, undefined, params.mcpServers);
      store.put({ sessionId: state.id, cwd: state.cwd, agentId: state.agentId, createdAt: new Date().toISOString() });
      announceCommands(state);
      return { sessionId: state.id, modes: modeState(state.mode), configOptions: configOptions(state) };
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      const state = sessions.get(params.sessionId) ?? (await open(params.cwd, params.sessionId, params.mcpServers));
      const page = await state.session.listMessages({ limit: HISTORY_LIMIT, order: "desc" });
      state.transcript.reset();
      const rows = state.transcript.rebase(page, { order: "desc" });
      for (const update of replayUpdates(rows)) await notify(state.id, update);
      for (const row of rows) if (row.kind === "tool_call") state.announced.set(row.toolCallId, { parsed: true, name: row.toolName });
      store.put({ sessionId: state.id, cwd: params.cwd, agentId: state.agentId });
      announceCommands(state);
      return { modes: modeState(state.mode), configOptions: configOptions(state) };
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      const { client } = await backend;
      const records = store.list(params.cwd ?? undefined).slice(0, 100);
      const sessionsOut = await Promise.all(
        records.map(async (r) => {
          const live = await client.conversations.retrieve(r.sessionId).catch(() => undefined);
          return { sessionId: r.sessionId, cwd: r.cwd, title: live?.summary || r.title || null, updatedAt: r.updatedAt ?? null };
        }),
      );
      return { sessions: sessionsOut };
    })
    .onRequest(methods.agent.session.prompt, ({ params }) => prompt(params))
    .onNotification(methods.agent.session.cancel, async ({ params }) => {
      const state = sessions.get(params.sessionId);
      if (!state?.turn) return;
      state.turn.cancelled = true;
      await state.session.abort().catch((error) => log(`abort failed: ${error.message}`));
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      const state = stateOf(params.sessionId);
      const mode = initialMode(params.modeId);
      if (mode !== params.modeId) throw RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
      state.mode = mode;
      store.put({ sessionId: state.id, mode });
      await state.session.changeDeviceState({ permissionMode: mode });
      await notify(state.id, { sessionUpdate: "current_mode_update", currentModeId: mode });
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const state = stateOf(params.sessionId);
      if (params.configId !== "model") throw RequestError.invalidParams(undefined, `unknown config option ${params.configId}`);
      await switchModel(state, String(params.value));
      return { configOptions: configOptions(state) };
    });
  /** Closes every session and waits for their MCP servers to end (on shutdown). */
  const closeSessions = () =>
    Promise.all([...sessions.values()].map((state) => state.session[Symbol.asyncDispose ?? Symbol.for("Symbol.asyncDispose")]()));
  return Object.assign(app, { closeSessions });
}
