// A Letta Cloud stand-in for tests, written from the spec (client-api-and-protocol.md §4): the
// REST routes of §4.2 with the field names of `@letta-ai/letta-client`, and the status relay of
// §4.6 (relay.mjs) in front of the REAL app server, so Cloud sessions run real turns with the
// scripted model. Agents, conversations, models and messages are the app server's (through its
// management commands); computers, sandboxes and repositories are kept here in memory.
//
// Loopback only, with a time limit. Every request needs `Authorization: Bearer <apiKey>` (the
// relay also takes `token=`); a wrong key gets 401 and the key is never logged or echoed.
//
// Fault switches (`standIn.faults`, settable at any time):
//   duplicateIdempotencyKeys  every relayed frame with an idempotency_key is sent twice
//   eventSeqGap               the next stream_delta's event_seq jumps by 3 (once)
//   streamDeltaOnControl      stream deltas are also sent on the control socket
//   expireSandboxes           sandbox refreshes by id answer 404 (an expired sandbox)
//   offlinePolls              a new sandbox's environment reads offline for its first N polls
//   legacySandboxes           sandbox creation does not echo conversationId (agent-scoped)
//   dropMidTurn               both sockets close right after the next relayed stream_delta (once)
//   malformedDecisions        the next decisions answer picks a choice its question does not have (once)
//   decisionsDelayMs          decisions answers wait this long
// CORS: any origin may call the REST routes (browser tests serve their page from another port).
// and `standIn.dropSockets()` closes every relayed session now (an idle drop).
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { attachRelay } from "./relay.mjs";
import { Management } from "./upstream.mjs";
import { repositoryRoutes } from "./repositories.mjs";

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}
const notFound = (what) => new HttpError(404, `${what} not found`);
const pick = (source, keys) => Object.fromEntries(keys.filter((k) => source[k] != null).map((k) => [k, source[k]]));

function environmentRecord({ id, deviceId, connectionId, connectionName, metadata }) {
  const now = Date.now();
  return {
    id,
    connectedAt: connectionId ? now : null,
    connectionId,
    connectionName,
    deviceId,
    firstSeenAt: now,
    lastHeartbeat: connectionId ? now : null,
    lastSeenAt: now,
    organizationId: "org-stand-in",
    podId: null,
    ...(metadata ? { metadata } : {}),
  };
}

/** The questions of a decisions request, after checking the request's shape (else a 422). */
function decisionQuestions(body) {
  const bad = (detail) => new HttpError(422, `invalid decision request: ${detail}`);
  const isRecord = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!(typeof body.state === "string" || Array.isArray(body.state) || isRecord(body.state))) throw bad("state");
  if (typeof body.model !== "string") throw bad("model");
  for (const key of ["session_id", "user"]) if (body[key] !== undefined && typeof body[key] !== "string") throw bad(key);
  if (body.trace !== undefined && !isRecord(body.trace)) throw bad("trace");
  if (body.provider !== undefined && !(isRecord(body.provider) && ["boolean", "undefined"].includes(typeof body.provider.allow_fallbacks))) throw bad("provider");
  const known = ["state", "questions", "model", "session_id", "trace", "user", "provider"];
  const extra = Object.keys(body).find((key) => !known.includes(key));
  if (extra) throw bad(`unknown field ${extra}`);
  if (!isRecord(body.questions) || Object.keys(body.questions).length === 0) throw bad("questions");
  for (const q of Object.values(body.questions)) {
    const ok = isRecord(q) && typeof q.instructions === "string" &&
      ((q.type === "choice" && isRecord(q.criteria)) || (q.type === "score" && Array.isArray(q.criteria)) || (q.type === "noul" && q.criteria === undefined));
    if (!ok) throw bad("question");
  }
  return body.questions;
}

/** A well-formed answer to a checked question. */
function decisionAnswer(q) {
  if (q.type === "noul") return { type: "noul", noul: 0.25 };
  if (q.type === "score") {
    return { type: "score", score: 0, legend: Object.fromEntries(q.criteria.map((label, i) => [String(i), label])), probabilities: { 0: 0.9 }, confidence: 0.9 };
  }
  const [first] = Object.keys(q.criteria);
  return { type: "choice", choice: first, probabilities: { [first]: 0.9 }, confidence: 0.9 };
}

