// `client.agents`, `client.conversations` and `client.models`: management requests over a pooled
// app-server connection. Agents, conversations and messages are the server's objects, passed
// through as received (snake_case); the fields listed are the ones the server is known to send.

import type { ListModelsResult } from "./session.js";

/** An agent as the server returns it. */
export interface LettaAgent {
  id: string;
  name?: string;
  description?: string | null;
  model?: string | null;
  model_settings?: Record<string, unknown> | null;
  tags?: string[];
  created_at?: string | null;
  updated_at?: string | null;
  [field: string]: unknown;
}

/** A conversation as the server returns it. */
export interface LettaConversation {
  id: string;
  agent_id?: string;
  summary?: string | null;
  description?: string | null;
  model?: string | null;
  model_settings?: Record<string, unknown> | null;
  archived?: boolean;
  created_at?: string | null;
  updated_at?: string | null;
  last_message_at?: string | null;
  [field: string]: unknown;
}

/**
 * A Letta message of a conversation's history (`user_message`, `assistant_message`,
 * `reasoning_message`, `approval_request_message`, `tool_return_message`, …), as received.
 */
export interface LettaMessage {
  id?: string;
  message_type?: string;
  otid?: string | null;
  run_id?: string | null;
  seq_id?: number | null;
  date?: string;
  [field: string]: unknown;
}

export type SortOrder = "asc" | "desc";

export interface ListAgentsOptions {
  before?: string;
  after?: string;
  limit?: number;
  order?: SortOrder;
  orderBy?: "createdAt" | "lastRunCompletion";
  /** Searches agent names. */
  query?: string;
  /** One exact agent name. */
  name?: string;
  tags?: readonly string[];
  matchAllTags?: boolean;
  /** Relationships to hydrate. */
  include?: readonly string[];
}

export interface UpdateAgentOptions {
  name?: string | null;
  description?: string | null;
  model?: string | null;
  modelSettings?: Record<string, unknown> | null;
  system?: string | null;
  tags?: readonly string[] | null;
  hidden?: boolean | null;
  contextWindowLimit?: number | null;
}

export type AgentRepositoryPermissions = "read" | "read_write";

export interface AgentRepository {
  id: string;
  name: string;
  isPrimary: boolean;
  permissions: AgentRepositoryPermissions;
}

export interface AttachAgentRepositoryOptions {
  permissions?: AgentRepositoryPermissions;
  recompile?: "default" | false;
}

export interface DetachAgentRepositoryOptions {
  recompile?: "default" | false;
}

/** `client.agents.repositories` (Cloud only: throws `LettaUnsupportedError` on a remote client). */
export interface AgentRepositoriesClient {
  list(agentId: string): Promise<AgentRepository[]>;
  attach(agentId: string, repositoryId: string, options?: AttachAgentRepositoryOptions): Promise<AgentRepository>;
  detach(agentId: string, repositoryId: string, options?: DetachAgentRepositoryOptions): Promise<void>;
}

/** `client.agents`. Blank ids throw `Invalid agent id. Expected a non-empty string.` */
export interface AgentsClient {
  list(options?: ListAgentsOptions): Promise<LettaAgent[]>;
  retrieve(agentId: string): Promise<LettaAgent>;
  update(agentId: string, options?: UpdateAgentOptions): Promise<LettaAgent>;
  delete(agentId: string): Promise<void>;
  /** Cloud only: the getter throws `LettaUnsupportedError` on a remote client. */
  readonly repositories: AgentRepositoriesClient;
}

export interface ListConversationsOptions {
  agentId?: string;
  after?: string;
  limit?: number;
  order?: SortOrder;
  orderBy?: "createdAt" | "lastRunCompletion" | "lastMessageAt";
  archiveStatus?: "unarchived" | "archived" | "all";
  summarySearch?: string;
}

export interface CreateConversationOptions {
  agentId: string;
  summary?: string | null;
  description?: string | null;
  model?: string | null;
  modelSettings?: Record<string, unknown> | null;
  contextWindowLimit?: number | null;
  hidden?: boolean;
}

export interface UpdateConversationOptions {
  summary?: string | null;
  description?: string | null;
  model?: string | null;
  modelSettings?: Record<string, unknown> | null;
  contextWindowLimit?: number | null;
  archived?: boolean | null;
}

export interface ForkConversationOptions {
  /** Fork after this message (non-empty). */
  messageId?: string;
  hidden?: boolean;
}

export interface ConversationMessagesOptions {
  before?: string;
  after?: string;
  order?: SortOrder;
  limit?: number;
}

/** `conversations.listMessages()`: the page only (no cursors). */
export interface ConversationMessagesResult {
  messages: LettaMessage[];
}

/** `client.conversations`. Blank ids throw `Invalid conversation id. Expected a non-empty string.` */
export interface ConversationsClient {
  list(options?: ListConversationsOptions): Promise<LettaConversation[]>;
  retrieve(conversationId: string): Promise<LettaConversation>;
  create(options: CreateConversationOptions): Promise<LettaConversation>;
  update(conversationId: string, options?: UpdateConversationOptions): Promise<LettaConversation>;
  /**
   * Forks and returns the fork as retrieved; when that read fails, rejects with
   * `ConversationForkHydrationError` (the fork exists).
   */
  fork(conversationId: string, options?: ForkConversationOptions): Promise<LettaConversation>;
  listMessages(conversationId: string, options?: ConversationMessagesOptions): Promise<ConversationMessagesResult>;
}

/** `client.models`. */
export interface ModelsClient {
  list(): Promise<ListModelsResult>;
}
