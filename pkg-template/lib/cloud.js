// The Cloud backend of `LettaAgentClient` (`backend: "cloud"`): a Rust `CloudClient`
// (src/js/cloud.rs: the options, `fetch`, one method per REST call) and the facades that only
// Cloud has (`client.repositories`, `client.computers`, `client.agents.repositories`).
//
// `agents`, `conversations` and `models` are the same facades as on the remote backend
// (agent-client.js): they call this backend's `listAgents(query)`, … as they call the remote
// one's (remote.js), with the wire-named queries and bodies, and get the same shapes back.
// Arguments cross into Rust as JSON text and results come back as JSON text, each parsed once.
//
// In a browser the `CloudClient` class is in the Cloud build, which the first Cloud call loads
// (lib/runtime.js): until then the options are checked by the small build's
// `checkCloudOptions`, the same Rust code the `CloudClient` constructor runs, so wrong options
// still throw synchronously.

import { LettaInvalidArgumentError } from "./errors.js";
import { cloudWasm, loadCloudWasm, wasm } from "./runtime.js";
import { isNonEmptyString } from "./values.js";

const text = JSON.stringify;

/** `{type: "repository", repositoryId}` ids and other ids the facades check before a call. */
function required(value, what) {
  if (!isNonEmptyString(value)) {
    throw new LettaInvalidArgumentError(`Invalid ${what}. Expected a non-empty string.`);
  }
  return value;
}

/** The Cloud backend of one client. */
export class CloudBackend {
  /** The checked client options, as JSON text. */
  #options;
  /** `LETTA_API_KEY` and `LETTA_CLOUD_API_KEY` of the environment (Node), the key's fallback. */
  #keys;
  #fetch;
  /** The Rust `CloudClient`, made once the Cloud build is there. @type {any} */
  #client = null;

