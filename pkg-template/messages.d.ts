// The `SDKMessage` union (what `session.stream()` yields; narrow it by `type`) and the content a
// turn sends. Field names and optionality follow what the package emits: optional fields are
// omitted (not `undefined`) when they have no value.

import type { EffectiveDreamingSettings, SkillSource } from "./options.js";

/** A text part of a user message. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image part of a user message (base64 data, passed to the wire unchanged). */
export interface ImageContent {
  type: "image";
  source: {
    type: "base64";
    media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
    data: string;
  };
}

export type MessageContentItem = TextContent | ImageContent;

/** What `send()` / `prompt()` accept: a string or content parts. */
export type SendMessage = string | readonly MessageContentItem[];

/** Error codes of `result` and `error` messages. */
export type SDKErrorCode =
  | "approval_conflict"
  /** Never produced by the portable core; part of the union for compatibility. */
  | "approval_conflict_terminal"
  | "protocol_error"
  | "error"
  | "llm_api_error"
  | "max_steps"
  | "interrupted"
  | "stream_closed"
  | "structured_output_error";

/**
 * A wire stop reason. Successful: `end_turn`, `tool_rule`, `requires_approval`; any other value
 * is a failure. Open: the server may send values not listed here.
 */
export type SDKStopReason =
  | "end_turn"
  | "tool_rule"
  | "requires_approval"
  | "error"
  | "llm_api_error"
  | "max_steps"
  | "cancelled"
  | "interrupted"
  | "stream_closed"
  | "protocol_error"
  | "structured_output_error"
  | (string & {});

/** Agent-loop states reported by `loop_status` (open: newer servers may add states). */
export type SDKLoopStatus =
  | "SENDING_API_REQUEST"
  | "WAITING_FOR_API_RESPONSE"
  | "RETRYING_API_REQUEST"
  | "PROCESSING_API_RESPONSE"
  | "EXECUTING_CLIENT_SIDE_TOOL"
  | "EXECUTING_COMMAND"
  | "WAITING_ON_APPROVAL"
  | "WAITING_ON_INPUT"
  | (string & {});

/** Session identity; returned by the (advanced) `initialize()`. The stream never yields it. */
export interface SDKInitMessage {
  type: "init";
  agentId: string | null;
  /** `"<agentId>:<conversationId>"` (the conversation id alone when agent-free). */
  sessionId: string;
  conversationId: string;
  /** The agent's (or conversation's) model handle; `""` when the server reported none. */
  model: string;
  /** Tool names of the agent plus SDK-hosted tools; absent when there are none. */
  tools?: string[];
  /** Never set by the portable core. */
  memfsEnabled?: boolean;
  /** The session's `skillSources`, deduplicated, when the option was given. */
  skillSources?: SkillSource[];
  /** Never set by the portable core. */
  systemInfoReminderEnabled?: boolean;
  /** Never set by the portable core. */
  dreaming?: EffectiveDreamingSettings;
}

interface SDKTextFragment {
  /** A fragment of the message (never empty), not the whole text: append per identity. */
  content: string;
  /** Wire message id, else a synthetic `"app-server-<n>"`. */
  uuid: string;
  /** Lineage id of the typed slice; key text on `type` **and** `otid`, never `otid` alone. */
  otid?: string | null;
  /** Per-run replay cursor: compare only within one `runId`. */
  seqId?: number;
  runId?: string;
}

/** A fragment of the assistant's reply. */
export interface SDKAssistantMessage extends SDKTextFragment {
  type: "assistant";
}

/** A fragment of the model's reasoning. */
export interface SDKReasoningMessage extends SDKTextFragment {
  type: "reasoning";
}

/** A tool call (also streamed in fragments: accumulate `rawArguments` per `toolCallId`). */
export interface SDKToolCallMessage {
  type: "tool_call";
  /** Joins the call with its `tool_result`s. */
  toolCallId: string;
  /** `"?"` when the fragment did not name the tool. */
  toolName: string;
  /** Parsed arguments; `{raw: "<fragment>"}` while the argument text does not parse yet. */
  toolInput: Record<string, unknown>;
  /** The argument text as received, when the wire sent text. */
  rawArguments?: string;
  uuid: string;
  runId?: string;
}

/** A tool's result. */
export interface SDKToolResultMessage {
  type: "tool_result";
  toolCallId: string;
  /** The tool's output text (`""` when none). */
  content: string;
  isError: boolean;
  uuid: string;
  runId?: string;
}

interface SDKResultFields {
  type: "result";
  /** Milliseconds since the turn became active. */
  durationMs: number;
  conversationId: string | null;
  /** Absent when the turn ended on idle, without a stop reason. */
  stopReason?: SDKStopReason;
  /** Runs of the turn; absent when none is known. */
  runIds?: string[];
  /**
   * Set when the server ran several of this session's queued inputs as one turn (letta-code
   * dequeues every queued message at once): each `send()` of the batch still gets its own
   * result, in the order they were sent, with the batch's outcome, `runIds` and `result` text.
   * Absent for a turn that ran one input.
   */
  batch?: SDKTurnBatch;
  /** Never set by the portable core. */
  totalCostUsd?: number;
  /** Never set by the portable core. */
  recoveryAttempts?: number;
}

