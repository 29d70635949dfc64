// Public types of `letta-agent-wasm/client`.

/** Instantiates the WebAssembly module (browsers and bundlers); a no-op in Node. Memoized. */
export declare function init(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;

/** Fields every streamed SDK message that the accumulator reads may carry. */
export interface SDKTextMessage {
  type: "assistant" | "reasoning";
  content: string;
  uuid: string;
  otid?: string | null;
  seqId?: number;
  runId?: string;
}

export interface SDKToolCallMessage {
  type: "tool_call";
  toolCallId: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  rawArguments?: string;
  uuid: string;
  runId?: string;
}

export interface SDKToolResultMessage {
  type: "tool_result";
  toolCallId: string;
  content: string;
  isError: boolean;
  uuid: string;
  runId?: string;
}

export interface SDKStreamEventMessage {
  type: "stream_event";
  event: unknown;
  uuid: string;
}

/** Any SDK message; the accumulator ignores the types it does not fold. */
export type TranscriptInputMessage =
  | SDKTextMessage
  | SDKToolCallMessage
  | SDKToolResultMessage
  | SDKStreamEventMessage
  | { type: "init" | "result" | "error" | "retry" | "queue_update" | "loop_status"; [field: string]: unknown };

export type TranscriptRowKind = "user" | "assistant" | "reasoning" | "tool_call";
export type TranscriptTextKind = "user" | "assistant" | "reasoning";
export type TranscriptToolCallStatus = "streaming" | "ready" | "complete";

export interface TranscriptRowIdentity {
  /** Stable render key, namespaced by family. */
  key: string;
  uuid?: string;
  otid?: string;
  runId?: string;
  seqId?: number;
}

export interface TranscriptTextRow extends TranscriptRowIdentity {
  kind: TranscriptTextKind;
  text: string;
}

export interface TranscriptToolResult {
  content: string;
  isError: boolean;
  uuid?: string;
}

export interface TranscriptToolCallRow extends TranscriptRowIdentity {
  kind: "tool_call";
  toolCallId: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  rawArguments?: string;
  argumentsComplete: boolean;
  result?: TranscriptToolResult;
  status: TranscriptToolCallStatus;
}

export type TranscriptRow = TranscriptTextRow | TranscriptToolCallRow;

/** A history page: `listMessages()` / `bootstrapState()` results, or a bare array of messages. */
export type TranscriptHistoryPage = { messages?: readonly unknown[] } | readonly unknown[];

export interface TranscriptRebaseOptions {
  order?: "asc" | "desc";
}

export interface TranscriptAccumulator {
  /** Folds one message; returns the same array when nothing changed. */
  apply(message: TranscriptInputMessage): readonly TranscriptRow[];
  /** Folds a batch of messages with one snapshot. */
  applyMany(messages: readonly TranscriptInputMessage[]): readonly TranscriptRow[];
  /** Merges a history page; safe while a run is streaming. */
  rebase(page: TranscriptHistoryPage, options?: TranscriptRebaseOptions): readonly TranscriptRow[];
  rows(): readonly TranscriptRow[];
  reset(): void;
  /** Releases the WebAssembly memory held by this accumulator. */
  free(): void;
  [Symbol.dispose](): void;
}

export declare function createTranscriptAccumulator(): TranscriptAccumulator;

export interface StreamTextDelta {
  kind: "assistant" | "reasoning";
  text: string;
}

export declare function extractStreamTextDelta(event: unknown): StreamTextDelta | null;
