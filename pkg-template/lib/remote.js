// The remote backend of the management facades (agent-client.js): each operation is one
// management command of the Letta Code app server, sent over a pooled connection (a Rust
// SessionDriver in management mode, src/js/session.rs), answered with the server's objects.
// Cloud's backend (cloud.js) has the same methods over REST.

import { newDriver } from "./session.js";
import { parse } from "./values.js";

/**
 * The management backend of one remote client: `listAgents(query)`, … take the wire-named
 * queries and bodies the facades built and resolve with the server's objects.
 */
export class RemoteBackend {
  #connection;
  /** The pooled management connection (a driver, once connected). @type {Promise<any> | null} */
  #pool = null;

  /** `connection`: the client's checked options (`client`), WebSocket constructor and nonce. */
  constructor(connection) {
    this.#connection = connection;
  }

  /** One management command (`type` and its fields): the server's answer. */
  request(type, fields) {
    return this.#managed((driver) => driver.management(type, JSON.stringify(fields)));
  }

  async listAgents(query) {
    return (await this.request("agent_list", { query })).agents;
  }

  async retrieveAgent(agentId) {
    return (await this.request("agent_retrieve", { agent_id: agentId })).agent;
  }

  async updateAgent(agentId, body) {
    return (await this.request("agent_update", { agent_id: agentId, body })).agent;
  }

  async deleteAgent(agentId) {
    await this.request("agent_delete", { agent_id: agentId });
  }

  async listConversations(query) {
    return (await this.request("conversation_list", { query })).conversations;
  }

  async retrieveConversation(conversationId) {
    return (await this.request("conversation_retrieve", { conversation_id: conversationId })).conversation;
  }

  async createConversation(body) {
    return (await this.request("conversation_create", { body })).conversation;
  }

  async updateConversation(conversationId, body) {
    return (await this.request("conversation_update", { conversation_id: conversationId, body })).conversation;
  }

  /** The fork's id (`body`: `{message_id?, hidden?}`). */
  async forkConversation(conversationId, body) {
    return (await this.request("conversation_fork", { conversation_id: conversationId, body })).conversation?.id;
  }

  /** The page's messages (`query`: `{before?, after?, order?, limit?}`, omitted when empty). */
  async listMessages(conversationId, query) {
    const fields = { conversation_id: conversationId };
    if (Object.keys(query).length > 0) fields.query = query;
    return (await this.request("conversation_messages_list", fields)).messages ?? [];
  }

  listModels() {
    return this.#managed((driver) => driver.listModels());
  }

  /** Closes the pooled connection. */
  async close() {
    const pool = this.#pool;
    this.#pool = null;
    if (pool !== null) (await pool.catch(() => null))?.close();
  }

  /** Runs `use(driver)` on the pooled connection, reconnecting if it dropped. */
  async #managed(use) {
    let pool = this.#pool;
    if (pool !== null) {
      const driver = await pool.catch(() => null);
      if (driver === null || driver.isClosed()) pool = null;
    }
    if (pool === null) {
      const { client, nonce, WebSocket } = this.#connection;
      const driver = newDriver({ ...client, target: { kind: "management" } }, nonce, WebSocket, () => {});
      const connecting = driver.connect().then(
        () => driver,
        (error) => {
          driver.release();
          throw error;
        },
      );
      connecting.catch(() => {
        if (this.#pool === connecting) this.#pool = null;
      });
      this.#pool = pool = connecting;
    }
    return parse(await use(await pool));
  }
}
