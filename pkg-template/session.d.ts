// `LettaCodeSession` (from `client.createSession()` / `resumeSession()`) and the results of its
// methods.

import type { LettaMessage } from "./management.js";
import type { SDKStreamMessage, SendMessage } from "./messages.js";
import type { CanUseToolResponse, LegacyPermissionMode, McpServerStatus, PermissionMode, ReasoningEffort } from "./options.js";

/** `ready()`: the session identity, without calling the model or reading history. */
export interface SessionReadyState {
  agentId: string;
  conversationId: string;
  /** The model handle; `undefined` when the server reported none. */
  model: string | undefined;
  /** Tool names of the agent plus SDK-hosted tools; `undefined` when there are none. */
  tools: string[] | undefined;
}

export interface SendOptions {
  /** Non-blank; becomes the message's `otid` and the turn's `clientMessageId`. */
  otid?: string;
}

export interface ListMessagesOptions {
  /** Default: the session's conversation. */
  conversationId?: string;
  /** Older than this message id. */
  before?: string;
  /** Newer than this message id. */
  after?: string;
  /** The server's default when omitted (the app server: newest first). */
  order?: "asc" | "desc";
  /** A positive integer. */
  limit?: number;
}

/** One history page; pass it to `transcript.rebase()`. */
export interface ListMessagesResult {
  messages: LettaMessage[];
  /** Cursor for the next older page, when the server gives one. */
  nextBefore?: string | null;
  /** Whether more pages exist, when the server knows. */
  hasMore?: boolean;
}

export interface BootstrapStateOptions {
  limit?: number;
  /** Default `"desc"`. */
  order?: "asc" | "desc";
}

/** `listMessages()` plus the session identity. */
export interface BootstrapStateResult extends ListMessagesResult {
  agentId: string;
  conversationId: string;
  /** The model handle; `undefined` when the server reported none. */
  model: string | undefined;
  tools: string[] | undefined;
  /** Never set by the portable core. */
  memfsEnabled?: boolean;
  /** Never set by the portable core. */
  hasPendingApproval?: boolean;
  /** Never set by the portable core. */
  timings?: { resolve_ms: number; list_messages_ms: number; total_ms: number };
}

/** One entry of the model catalog, as the server sends it. */
export interface LettaCodeModelEntry {
  /** Model id (pass to `updateModel({modelId})`). */
  id: string;
  /** Provider handle such as `"openai/gpt-4o"` (pass to `updateModel({modelHandle})`). */
  handle: string;
  label: string;
  description?: string;
  isDefault?: boolean;
  isFeatured?: boolean;
  free?: boolean;
  supportsStructuredOutputs?: boolean;
  updateArgs?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface ListModelsResult {
  entries: LettaCodeModelEntry[];
  /** Handles available to the user; `null` means the lookup failed. */
  availableHandles?: string[] | null;
  /** BYOK provider name → base provider name (e.g. `lc-anthropic` → `anthropic`). */
  byokProviderAliases?: Record<string, string>;
}

export interface UpdateModelOptions {
  /** A handle if it contains `/`, else a model id. */
  model?: string;
  modelId?: string;
  modelHandle?: string;
  reasoningEffort?: ReasoningEffort;
}

export interface UpdateModelResult {
  appliedTo?: "agent" | "conversation";
  modelId?: string;
  modelHandle?: string;
  modelSettings?: Record<string, unknown> | null;
}

export interface RecoverPendingApprovalsOptions {
  /** A positive integer (default: the client's request timeout). */
  timeoutMs?: number;
}

export interface RecoverPendingApprovalsResult {
  /** The runtime replayed its state (pending approvals reach `canUseTool` again). */
  recovered: boolean;
  /** Always `false` on the app server. */
  unsupported: boolean;
  /** Never set by the portable core. */
  pendingApproval?: boolean;
  /** Why recovery failed. */
  detail?: string;
}

/** `changeDeviceState()`: at least one of `cwd` and `permissionMode` (legacy modes are mapped). */
export type ChangeDeviceStateOptions =
  | { cwd: string; permissionMode?: PermissionMode | LegacyPermissionMode }
  | { cwd?: string; permissionMode: PermissionMode | LegacyPermissionMode };

export interface RemoveQueuedMessageResult {
  /** The queue item id echoed by the server. */
  itemId: string;
  /** `false` when the item was no longer queued. */
  removed: boolean;
}

export interface GetDeviceStatusOptions {
  /** A positive integer (default: the client's request timeout, else 30 000). */
  timeoutMs?: number;
}

export interface SessionPermissionSuggestion {
  id: string;
  text: string;
}

export interface SessionDiffHunkLine {
  type: "context" | "add" | "remove";
  content: string;
}

export interface SessionDiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: SessionDiffHunkLine[];
}