/** Which server turn carried a batched input (`result.batch`). */
export interface SDKTurnBatch {
  /** The server's turn id (`turn_finished.turn_id`, e.g. `"batch-1"`); the run id when it named none. */
  id: string;
  /** This input's place in the batch: 0 for the first (whose turn the stream showed), then 1, 2, … */
  index: number;
  /** How many of this session's inputs the batch carried. */
  size: number;
}

/** The end of a successful turn. */
export interface SDKResultSuccess extends SDKResultFields {
  success: true;
  /** All assistant text of the turn; absent when the turn produced none. */
  result?: string;
  /** With `outputFormat`: the value, validated against its schema. */
  structuredOutput?: unknown;
  error?: undefined;
  errorCode?: undefined;
  errorDetail?: undefined;
  approvalConflict?: undefined;
  recoverable?: undefined;
}

/** The end of a failed turn (including approval conflicts, aborts and dropped connections). */
export interface SDKResultFailure extends SDKResultFields {
  success: false;
  /** The error code, unless it is `"error"`: then the detail (or the stop reason). */
  error: string;
  errorCode: SDKErrorCode;
  errorDetail?: string;
  /** `true` when a tool approval blocked the turn (`errorCode: "approval_conflict"`). */
  approvalConflict?: true;
  /** Whether retrying (e.g. resuming the conversation) may succeed. */
  recoverable: boolean;
  result?: undefined;
  structuredOutput?: undefined;
}

/** The last message of a turn; `stream()` stops after yielding it. Narrow by `success`. */
export type SDKResultMessage = SDKResultSuccess | SDKResultFailure;

/** An error reported by the server or the client (followed by the turn's failed `result`). */
export interface SDKErrorMessage {
  type: "error";
  message: string;
  /** A known code; absent when the stop reason is not one. */
  errorCode?: SDKErrorCode;
  approvalConflict?: true;
  recoverable?: boolean;
  errorDetail?: string;
  stopReason: SDKStopReason;
  runId?: string;
  /** Never set by the portable core. */
  apiError?: Record<string, unknown>;
}

/** The server retries an LLM request. */
export interface SDKRetryMessage {
  type: "retry";
  /** Why (default `"error"`). */
  reason: string;
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  runId?: string;
}

/** One entry of the server's input queue. */
export interface SDKQueueItem {
  /** Pass to `session.removeQueuedMessage()`. */
  id: string;
  /** The `otid` given to `send()`, else a generated id (`""` when the server sent none). */
  clientMessageId: string;
  /** Default `"message"`. */
  kind: string;
  /** Default `"user"`. */
  source: string;
  /** The queued content, verbatim from the wire (absent when the server sent none). */
  content?: unknown;
  /** Timestamp text (`""` when absent). */
  enqueuedAt: string;
}

/** The server-side input queue changed (emitted regardless of turn state). */
export interface SDKQueueUpdateMessage {
  type: "queue_update";
  queue: SDKQueueItem[];
}

/** The agent loop's state. */
export interface SDKLoopStatusMessage {
  type: "loop_status";
  status: SDKLoopStatus;
  activeRunIds: string[];
}

/** A wire stream delta passed through verbatim (e.g. `usage_statistics`, `user_message`). */
export interface SDKStreamEventPayload {
  message_type?: string;
  id?: string;
  otid?: string | null;
  seq_id?: number;
  run_id?: string;
  [field: string]: unknown;
}

/** Any other stream delta; `extractStreamTextDelta(message.event)` reads text out of it. */
export interface SDKStreamEventMessage {
  type: "stream_event";
  event: SDKStreamEventPayload;
  uuid: string;
}

/** Every SDK message. Narrow by `type` (and a `result` by `success`). */
export type SDKMessage =
  | SDKInitMessage
  | SDKAssistantMessage
  | SDKReasoningMessage
  | SDKToolCallMessage
  | SDKToolResultMessage
  | SDKResultMessage
  | SDKErrorMessage
  | SDKRetryMessage
  | SDKQueueUpdateMessage
  | SDKLoopStatusMessage
  | SDKStreamEventMessage;

/** What `session.stream()` and `query()` yield: every SDK message but `init`. */
export type SDKStreamMessage = Exclude<SDKMessage, SDKInitMessage>;

/** The `type` of an SDK message. */
export type SDKMessageType = SDKMessage["type"];

/** `assistant` or `reasoning`. */
export type SDKTextMessage = SDKAssistantMessage | SDKReasoningMessage;
