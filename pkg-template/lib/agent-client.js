// LettaAgentClient: the portable client. Remote backend: options are validated by options.js;
// sessions, `createAgent()` and the management facades each run a Rust SessionDriver
// (src/js/session.rs: the session core and its socket). Cloud backend: a CloudBackend
// (cloud.js, loaded with the Cloud build) answers the same facades over REST.

import { clientConfig } from "./options.js";
import { cloudWasm, wasm } from "./runtime.js";
import { closedError, ConversationForkHydrationError, invalidArgument, LettaNotInitializedError, LettaUnsupportedError } from "./errors.js";
import { LettaCodeSession, newDriver } from "./session.js";
import { asyncDisposeSymbol, isNonEmptyString, parse } from "./values.js";

const cloudOnly = (what) =>
  new LettaUnsupportedError(`${what} is only available with backend: "cloud".`);
const throwCloudOnly = (what) => {
  throw cloudOnly(what);
};

/**
 * The wire form of `source`: the members named in `names` (space-separated, in wire order; all
 * of `source`'s own when omitted) that are not `undefined`, their camelCase names in snake_case
 * unless `name:wire_name` says otherwise.
 */
function wire(source, names) {
  const out = {};
  for (const name of names?.split(" ") ?? Object.keys(source)) {
    const [from, to = from.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = name.split(":");
    if (source?.[from] !== undefined) out[to] = source[from];
  }
  return out;
}

const ORDER_BY = { createdAt: "created_at", lastRunCompletion: "last_run_completion", lastMessageAt: "last_message_at" };
const orderBy = (value) => ORDER_BY[value] ?? value;

function nonEmptyId(value, what) {
  if (!isNonEmptyString(value)) throw invalidArgument(`Invalid ${what} id. Expected a non-empty string.`);
  return value;
}

/** The portable Letta Agent SDK client. `backend: "remote"` talks to a Letta Code app server. */
export class LettaAgentClient {
  #connection;
  #closed = false;
  #management = null;
  /** The CloudBackend of a `backend: "cloud"` client (else `null`). */
  #cloud = null;

  constructor(options) {
    wasm(); // the typed "not initialized" error comes first
    if (options === null || typeof options !== "object") {
      throw invalidArgument("LettaAgentClient options must be an object.");
    }
    const { WebSocket, fetch: _fetch, headers: _headers, ...rest } = options;
    if (WebSocket !== undefined && typeof WebSocket !== "function") {
      throw invalidArgument("Invalid WebSocket. Expected a WebSocket constructor.");
    }
    const nonce = wasm().SessionDriver.requestNonce();
    if (rest.backend === "cloud") {
      const bindings = cloudWasm();
      if (bindings === null) {
        throw new LettaNotInitializedError('backend: "cloud" needs `await init({ cloud: true })`.');
      }
      this.#cloud = new bindings.CloudBackend(bindings.CloudClient, rest, globalThis.process?.env, _fetch);
      this.backend = "cloud";
      this.#connection = { cloud: this.#cloud, WebSocket, nonce };
    } else {
      this.backend = "remote";
      this.#connection = { client: clientConfig(JSON.parse(JSON.stringify(rest))), WebSocket, nonce };
    }
    this.agents = this.#agents();
    this.conversations = this.#conversations();
    this.models = { list: () => this.#managed((driver) => driver.listModels()) };
  }

  /** Deprecated alias of `computer`; the remote backend has none. */
  get computer() {
    return undefined;
  }

  get environment() {
    return undefined;
  }

  get repositories() {
    return this.#cloud?.repositories ?? throwCloudOnly("client.repositories");
  }

  get computers() {
    return this.#cloud?.computers ?? throwCloudOnly("client.computers");
  }

  #live() {
    if (this.#closed) throw closedError("LettaAgentClient is closed");
    return this.#connection;
  }

  /** Creates an agent (through a short-lived session in create-agent mode); returns its id. */
  async createAgent(options = {}) {
    if (this.#cloud) return this.#live().cloud.createAgent(options ?? {});
    const session = new LettaCodeSession(this.#live(), { kind: "createAgent", options: options ?? {} }, {});
    try {
      const { agentId } = await session.ready();
      return agentId;
    } finally {
      session.close();
    }
  }

  /** A session on a new conversation of `agentId`. Synchronous; connects on first use. */
  createSession(agentId, options = {}) {
    if (!isNonEmptyString(agentId)) {
      throw invalidArgument("createSession() requires a non-empty agent id.");
    }
    return new LettaCodeSession(this.#live(), { kind: "createSession", agentId }, options);
  }

  /** A session on a conversation (`conv-…` / `local-conv-…`) or on an agent's default conversation. */
  resumeSession(id, options = {}) {
    if (!isNonEmptyString(id)) {
      throw invalidArgument("resumeSession() requires a non-empty agent id.");
    }
    return new LettaCodeSession(this.#live(), { kind: "resumeSession", id }, options);
  }

  /** Sends one message on a new conversation and returns the result. */
  async prompt(message, agentId, options = {}) {
    const session = this.createSession(agentId, options);
    try {
      return await session.sendAndWaitForResult(message);
    } finally {
      session.close();
    }
  }

  /**
   * An agent-free conversation (spec §1.7): sends `prompt` once and yields the stream. The
   * Letta Code app server creates such conversations through Letta Cloud, so offline servers
   * answer with an error (raised by the first iteration).
   */
  query({ prompt, options } = {}) {
    const connection = this.#live();
    const { model, system, conversationId, modelSettings, parentAgentId, name, isSubagent, contextWindowLimit, ...rest } =
      options ?? {};
    for (const key of ["reasoningEffort", "stateless", "dreaming", "resources", "filesystemConfinement"]) {
      if (rest[key] !== undefined) throw invalidArgument(`query() does not accept ${key}.`);
    }
    if (conversationId === undefined) {
      if (!isNonEmptyString(model)) throw invalidArgument("query() requires a non-empty model.");
      if (typeof system !== "string") throw invalidArgument("query() requires a system prompt.");
    }
    const body = wire({ model, system, parentAgentId, name, isSubagent, modelSettings, contextWindowLimit });
    const session = new LettaCodeSession(connection, { kind: "query", conversationId, body }, rest);
    return new Query(session, prompt);
  }

  /** Closes the pooled management connection. Sessions are independent. Idempotent. */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    const pool = this.#management;
    this.#management = null;
    if (pool !== null) (await pool.catch(() => null))?.close();
  }

  async [asyncDisposeSymbol]() {
    await this.close();
  }

  /** Runs `use(driver)` on the pooled management connection, reconnecting if it dropped. */
  async #managed(use) {
    const { cloud } = this.#live();
    if (cloud) return parse(await use(cloud));
    let pool = this.#management;
    if (pool !== null) {
      const driver = await pool.catch(() => null);
      if (driver === null || driver.isClosed()) pool = null;
    }
    if (pool === null) {
      const { client, nonce, WebSocket } = this.#connection;
      const driver = newDriver({ ...client, target: { kind: "management" } }, nonce, WebSocket, () => {});
      pool = driver.connect().then(
        () => driver,
        (error) => {
          driver.release();
          throw error;
        },
      );
      pool.catch(() => {
        if (this.#management === pool) this.#management = null;
      });
      this.#management = pool;
    }
    return parse(await use(await pool));
  }

  #request(type, fields) {
    return this.#managed((driver) => driver.management(type, JSON.stringify(fields)));
  }

  #agents() {
    const cloud = this.#cloud;
    return {
      list: async (options = {}) => {
        const query = wire(options, "before after limit order orderBy query:query_text name tags matchAllTags include");
        if (query.order_by !== undefined) query.order_by = orderBy(query.order_by);
        return (await this.#request("agent_list", { query })).agents;
      },
      retrieve: async (agentId) =>
        (await this.#request("agent_retrieve", { agent_id: nonEmptyId(agentId, "agent") })).agent,
      update: async (agentId, body = {}) => {
        const wireBody = wire(body, "name description model modelSettings system tags hidden contextWindowLimit");
        return (await this.#request("agent_update", { agent_id: nonEmptyId(agentId, "agent"), body: wireBody })).agent;
      },
      delete: async (agentId) => {
        await this.#request("agent_delete", { agent_id: nonEmptyId(agentId, "agent") });
      },
      get repositories() {
        return cloud?.agentRepositories ?? throwCloudOnly("client.agents.repositories");
      },
    };
  }

  #conversations() {
    const retrieve = async (conversationId) =>
      (await this.#request("conversation_retrieve", { conversation_id: nonEmptyId(conversationId, "conversation") }))
        .conversation;
    return {
      list: async (options = {}) => {
        const query = wire(options, "agentId after limit order orderBy archiveStatus summarySearch");
        if (query.order_by !== undefined) query.order_by = orderBy(query.order_by);
        return (await this.#request("conversation_list", { query })).conversations;
      },
      retrieve,
      create: async (body = {}) => {
        const wireBody = wire(body, "agentId summary description model modelSettings contextWindowLimit hidden");
        return (await this.#request("conversation_create", { body: wireBody })).conversation;
      },
      update: async (conversationId, body = {}) => {
        const wireBody = wire(body, "summary description model modelSettings contextWindowLimit archived");
        const fields = { conversation_id: nonEmptyId(conversationId, "conversation"), body: wireBody };
        return (await this.#request("conversation_update", fields)).conversation;
      },
      fork: async (conversationId, options = {}) => {
        nonEmptyId(conversationId, "conversation");
        if (options?.messageId !== undefined) nonEmptyId(options.messageId, "message");
        const body = wire(options, "messageId hidden");
        const forked = await this.#request("conversation_fork", { conversation_id: conversationId, body });
        const forkId = forked.conversation?.id;
        try {
          return await retrieve(forkId);
        } catch (cause) {
          throw new ConversationForkHydrationError(forkId ?? conversationId, cause);
        }
      },
      listMessages: async (conversationId, options = {}) => {
        const query = wire(options, "before after order limit");
        const fields = { conversation_id: nonEmptyId(conversationId, "conversation") };
        if (Object.keys(query).length > 0) fields.query = query;
        return { messages: (await this.#request("conversation_messages_list", fields)).messages ?? [] };
      },
    };
  }
}

/** What `query()` returns: an async generator of the conversation's messages. */
class Query {
  #session;
  #messages;

  constructor(session, prompt) {
    this.#session = session;
    this.#messages = (async function* () {
      try {
        await session.send(prompt);
        yield* session.stream();
      } finally {
        session.close();
      }
    })();
  }

  get conversationId() {
    return this.#session.conversationId;
  }

  get agentId() {
    return null;
  }

  /** Interrupts the running turn. */
  interrupt() {
    return this.#session.abort();
  }

  /** Ends the conversation's session. */
  close() {
    this.#session.close();
  }

  next(value) {
    return this.#messages.next(value);
  }

  return(value) {
    return this.#messages.return(value);
  }

  throw(error) {
    return this.#messages.throw(error);
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/** Adapts React Native's `WebSocket(url, protocols, {headers})` to `(url, {headers})`. */
export function createReactNativeWebSocketConstructor(WebSocket) {
  if (typeof WebSocket !== "function") {
    throw invalidArgument("createReactNativeWebSocketConstructor() expects the React Native WebSocket class.");
  }
  return function ReactNativeWebSocket(url, options) {
    return new WebSocket(url, undefined, options);
  };
}

/** Letta Cloud repositories; the remote backend has none. */
export class RepositoriesClient {
  constructor() {
    throw cloudOnly("RepositoriesClient");
  }
}
