// LettaAgentClient: the portable client. Options are validated by options.js. Sessions run a Rust
// SessionDriver (src/js/session.rs: the session core and its socket, or Cloud's status
// sockets). The management facades (`agents`, `conversations`, `models`) call one backend
// interface, `listAgents(query)`, …, with wire-named queries and bodies: the remote backend
// (remote.js) answers with app-server management commands, the Cloud backend (cloud.js) over REST.

import { clientConfig, clientOptionsObject, cloudClientOptions, queryTarget } from "./options.js";
import { wasm } from "./runtime.js";
import { closedError, ConversationForkHydrationError, invalidArgument, LettaUnsupportedError } from "./errors.js";
import { CloudBackend } from "./cloud.js";
import { LettaCodeSession } from "./session.js";
import { RemoteBackend } from "./remote.js";
import { asyncDisposeSymbol, isNonEmptyString } from "./values.js";

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

/**
 * What sessions of a client share: the checked remote options (`client`) or the Cloud backend
 * (`cloud`), the WebSocket constructor and the request-id nonce.
 * @typedef {{client?: ReturnType<typeof clientConfig>, cloud?: import("./cloud.js").CloudBackend, WebSocket: unknown, nonce: unknown}} Connection
 * @typedef {import("../client.js").LettaAgentClient} PublicClient the declared API
 */

/**
 * The portable Letta Agent SDK client. `backend: "remote"` talks to a Letta Code app server.
 * @implements {PublicClient}
 */
export class LettaAgentClient {
  /** @type {Connection} */
  #connection;
  #closed = false;
  /** The management backend: the remote one, or the Cloud one. @type {RemoteBackend | import("./cloud.js").CloudBackend} */
  #backend;
  /** The CloudBackend of a `backend: "cloud"` client (else `null`). @type {import("./cloud.js").CloudBackend | null} */
  #cloud = null;
  /** `client.alpha`, made on first use. @type {import("../alpha.js").AlphaClient | null} */
  #alpha = null;
  /** The `computer` (or `environment`) option of a Cloud client. */
  #computer;