/** A file-edit preview of a pending approval. */
export type SessionDiffPreview =
  | { mode: "advanced"; fileName: string; hunks: SessionDiffHunk[] }
  | { mode: "fallback" | "unpreviewable"; fileName: string; reason: string };

/** A tool approval the device is waiting on. */
export interface SessionPendingControlRequest {
  /** For correlation only: decisions go through `canUseTool`. */
  requestId: string;
  toolName: string;
  toolCallId?: string;
  toolInput?: Record<string, unknown>;
  permissionSuggestions: SessionPermissionSuggestion[];
  blockedPath: string | null;
  diffs?: SessionDiffPreview[];
}

/** The device's execution context (projection of the wire `update_device_status`). */
export interface SessionDeviceStatus {
  isOnline: boolean;
  isProcessing: boolean;
  permissionMode: PermissionMode;
  workingDirectory: string | null;
  memoryDirectory: string | null;
  pendingControlRequests: SessionPendingControlRequest[];
  /** The whole wire `device_status` object. */
  raw: Record<string, unknown>;
}

export type DeviceStatusListener = (status: SessionDeviceStatus) => void;

/**
 * A connection change of a session with `reconnect` (the default): a socket dropped
 * (`live`: another socket carries the session meanwhile, so turns go on), or the session is
 * whole again.
 */
export type ConnectionChange = { type: "reconnecting"; live: boolean } | { type: "reconnected" };
export type ConnectionChangeListener = (change: ConnectionChange) => void;

/** A protocol frame: an object with a string `type` (snake_case fields, as on the wire). */
export interface SDKProtocolMessage<TType extends string = string> {
  type: TType;
  request_id?: string;
  [field: string]: unknown;
}

export type SDKProtocolCommand<TType extends string = string> = SDKProtocolMessage<TType>;

/** How `sendCommand()` waits for its answer (see the overloads). */
export interface SendCommandOptions<TResponseType extends string = string> {
  /** Resolve with the first frame of this type that echoes the request id. */
  responseType?: TResponseType;
  /** A positive integer (default: the client's request timeout). */
  timeoutMs?: number;
  /** Resolve with the first frame echoing the request id that this accepts (a throw rejects). */
  predicate?: (frame: SDKProtocolMessage) => boolean;
}

/** {@link SendCommandOptions} with at least one field: the call waits for an answer. */
export type SendCommandWaitOptions<TResponseType extends string = string> =
  | (SendCommandOptions<TResponseType> & { responseType: TResponseType })
  | (SendCommandOptions<TResponseType> & { timeoutMs: number })
  | (SendCommandOptions<TResponseType> & { predicate: (frame: SDKProtocolMessage) => boolean });

/** File transfer of an SDK-managed Cloud sandbox (`session.sandbox`, Cloud sessions only). */
export interface SandboxFilesClient {
  uploadFiles(files: readonly { name: string; data: Blob }[]): Promise<{
    files: { path: string; name: string; mimeType: string; size: number }[];
  }>;
  downloadFile(path: string): Promise<Uint8Array>;
}

/**
 * A session on one conversation. Calls start it lazily (once, shared by concurrent callers; a
 * failed start can be retried). After `close()` every call rejects with `Session is closed`.
 */
