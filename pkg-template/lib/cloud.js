// The Cloud backend of `LettaAgentClient` (`backend: "cloud"`): a Rust `CloudClient`
// (src/js/cloud.rs: the options, `fetch`, one method per REST call) and the facades that only
// Cloud has (`client.repositories`, `client.computers`, `client.agents.repositories`).
//
// `agents`, `conversations` and `models` are the same facades as on the remote backend
// (agent-client.js): they call this backend's `listAgents(query)`, … as they call the remote
// one's (remote.js), with the wire-named queries and bodies, and get the same shapes back.
// Arguments cross into Rust as JSON text and results come back as JSON text, each parsed once.

import { LettaInvalidArgumentError } from "./errors.js";
import { isNonEmptyString } from "./values.js";

const text = JSON.stringify;
const parsed = async (json) => JSON.parse(await json);

/** `{type: "repository", repositoryId}` ids and other ids the facades check before a call. */
function required(value, what) {
  if (!isNonEmptyString(value)) {
    throw new LettaInvalidArgumentError(`Invalid ${what}. Expected a non-empty string.`);
  }
  return value;
}

/** The Cloud backend of one client. */
export class CloudBackend {
  /**
   * `options`: the JSON view of the client options that `lib/options.js` checked (`fetch` and
   * the WebSocket constructor left out); `env`: the `LETTA_API_KEY` / `LETTA_CLOUD_API_KEY`
   * fallbacks (Node); `fetch`: the `fetch` option. Throws the typed validation errors of the
   * Cloud options.
   */
  constructor(CloudClient, options, env, fetch) {
    this.client = new CloudClient(text(options), env?.LETTA_API_KEY, env?.LETTA_CLOUD_API_KEY, fetch);
    this.repositories = this.#repositories();
    this.computers = this.#computers();
    this.agentRepositories = this.#agentRepositories();
  }

  listAgents(query) {
    return parsed(this.client.agentsList(text(query)));
  }

  retrieveAgent(agentId) {
    return parsed(this.client.agentsRetrieve(agentId));
  }

  updateAgent(agentId, body) {
    return parsed(this.client.agentsUpdate(agentId, text(body)));
  }

  async deleteAgent(agentId) {
    await this.client.agentsDelete(agentId);
  }

  listConversations(query) {
    return parsed(this.client.conversationsList(text(query)));
  }

  retrieveConversation(conversationId) {
    return parsed(this.client.conversationsRetrieve(conversationId));
  }

  createConversation(body) {
    return parsed(this.client.conversationsCreate(text(body)));
  }

  updateConversation(conversationId, body) {
    return parsed(this.client.conversationsUpdate(conversationId, text(body)));
  }

  /** The fork's id (`body`: `{message_id?, hidden?}`). */
  forkConversation(conversationId, body) {
    return this.client.conversationsFork(conversationId, body.message_id, body.hidden);
  }

  /** The page's messages (`query`: `{before?, after?, order?, limit?}`). */
  async listMessages(conversationId, query) {
    return (await parsed(this.client.conversationsListMessages(conversationId, text(query)))).messages;
  }

  listModels() {
    return parsed(this.client.modelsList());
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
        return evaluateDecision(this.client, params, options);
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
    return this.client.createAgent(text(options ?? {}));
  }

  /** @returns {import("../backends.js").RepositoriesClient} */
  #repositories() {
    const c = this.client;
    const id = (repositoryId) => required(repositoryId, "repository id");
    return {
      create: async (params) => parsed(c.repositoriesCreate(required(params?.name, "repository name"))),
      list: async ({ limit, offset } = {}) => parsed(c.repositoriesList(limit, offset)),
      get: async (repositoryId) => parsed(c.repositoriesGet(id(repositoryId))),
      delete: async (repositoryId) => {
        await c.repositoriesDelete(id(repositoryId));
      },
      files: {
        list: async (repositoryId, options = {}) => parsed(c.repositoryFilesList(id(repositoryId), text(options ?? {}))),
        create: async (repositoryId, params) =>
          parsed(c.repositoryFilesCreate(id(repositoryId), required(params?.path, "file path"), params?.content ?? "")),
        read: async (repositoryId, params) =>
          parsed(c.repositoryFilesRead(id(repositoryId), required(params?.path, "file path"), params?.ref)),
        update: async (repositoryId, options) => parsed(c.repositoryFilesUpdate(id(repositoryId), text(options ?? {}))),
        // `{success, commitSha}`.
        delete: async (repositoryId, params) =>
          parsed(c.repositoryFilesDelete(id(repositoryId), required(params?.path, "file path"))),
      },
      versions: {
        list: async (repositoryId, { path, limit } = {}) => parsed(c.repositoryVersionsList(id(repositoryId), path, limit)),
        get: async (repositoryId, sha, params) =>
          parsed(c.repositoryVersionsGet(id(repositoryId), required(sha, "version sha"), params?.path)),
      },
    };
  }

  /** @returns {import("../backends.js").ComputersClient} */
  #computers() {
    const c = this.client;
    return {
      list: async (options = {}) => parsed(c.computersList(text(options ?? {}))),
      get: async (deviceId) => parsed(c.computersGet(required(deviceId, "device id"))),
      resolve: async (selector) => parsed(c.computersResolve(text(selector) ?? "null")),
    };
  }

  /** @returns {import("../management.js").AgentRepositoriesClient} */
  #agentRepositories() {
    const c = this.client;
    const agent = (agentId) => required(agentId, "agent id");
    return {
      list: async (agentId) => parsed(c.agentRepositoriesList(agent(agentId))),
      attach: async (agentId, repositoryId, options = {}) =>
        parsed(
          c.agentRepositoriesAttach(
            agent(agentId),
            required(repositoryId, "repository id"),
            options?.permissions,
            options?.recompile !== false,
          ),
        ),
      detach: async (agentId, repositoryId, options = {}) => {
        await c.agentRepositoriesDetach(agent(agentId), required(repositoryId, "repository id"), options?.recompile !== false);
      },
    };
  }
}