  constructor(options) {
    wasm(); // the typed "not initialized" error comes first
    const { WebSocket, fetch: _fetch, headers, ...rest } = clientOptionsObject(options);
    if (WebSocket !== undefined && typeof WebSocket !== "function") {
      throw invalidArgument("Invalid WebSocket. Expected a WebSocket constructor.");
    }
    const nonce = wasm().SessionDriver.requestNonce();
    if (rest.backend === "cloud") {
      // `headers` go with every Cloud REST call (and may carry the key as a bearer token).
      const plain = JSON.parse(JSON.stringify({ ...rest, headers }));
      const cloud = new CloudBackend(cloudClientOptions(plain), globalThis.process?.env, _fetch);
      this.#cloud = cloud;
      this.#backend = cloud;
      /** @type {"remote" | "cloud"} */
      this.backend = "cloud";
      this.#computer = rest.computer ?? rest.environment;
      this.#connection = { cloud, WebSocket, nonce };
    } else {
      this.backend = "remote";
      this.#connection = { client: clientConfig(JSON.parse(JSON.stringify(rest))), WebSocket, nonce };
      this.#backend = new RemoteBackend(this.#connection);
    }
    this.agents = this.#agents();
    this.conversations = this.#conversations();
    this.models = { list: async () => this.#management().listModels() };
  }

  /** Cloud: the client's default computer; the remote backend has none. */
  get computer() {
    return this.#computer;
  }

  /** Deprecated alias of `computer`. */
  get environment() {
    return this.#computer;
  }

  get repositories() {
    return this.#cloud?.repositories ?? throwCloudOnly("client.repositories");
  }

  get computers() {
    return this.#cloud?.computers ?? throwCloudOnly("client.computers");
  }

  /** Experimental Cloud APIs (`alpha.decisions`), without a stability guarantee. */
  get alpha() {
    this.#live();
    const cloud = this.#cloud;
    if (!cloud) throw cloudOnly("client.alpha");
    return (this.#alpha ??= cloud.alpha(() => this.#live()));
  }

  #live() {
    if (this.#closed) throw closedError("LettaAgentClient is closed");
    return this.#connection;
  }

  /**
   * Creates an agent; returns its id. Remote: a short-lived session in create-agent mode, or,
   * with a `personality`, the app server's own preset (`create_agent`) on the management
   * connection. The options are checked by the lazily loaded agent-creation.js.
   */
  async createAgent(options = {}) {
    const connection = this.#live();
    const creation = await import("./agent-creation.js");
    if (connection.cloud) return connection.cloud.createAgent(creation.cloudAgentCreation(options));
    const { target, preset, update } = creation.remoteAgentCreation(options, connection.client?.pinGlobalAgent);
    if (preset) {
      const remote = /** @type {RemoteBackend} */ (this.#backend);
      const agentId = (await remote.request("create_agent", preset)).agent_id;
      if (update) await remote.updateAgent(agentId, update);
      return agentId;
    }
    const session = new LettaCodeSession(connection, target, {});
    try {
      const { agentId } = await session.ready();
      return agentId;
    } finally {
      session.close();
    }
  }

  /** A session on a new conversation of `agentId`. Synchronous; connects on first use. */
  createSession(agentId, options = {}) {
    // The agent id is checked (synchronously) with the session's other options (options.js).
    return new LettaCodeSession(this.#live(), { kind: "createSession", agentId }, options);
  }

  /** A session on a conversation (`conv-…` / `local-conv-…`) or on an agent's default conversation. */
  resumeSession(id, options = {}) {
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
   * @param {Partial<import("../options.js").QueryParams>} [params]
   */
  query({ prompt, options } = {}) {
    const connection = this.#live();
    const { target, options: sessionOptions } = queryTarget(options);
    const session = new LettaCodeSession(connection, { kind: "query", target }, sessionOptions);
    // As in the reference, this one is raised by the first iteration.
    const refused =
      connection.cloud && target.disableMemoryGuard
        ? invalidArgument('query() disableMemoryGuard is only supported with backend: "local" or "remote".')
        : null;
    return new Query(session, prompt, refused);
  }

  /** Closes the pooled management connection. Sessions are independent. Idempotent. */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    await this.#backend.close();
  }

  async [asyncDisposeSymbol]() {
    await this.close();
  }

  /** The management backend of an open client. */
  #management() {
    this.#live();
    return this.#backend;
  }

  /** @returns {import("../management.js").AgentsClient} */
  #agents() {
    const cloud = this.#cloud;
    return {
      list: async (options = {}) => {
        const query = wire(options, "before after limit order orderBy query:query_text name tags matchAllTags include");
        if (query.order_by !== undefined) query.order_by = orderBy(query.order_by);
        return this.#management().listAgents(query);
      },
      retrieve: async (agentId) => this.#management().retrieveAgent(nonEmptyId(agentId, "agent")),
      update: async (agentId, body = {}) => {
        const wireBody = wire(body, "name description model modelSettings system tags hidden contextWindowLimit");
        return this.#management().updateAgent(nonEmptyId(agentId, "agent"), wireBody);
      },
      delete: async (agentId) => this.#management().deleteAgent(nonEmptyId(agentId, "agent")),
      get repositories() {
        return cloud?.agentRepositories ?? throwCloudOnly("client.agents.repositories");
      },
    };
  }

  /** @returns {import("../management.js").ConversationsClient} */
  #conversations() {
    const retrieve = async (conversationId) =>
      this.#management().retrieveConversation(nonEmptyId(conversationId, "conversation"));
    return {
      list: async (options = {}) => {
        const query = wire(options, "agentId after limit order orderBy archiveStatus summarySearch");
        if (query.order_by !== undefined) query.order_by = orderBy(query.order_by);
        return this.#management().listConversations(query);
      },
      retrieve,
      create: async (body) => {
        const wireBody = wire(body, "agentId summary description model modelSettings contextWindowLimit hidden");
        return this.#management().createConversation(wireBody);
      },
      update: async (conversationId, body = {}) => {
        const wireBody = wire(body, "summary description model modelSettings contextWindowLimit archived");
        return this.#management().updateConversation(nonEmptyId(conversationId, "conversation"), wireBody);
      },
      fork: async (conversationId, options = {}) => {
        nonEmptyId(conversationId, "conversation");
        if (options?.messageId !== undefined) nonEmptyId(options.messageId, "message");
        const forkId = await this.#management().forkConversation(conversationId, wire(options, "messageId hidden"));
        try {
          return await retrieve(forkId);
        } catch (cause) {
          throw new ConversationForkHydrationError(forkId ?? conversationId, cause);
        }
      },
      listMessages: async (conversationId, options = {}) => {
        const query = wire(options, "before after order limit");
        const messages = await this.#management().listMessages(nonEmptyId(conversationId, "conversation"), query);
        return { messages };
      },
    };
  }
}

/** What `query()` returns: an async generator of the conversation's messages. */
class Query {
  #session;
  #messages;

  /** `refused`: an error the first iteration throws instead of sending. */
  constructor(session, prompt, refused) {
    this.#session = session;
    this.#messages = (async function* () {
      try {
        if (refused) throw refused;
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

  /** `await using`: ends the query like `return()`. */
  async [asyncDisposeSymbol]() {
    await this.return(undefined);
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