  /**
   * `options`: the JSON view of the client options that `lib/options.js` checked (`fetch` and
   * the WebSocket constructor left out); `env`: the `LETTA_API_KEY` / `LETTA_CLOUD_API_KEY`
   * fallbacks (Node); `fetch`: the `fetch` option. Throws the typed validation errors of the
   * Cloud options.
   */
  constructor(options, env, fetch) {
    this.#options = text(options);
    this.#keys = [env?.LETTA_API_KEY, env?.LETTA_CLOUD_API_KEY];
    this.#fetch = fetch;
    const bindings = cloudWasm();
    if (bindings !== null) {
      this.#client = this.#newClient(bindings);
    } else {
      wasm().checkCloudOptions(this.#options, ...this.#keys);
      // The download starts now; a failure is reported (and retried) by the first call.
      loadCloudWasm().catch(() => {});
    }
    this.repositories = this.#repositories();
    this.computers = this.#computers();
    this.agentRepositories = this.#agentRepositories();
  }

  #newClient(bindings) {
    return new bindings.CloudClient(this.#options, ...this.#keys, this.#fetch);
  }

  /** The Rust `CloudClient`, loading the Cloud build first where it is separate. */
  async client() {
    if (this.#client === null) {
      const bindings = await loadCloudWasm();
      this.#client ??= this.#newClient(bindings);
    }
    return this.#client;
  }

  /**
   * A session driver for `config` (JSON, as lib/session.js builds it), or `null` while the
   * Cloud build is not loaded: the session's options are then checked now, as
   * `createSessionDriver` checks them, and its start makes the driver.
   */
  sessionDriver(config, nonce, WebSocket, events) {
    if (this.#client === null) {
      wasm().checkCloudOptions(this.#options, ...this.#keys, config);
      return null;
    }
    return this.#client.createSessionDriver(config, nonce, WebSocket, events);
  }

  /** `call` on the `CloudClient`: its result. */
  async #run(call) {
    return call(await this.client());
  }

  /** `call` on the `CloudClient`: its JSON text result, parsed. */
  async #parsed(call) {
    return JSON.parse(await this.#run(call));
  }

  listAgents(query) {
    return this.#parsed((c) => c.agentsList(text(query)));
  }

  retrieveAgent(agentId) {
    return this.#parsed((c) => c.agentsRetrieve(agentId));
  }

  updateAgent(agentId, body) {
    return this.#parsed((c) => c.agentsUpdate(agentId, text(body)));
  }

  async deleteAgent(agentId) {
    await this.#run((c) => c.agentsDelete(agentId));
  }

  listConversations(query) {
    return this.#parsed((c) => c.conversationsList(text(query)));
  }

  retrieveConversation(conversationId) {
    return this.#parsed((c) => c.conversationsRetrieve(conversationId));
  }

  createConversation(body) {
    return this.#parsed((c) => c.conversationsCreate(text(body)));
  }

  updateConversation(conversationId, body) {
    return this.#parsed((c) => c.conversationsUpdate(conversationId, text(body)));
  }

  /** The fork's id (`body`: `{message_id?, hidden?}`). */
  forkConversation(conversationId, body) {
    return this.#run((c) => c.conversationsFork(conversationId, body.message_id, body.hidden));
  }

  /** The page's messages (`query`: `{before?, after?, order?, limit?}`). */
  async listMessages(conversationId, query) {
    return (await this.#parsed((c) => c.conversationsListMessages(conversationId, text(query)))).messages;
  }

  listModels() {
    return this.#parsed((c) => c.modelsList());
  }

  /** Nothing to release: each call is its own request. */
  async close() {}

  /**
   * `client.alpha` (experimental Cloud APIs); `assertOpen` throws once the client is closed,
   * as the getters and calls do in the reference.
   */
  /** @returns {import("../alpha.js").AlphaClient} */
  alpha(assertOpen) {
    const decisions = {
      evaluate: async (params, options) => {
        assertOpen();
        // The request and answer checks are a chunk of their own, fetched on first use.
        const { evaluateDecision } = await import("./decisions.js");
        return evaluateDecision(await this.client(), params, options);
      },
    };
    return {
      get decisions() {
        assertOpen();
        return decisions;
      },
    };
  }

  /** `createAgent(options)`: the new agent's id. */
  createAgent(options) {
    return this.#run((c) => c.createAgent(text(options ?? {})));
  }

  /** @returns {import("../backends.js").RepositoriesClient} */
  #repositories() {
    const id = (repositoryId) => required(repositoryId, "repository id");
    return {
      create: async (params) => this.#parsed((c) => c.repositoriesCreate(required(params?.name, "repository name"))),
      list: async ({ limit, offset } = {}) => this.#parsed((c) => c.repositoriesList(limit, offset)),
      get: async (repositoryId) => this.#parsed((c) => c.repositoriesGet(id(repositoryId))),
      delete: async (repositoryId) => {
        await this.#run((c) => c.repositoriesDelete(id(repositoryId)));
      },
      files: {
        list: async (repositoryId, options = {}) => this.#parsed((c) => c.repositoryFilesList(id(repositoryId), text(options ?? {}))),
        create: async (repositoryId, params) =>
          this.#parsed((c) => c.repositoryFilesCreate(id(repositoryId), required(params?.path, "file path"), params?.content ?? "")),
        read: async (repositoryId, params) =>
          this.#parsed((c) => c.repositoryFilesRead(id(repositoryId), required(params?.path, "file path"), params?.ref)),
        update: async (repositoryId, options) => this.#parsed((c) => c.repositoryFilesUpdate(id(repositoryId), text(options ?? {}))),
        // `{success, commitSha}`.
        delete: async (repositoryId, params) =>
          this.#parsed((c) => c.repositoryFilesDelete(id(repositoryId), required(params?.path, "file path"))),
      },
      versions: {
        list: async (repositoryId, { path, limit } = {}) => this.#parsed((c) => c.repositoryVersionsList(id(repositoryId), path, limit)),
        get: async (repositoryId, sha, params) =>
          this.#parsed((c) => c.repositoryVersionsGet(id(repositoryId), required(sha, "version sha"), params?.path)),
      },
    };
  }

  /** @returns {import("../backends.js").ComputersClient} */
  #computers() {
    return {
      list: async (options = {}) => this.#parsed((c) => c.computersList(text(options ?? {}))),
      get: async (deviceId) => this.#parsed((c) => c.computersGet(required(deviceId, "device id"))),
      resolve: async (selector) => this.#parsed((c) => c.computersResolve(text(selector) ?? "null")),
    };
  }

  /** @returns {import("../management.js").AgentRepositoriesClient} */
  #agentRepositories() {
    const agent = (agentId) => required(agentId, "agent id");
    return {
      list: async (agentId) => this.#parsed((c) => c.agentRepositoriesList(agent(agentId))),
      attach: async (agentId, repositoryId, options = {}) =>
        this.#parsed((c) =>
          c.agentRepositoriesAttach(
            agent(agentId),
            required(repositoryId, "repository id"),
            options?.permissions,
            options?.recompile !== false,
          ),
        ),
      detach: async (agentId, repositoryId, options = {}) => {
        await this.#run((c) => c.agentRepositoriesDetach(agent(agentId), required(repositoryId, "repository id"), options?.recompile !== false));
      },
    };
  }
}