export interface LettaCodeSession {
  /** `null` until the session started (and for conversations made by `query()`). */
  readonly agentId: string | null;
  /** `null` until the session started. */
  readonly conversationId: string | null;
  /** `"<agentId>:<conversationId>"` (the conversation id alone without an agent); `null` until the session started. */
  readonly sessionId: string | null;
  /**
   * Cloud sessions: file transfer with the session's managed sandbox (files under
   * `/root/downloads`; with an explicit computer both methods reject). `undefined` on remote.
   */
  readonly sandbox?: SandboxFilesClient;
  /** Starts the session (if needed) and returns its identity. Idempotent. */
  ready(): Promise<SessionReadyState>;
  /** Writes a user turn; resolves once written, not when the turn ends. Turns queue. */
  send(message: SendMessage, options?: SendOptions): Promise<void>;
  /**
   * Yields the next turn's messages and stops after its `result` (or when the session closes).
   * Messages arriving between turns wait for the next call.
   */
  stream(): AsyncGenerator<SDKStreamMessage, void, unknown>;
  /** Interrupts the active turn (its result fails with `interrupted`). A no-op before start. */
  abort(): Promise<void>;
  /** Writes a raw protocol command as is. */
  sendCommand(command: SDKProtocolCommand): Promise<void>;
  /**
   * Sends `{type, request_id, ...command}` and resolves with the first frame echoing the
   * request id that satisfies `predicate`, else has type `responseType`, else any typed frame.
   */
  sendCommand<TResponse extends SDKProtocolMessage = SDKProtocolMessage>(
    command: SDKProtocolCommand,
    options: SendCommandWaitOptions,
  ): Promise<TResponse>;
  /** Waits like the overload above when `options` has a field, else writes as is (`undefined`). */
  sendCommand(command: SDKProtocolCommand, options?: SendCommandOptions): Promise<SDKProtocolMessage | undefined>;
  listMessages(options?: ListMessagesOptions): Promise<ListMessagesResult>;
  /** `listMessages({limit, order})` plus the session identity. */
  bootstrapState(options?: BootstrapStateOptions): Promise<BootstrapStateResult>;
  listModels(): Promise<ListModelsResult>;
  /**
   * The status of each of the session's `mcpServers`, in their order (starts the session): a
   * server that failed to start, or stopped since, is `failed` with its `error`; `[]` without
   * `mcpServers`.
   */
  mcpServerStatus(): Promise<McpServerStatus[]>;
  /** Rejects in a stateless session. */
  updateModel(update: string | UpdateModelOptions): Promise<UpdateModelResult>;
  /**
   * Answers the approval of tool call `toolCallId` with `decision` (what `canUseTool` returns),
   * whether or not `canUseTool` is deciding it: one recovered after a reload, or a UI's answer.
   * A request answered already is left as it is. Rejects on an empty `toolCallId`.
   */
  respondToApproval(toolCallId: string, decision: CanUseToolResponse): Promise<void>;
  /** Replays state so that approvals pending across a disconnect reach `canUseTool` again. */
  recoverPendingApprovals(options?: RecoverPendingApprovalsOptions): Promise<RecoverPendingApprovalsResult>;
  /** Fire-and-forget: resolves once written, not when applied. */
  changeDeviceState(update: ChangeDeviceStateOptions): Promise<void>;
  /** Removes a queued (not yet started) message; `itemId` from a `queue_update`. */
  removeQueuedMessage(itemId: string): Promise<RemoveQueuedMessageResult>;
  /** A fresh device status (forces a replay; rejects with a timeout error when none arrives). */
  getDeviceStatus(options?: GetDeviceStatusOptions): Promise<SessionDeviceStatus>;
  /** Calls `listener` with every device status of this session; returns the unsubscribe function. */
  onDeviceStatus(listener: DeviceStatusListener): () => void;
  /** Calls `listener` on every connection change (`reconnecting` / `reconnected`); returns the unsubscribe function. */
  onConnectionChange(listener: ConnectionChangeListener): () => void;
  /**
   * Ends `stream()`, rejects pending calls and closes the socket. Idempotent. On the app server
   * (`remote`), while the server still works on this session's runs, or in the 3 s after a turn
   * that paused for an approval, the socket stays open until that work settles, for at most 3 s:
   * letta-code resumes its input queue only through the socket of the work that settled, so
   * closing sooner would strand input another client queued on the conversation. In Node the
   * open socket keeps the process alive meanwhile.
   */
  close(): void;
  [Symbol.asyncDispose](): Promise<void>;
}

/** What `client.query()` returns: the conversation's messages, with controls. */
export interface Query extends AsyncGenerator<SDKStreamMessage, void, unknown> {
  /** The conversation's id once started (`null` before). */
  readonly conversationId: string | null;
  /** Always `null`: the conversation has no agent. */
  readonly agentId: string | null;
  /** Interrupts the running turn without closing the query. */
  interrupt(): Promise<void>;
  /** Ends the query and its session. */
  close(): void;
}