/** letta-client `Model` from an app-server `list_models` entry. */
function cloudModel(entry) {
  const context = entry.updateArgs?.context_window ?? 128_000;
  return {
    handle: entry.handle,
    name: entry.id,
    display_name: entry.label,
    model: entry.id,
    model_endpoint_type: "openai",
    provider_type: "openai",
    provider_name: entry.handle.split("/")[0],
    context_window: context,
    max_context_window: context,
  };
}

/**
 * Starts the stand-in. Options: `appServer: {url, token}` (the real app server), `apiKey`,
 * `defaultModel` (what `letta/auto` maps to), `timeLimitMs` (default 10 min), `log`.
 * Resolves to `{url, apiKey, faults, records, computers, dropSockets(), stop()}`.
 */
export async function startCloudStandIn({ appServer, apiKey, defaultModel, timeLimitMs = 600_000, log = () => {} }) {
  const faults = {
    duplicateIdempotencyKeys: false,
    eventSeqGap: false,
    streamDeltaOnControl: false,
    expireSandboxes: false,
    offlinePolls: 0,
    legacySandboxes: false,
    dropMidTurn: false,
    malformedDecisions: false,
    decisionsDelayMs: 0,
  };
  const records = {
    requests: [], unauthorized: [], connections: [], commands: [], syncs: [], acks: [], pings: [], sent: [],
    ignored: [], duplicates: [], gaps: [], drops: [], refreshes: [], terminated: [], recompiles: [], polls: [], ephemeral: [],
    agents: [], decisions: [],
  };
  const management = new Management(appServer.url, appServer.token);
  const computers = {
    online: { id: "env-stand-in", deviceId: "device-stand-in", connectionId: "conn-stand-in", connectionName: "stand-in-computer", metadata: { os: "linux" } },
    offline: { id: "env-offline", deviceId: "device-offline", connectionId: null, connectionName: "offline-computer" },
  };
  const environments = new Map(Object.values(computers).map((c) => [c.deviceId, { ...c }]));
  const sandboxes = new Map();
  const agentRepositories = new Map();
  const repositories = repositoryRoutes();

  const modelFor = (model) => (model == null || model === "letta/auto" ? defaultModel : model);

  /** `GET /v1/environments/<deviceId>`: a sandbox's environment is offline for its first polls. */
  function environment(deviceId) {
    const env = environments.get(deviceId);
    if (!env) throw notFound("Environment");
    const sandbox = [...sandboxes.values()].find((s) => s.deviceId === deviceId);
    if (sandbox && sandbox.offlineLeft > 0) {
      sandbox.offlineLeft -= 1;
      return environmentRecord({ ...env, connectionId: null });
    }
    return environmentRecord(env);
  }

  const routes = [
    ["POST", /^\/v1\/agents\/$/, async ({ body }) => {
      records.agents.push(body);
      const fields = ["name", "description", "system", "tags", "memory_blocks", "block_ids", "tools", "include_base_tools", "include_base_tool_rules"];
      const started = await management.runtimeStart({
        create_agent: { body: { ...pick(body, fields), model: modelFor(body.model) }, memfs: false },
        create_conversation: {},
      });
      return started.agent;
    }],
    // Experimental decisions (letta-agent-sdk src/alpha/decision-types.ts): the request
    // checked as the API types it, a fixed answer per question (the first choice, the lowest
    // score, noul 0.25).
    ["POST", /^\/v1\/alpha\/decisions$/, async ({ body }) => {
      records.decisions.push(body);
      if (faults.decisionsDelayMs > 0) await new Promise((done) => setTimeout(done, faults.decisionsDelayMs));
      const answers = Object.fromEntries(Object.entries(decisionQuestions(body)).map(([name, q]) => [name, decisionAnswer(q)]));
      if (faults.malformedDecisions) {
        faults.malformedDecisions = false;
        const [name, q] = Object.entries(body.questions).find(([, q]) => q.type === "choice") ?? [];
        if (name) answers[name] = { ...decisionAnswer(q), choice: "not-a-criterion" };
      }
      return { id: `decision-${randomUUID().slice(0, 8)}`, model: body.model, provider: "stand-in", answers, usage: { input_tokens: 12, output_tokens: 3, cost: 0.0001 } };
    }],
    ["GET", /^\/v1\/agents\/$/, async ({ query }) => (await management.request("agent_list", { query })).agents ?? []],
    ["GET", /^\/v1\/agents\/([^/]+)$/, async ({ params }) => (await management.request("agent_retrieve", { agent_id: params[0] })).agent],
    ["PATCH", /^\/v1\/agents\/([^/]+)$/, async ({ params, body }) =>
      (await management.request("agent_update", { agent_id: params[0], body })).agent],
    ["DELETE", /^\/v1\/agents\/([^/]+)$/, async ({ params }) => {
      await management.request("agent_delete", { agent_id: params[0] });
      return {};
    }],
    ["POST", /^\/v1\/agents\/([^/]+)\/recompile$/, ({ params }) => {
      records.recompiles.push({ agentId: params[0] });
      return "recompiled";
    }],
    ["GET", /^\/v1\/models\/$/, async () => {
      const { entries = [] } = await management.request("list_models", { force: true });
      // One entry without a handle (an embedding model), which clients drop.
      return [...entries.filter((e) => e.handle).map(cloudModel), { handle: null, name: "embedding-only", model: "embed" }];
    }],
    ["POST", /^\/v1\/conversations\/$/, async ({ query, body }) => {
      if (!query.agent_id) throw new HttpError(422, "agent_id is required");
      return (await management.request("conversation_create", { body: { ...body, agent_id: query.agent_id } })).conversation;
    }],
    ["GET", /^\/v1\/conversations\/$/, async ({ query }) => (await management.request("conversation_list", { query })).conversations ?? []],
    // Agent-free conversations (query()): the local app server cannot create them offline (its
    // createEphemeralConversation calls the Letta API), so the stand-in answers with letta-code's
    // EphemeralConversation shape and records the body; no turn can run on such an id.
    ["POST", /^\/v1\/conversations\/ephemeral$/, ({ body }) => {
      if (typeof body.model !== "string" || typeof body.system !== "string") throw new HttpError(422, "model and system are required");
      const conversation = { id: `conv-ephemeral-${randomUUID().slice(0, 8)}`, agent_id: null, model: modelFor(body.model), context_window_limit: body.context_window_limit ?? null };
      records.ephemeral.push({ ...conversation, system: body.system });
      return conversation;
    }],
    ["GET", /^\/v1\/conversations\/([^/]+)$/, async ({ params }) =>
      (await management.request("conversation_retrieve", { conversation_id: params[0] })).conversation],
    ["PATCH", /^\/v1\/conversations\/([^/]+)$/, async ({ params, body }) =>
      (await management.request("conversation_update", { conversation_id: params[0], body })).conversation],
    ["POST", /^\/v1\/conversations\/([^/]+)\/fork$/, async ({ params, query }) => {
      const body = pick(query, ["message_id"]);
      if (query.hidden !== undefined) body.hidden = query.hidden === "true";
      return (await management.request("conversation_fork", { conversation_id: params[0], body })).conversation;
    }],
    ["POST", /^\/v1\/conversations\/([^/]+)\/recompile$/, ({ params, body }) => {
      records.recompiles.push({ conversationId: params[0], agentId: body.agent_id });
      return "recompiled";
    }],
    ["GET", /^\/v1\/conversations\/([^/]+)\/messages$/, async ({ params, query }) => {
      // REST cursors are order-relative (desc by default): undo that for the app server.
      const order = query.order ?? "desc";
      const q = { order, ...(query.limit ? { limit: Number(query.limit) } : {}) };
      const [older, newer] = order === "desc" ? [query.after, query.before] : [query.before, query.after];
      if (older) q.before = older;
      if (newer) q.after = newer;
      return (await management.request("conversation_messages_list", { conversation_id: params[0], query: q })).messages ?? [];
    }],
    ["GET", /^\/v1\/environments$/, ({ query }) => {
      let list = [...environments.values()].map((env) => environmentRecord(env));
      if (query.onlineOnly === "true") list = list.filter((env) => env.connectionId !== null);
      const start = query.after ? list.findIndex((env) => env.id === query.after) + 1 : 0;
      const limit = query.limit ? Number(query.limit) : list.length;
      const page = list.slice(start, start + limit);
      return { connections: page, hasNextPage: start + limit < list.length };
    }],
    ["GET", /^\/v1\/environments\/([^/]+)$/, ({ params }) => {
      records.polls.push(params[0]);
      return environment(params[0]);
    }],
    ["POST", /^\/v1\/agents\/([^/]+)\/sandboxes$/, ({ params, body }) => {
      const sandboxId = `sbx-${randomUUID().slice(0, 8)}`;
      const sandbox = {
        sandboxId,
        agentId: params[0],
        conversationId: body.conversationId ?? null,
        deviceId: `device-${sandboxId}`,
        connectionName: `sandbox-${sandboxId}`,
        offlineLeft: faults.offlinePolls,
        githubRepositories: body.githubRepositories ?? [],
        terminated: false,
      };
      sandboxes.set(sandboxId, sandbox);
      environments.set(sandbox.deviceId, { id: `env-${sandboxId}`, deviceId: sandbox.deviceId, connectionId: `conn-${sandboxId}`, connectionName: sandbox.connectionName });
      const out = { sandboxId, deviceId: sandbox.deviceId, connectionName: sandbox.connectionName, resumed: false };
      if (!faults.legacySandboxes) out.conversationId = sandbox.conversationId;
      return out;
    }],
    ["POST", /^\/v1\/sandboxes\/([^/]+)\/refresh$/, ({ params, body }) => {
      const sandbox = sandboxes.get(params[0]);
      records.refreshes.push({ sandboxId: params[0], ttlMinutes: body.ttlMinutes, expired: faults.expireSandboxes });
      if (!sandbox || sandbox.terminated || faults.expireSandboxes) throw notFound("Sandbox");
      return { success: true, sandboxId: sandbox.sandboxId, ttlMinutes: body.ttlMinutes ?? 5 };
    }],
    ["POST", /^\/v1\/agents\/([^/]+)\/sandboxes\/refresh$/, ({ params, body }) => {
      const sandbox = [...sandboxes.values()].find((s) => s.agentId === params[0] && !s.terminated);
      records.refreshes.push({ agentId: params[0], ttlMinutes: body.ttlMinutes });
      if (!sandbox) throw notFound("Sandbox");
      return { success: true, sandboxId: sandbox.sandboxId, ttlMinutes: body.ttlMinutes ?? 5 };
    }],
    ["POST", /^\/v1\/sandboxes\/([^/]+)\/terminate$/, ({ params }) => terminate(sandboxes.get(params[0]))],
    ["DELETE", /^\/v1\/agents\/([^/]+)\/sandboxes$/, ({ params }) =>
      terminate([...sandboxes.values()].find((s) => s.agentId === params[0] && !s.terminated))],
    ["POST", /^\/v1\/sandboxes\/([^/]+)\/files$/, async ({ params, request, raw }) => {
      const sandbox = liveSandbox(params[0]);
      const form = await new Request("http://stand-in/", { method: "POST", headers: request.headers, body: raw }).formData();
      const files = [];
      for (const file of form.getAll("file")) {
        const path = `/root/downloads/${file.name}`;
        sandbox.files = sandbox.files ?? new Map();
        sandbox.files.set(path, Buffer.from(await file.arrayBuffer()));
        files.push({ path, name: file.name, mimeType: file.type || "application/octet-stream", size: file.size });
      }
      return { files };
    }],
    ["GET", /^\/v1\/sandboxes\/([^/]+)\/files$/, ({ params, query }) => {
      const data = liveSandbox(params[0]).files?.get(query.path);
      if (!data) throw notFound("File");
      return { binary: data };
    }],
    ["GET", /^\/v1\/agents\/([^/]+)\/repositories$/, ({ params }) => [...(agentRepositories.get(params[0]) ?? new Map()).values()]],
    ["POST", /^\/v1\/agents\/([^/]+)\/repositories$/, ({ params, body }) => {
      const repository = repositories.get(body.repository_id);
      if (!repository) throw notFound("Repository");
      const linked = agentRepositories.get(params[0]) ?? new Map();
      agentRepositories.set(params[0], linked);
      const entry = { id: repository.id, name: repository.name, is_primary: linked.size === 0, permissions: body.permissions ?? "read_write" };
      linked.set(repository.id, entry);
      return { success: true, repository: entry };
    }],
    ["DELETE", /^\/v1\/agents\/([^/]+)\/repositories\/([^/]+)$/, ({ params }) => {
      if (!agentRepositories.get(params[0])?.delete(params[1])) throw notFound("Repository");
      return { success: true };
    }],
    ...repositories.routes,
  ];

  function liveSandbox(id) {
    const sandbox = sandboxes.get(id);
    if (!sandbox || sandbox.terminated) throw notFound("Sandbox");
    return sandbox;
  }

  function terminate(sandbox) {
    if (!sandbox || sandbox.terminated) throw notFound("Sandbox");
    sandbox.terminated = true;
    environments.delete(sandbox.deviceId);
    records.terminated.push(sandbox.sandboxId);
    return { success: true };
  }

  async function handle(request, response) {
    // Browsers call the REST API cross-origin (the test page is served elsewhere), as they do
    // Letta Cloud's: allow any origin and answer preflights, without credentials (the key
    // travels in the Authorization header, never in a cookie).
    response.setHeader("access-control-allow-origin", "*");
    if (request.method === "OPTIONS") {
      response.writeHead(204, {
        "access-control-allow-methods": "GET, POST, PATCH, DELETE",
        "access-control-allow-headers": request.headers["access-control-request-headers"] ?? "*",
        "access-control-max-age": "600",
      });
      return response.end();
    }
    const url = new URL(request.url, "http://stand-in");
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const query = Object.fromEntries(url.searchParams);
    records.requests.push({
      method: request.method,
      path: url.pathname,
      query,
      source: request.headers["x-letta-source"],
      projectId: request.headers["x-project-id"],
      contentType: request.headers["content-type"],
    });
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    const reply = (status, value) => {
      if (value?.binary) {
        response.writeHead(status, { "content-type": "application/octet-stream" });
        return response.end(value.binary);
      }
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value ?? null));
    };
    try {
      if (bearer !== apiKey) {
        records.unauthorized.push({ path: url.pathname, via: bearer ? "header" : "none" });
        throw new HttpError(401, "Invalid API key");
      }
      const route = routes.find(([method, path]) => method === request.method && path.test(url.pathname));
      if (!route) throw new HttpError(404, "Not Found");
      const params = route[1].exec(url.pathname).slice(1).map(decodeURIComponent);
      const isJson = (request.headers["content-type"] ?? "").includes("application/json");
      const body = isJson && raw.length > 0 ? JSON.parse(raw.toString("utf8")) : {};
      reply(200, await route[2]({ params, query, body, raw, request }));
    } catch (error) {
      const status = Number.isInteger(error.status) ? error.status : 500;
      reply(status, { message: error.message });
    }
  }

  const server = createServer((request, response) => void handle(request, response));
  /** A connection the relay accepts: known, and its sandbox (if any) past its offline polls. */
  const connectionOnline = (id) =>
    [...environments.values()].some(
      (env) => env.connectionId === id && ![...sandboxes.values()].some((s) => s.deviceId === env.deviceId && s.offlineLeft > 0),
    );
  const relay = attachRelay(server, {
    apiKey,
    appServer,
    faults,
    records,
    log,
    connectionOnline,
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(limit);
    relay.close();
    management.close();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  };
  const limit = setTimeout(() => {
    log(`time limit (${timeLimitMs} ms) reached: stopping`);
    void stop();
  }, timeLimitMs);
  limit.unref();
  log(`Cloud stand-in on http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    faults,
    records,
    computers,
    sandboxes,
    dropSockets: (reason) => relay.dropAll(reason),
    openSessions: () => relay.open(),
    stop,
  };
}

/** A random API key for a test run (never printed). */
export const testApiKey = () => `sk-let-${createHash("sha256").update(randomUUID()).digest("hex").slice(0, 32)}`;

/**
 * A stand-in with a fresh key in front of `peer` (tests/support/real-peer.mjs `startPeer`), its
 * log lines collected (tests check that the key is in none): `{standIn, apiKey, lines}`.
 */
export async function standInFor(peer, { timeLimitMs = 600_000 } = {}) {
  const apiKey = testApiKey();
  const lines = [];
  const standIn = await startCloudStandIn({
    appServer: { url: peer.url, token: peer.token },
    apiKey,
    defaultModel: peer.model,
    timeLimitMs,
    log: (line) => lines.push(line),
  });
  return { standIn, apiKey, lines };
}
