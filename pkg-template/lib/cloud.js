// The Cloud half of `LettaAgentClient` (`backend: "cloud"`): a Rust `CloudClient`
// (src/js/cloud.rs: the options, `fetch`, one method per REST call) and the facades that only
// Cloud has (`client.repositories`, `client.computers`, `client.agents.repositories`).
//
// `agents`, `conversations` and `models` are the same facades as on the remote backend
// (agent-client.js): they call `management(type, json)` with the app server's management
// command names, which `CloudBackend.management` maps to the REST calls, returning the same
// shapes. Browsers load this module with the Cloud build (browser/cloud-load.js), so it keeps
// no state of its own (its error classes are the realm's one set, see errors.js).

import { LettaInvalidArgumentError } from "./errors.js";
import { isNonEmptyString } from "./values.js";
import { evaluateDecision } from "./decisions.js";

/** The JSON view of the client options: top-level functions left out (`JSON.stringify` would drop them too). */
const withoutFunctions = (options) => Object.fromEntries(Object.entries(options).filter(([, v]) => typeof v !== "function"));

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
   * `options`: the client options without `fetch` and the WebSocket constructor; `env`: the
   * `LETTA_API_KEY` / `LETTA_CLOUD_API_KEY` fallbacks (Node); `fetch`: the `fetch` option.
   * Throws the typed validation errors of the options.
   */
  constructor(CloudClient, options, env, fetch) {
    this.client = new CloudClient(withoutFunctions(options ?? {}), env?.LETTA_API_KEY, env?.LETTA_CLOUD_API_KEY, fetch);
    this.repositories = this.#repositories();
    this.computers = this.#computers();
    this.agentRepositories = this.#agentRepositories();
  }

  /**
   * One management command of the shared facades (its wire `type` and fields as JSON text,
   * what agent-client.js sends to an app server too), answered over REST in the shape the app
   * server gives: resolves with JSON text, as the app server's answer would be.
   */
  async management(type, fieldsJson) {
    const c = this.client;
    const f = JSON.parse(fieldsJson);
    const call = {
      agent_list: async () => ({ agents: await c.agentsList(f.query ?? {}) }),
      agent_retrieve: async () => ({ agent: await c.agentsRetrieve(f.agent_id) }),
      agent_update: async () => ({ agent: await c.agentsUpdate(f.agent_id, f.body ?? {}) }),
      agent_delete: async () => (await c.agentsDelete(f.agent_id), {}),
      conversation_list: async () => ({ conversations: await c.conversationsList(f.query ?? {}) }),
      conversation_retrieve: async () => ({
        conversation: await c.conversationsRetrieve(f.conversation_id),
      }),
      conversation_create: async () => ({ conversation: await c.conversationsCreate(f.body ?? {}) }),
      conversation_update: async () => ({
        conversation: await c.conversationsUpdate(f.conversation_id, f.body ?? {}),
      }),
      conversation_fork: async () => ({
        conversation: { id: await c.conversationsFork(f.conversation_id, f.body?.message_id, f.body?.hidden) },
      }),
      conversation_messages_list: async () => c.conversationsListMessages(f.conversation_id, f.query ?? {}),
    }[type];
    return JSON.stringify(await call());
  }

  /** `models.list()`: resolves with JSON text (what the shared facades take from both backends). */
  listModels() {
    return this.client.modelsList();
  }

  /**
   * `client.alpha` (experimental Cloud APIs); `assertOpen` throws once the client is closed,
   * as the getters and calls do in the reference.
   */
  /** @returns {import("../alpha.js").AlphaClient} */
  alpha(assertOpen) {
    const decisions = {
      evaluate: async (params, options) => {
        assertOpen();
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
    return this.client.createAgent(options ?? {});
  }

  /** @returns {import("../backends.js").RepositoriesClient} */
  #repositories() {
    const c = this.client;
    const id = (repositoryId) => required(repositoryId, "repository id");
    return {
      create: async (params) => c.repositoriesCreate(required(params?.name, "repository name")),
      list: async ({ limit, offset } = {}) => c.repositoriesList(limit, offset),
      get: async (repositoryId) => c.repositoriesGet(id(repositoryId)),
      delete: async (repositoryId) => {
        await c.repositoriesDelete(id(repositoryId));
      },
      files: {
        list: async (repositoryId, options = {}) => c.repositoryFilesList(id(repositoryId), options ?? {}),
        create: async (repositoryId, params) =>
          c.repositoryFilesCreate(id(repositoryId), required(params?.path, "file path"), params?.content ?? ""),
        read: async (repositoryId, params) =>
          c.repositoryFilesRead(id(repositoryId), required(params?.path, "file path"), params?.ref),
        update: async (repositoryId, options) => c.repositoryFilesUpdate(id(repositoryId), options ?? {}),
        // `{success, commitSha}`.
        delete: async (repositoryId, params) => c.repositoryFilesDelete(id(repositoryId), required(params?.path, "file path")),
      },
      versions: {
        list: async (repositoryId, { path, limit } = {}) => c.repositoryVersionsList(id(repositoryId), path, limit),
        get: async (repositoryId, sha, params) =>
          c.repositoryVersionsGet(id(repositoryId), required(sha, "version sha"), params?.path),
      },
    };
  }

  /** @returns {import("../backends.js").ComputersClient} */
  #computers() {
    const c = this.client;
    return {
      list: async (options = {}) => c.computersList(options ?? {}),
      get: async (deviceId) => c.computersGet(required(deviceId, "device id")),
      resolve: async (selector) => c.computersResolve(selector),
    };
  }

  /** @returns {import("../management.js").AgentRepositoriesClient} */
  #agentRepositories() {
    const c = this.client;
    const agent = (agentId) => required(agentId, "agent id");
    return {
      list: async (agentId) => c.agentRepositoriesList(agent(agentId)),
      attach: async (agentId, repositoryId, options = {}) =>
        c.agentRepositoriesAttach(
          agent(agentId),
          required(repositoryId, "repository id"),
          options?.permissions,
          options?.recompile !== false,
        ),
      detach: async (agentId, repositoryId, options = {}) => {
        await c.agentRepositoriesDetach(agent(agentId), required(repositoryId, "repository id"), options?.recompile !== false);
      },
    };
  }
}
