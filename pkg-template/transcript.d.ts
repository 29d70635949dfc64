// `createTranscriptAccumulator()`: folds SDK messages and history pages into render-ready rows.
// Snapshot contract: a call that changes nothing returns the very same array; a written row is a
// new object; untouched rows keep their identity; arrays and rows handed out are never mutated
// (hence `readonly`).

import type { SDKMessage, SDKTextMessage } from "./messages.js";

/** What `apply()` accepts: any SDK message (types it does not fold leave the rows unchanged). */
export type TranscriptInputMessage = SDKMessage;

export type TranscriptRowKind = "user" | "assistant" | "reasoning" | "tool_call";
export type TranscriptTextKind = "user" | "assistant" | "reasoning";
export type TranscriptToolCallStatus = "streaming" | "ready" | "complete";

export interface TranscriptRowIdentity {
  /** Stable render key, namespaced by family (`assistant:otid:…`, `tool_call:id:…`). */
  readonly key: string;
  /** Envelope id of the message that opened the row. */
  readonly uuid?: string;
  /** Lineage id of the slice (the newest non-empty one). */
  readonly otid?: string;
  /** The run that last contributed. */
  readonly runId?: string;
  /** Highest replay cursor seen (history only, for tool rows). */
  readonly seqId?: number;
}

/** A user, assistant or reasoning message. */
export interface TranscriptTextRow extends TranscriptRowIdentity {
  readonly kind: TranscriptTextKind;
  /** The accumulated text. */
  readonly text: string;
}

export interface TranscriptToolResult {
  readonly content: string;
  readonly isError: boolean;
  /** Envelope id of the `tool_result` message. */
  readonly uuid?: string;
}

/** A tool call with its arguments and (once known) its result. */
export interface TranscriptToolCallRow extends TranscriptRowIdentity {
  readonly kind: "tool_call";
  readonly toolCallId: string;
  /** Best known name (`"?"` until one is known). */
  readonly toolName: string;
  /** Best known parsed arguments (`{}` until something parses; never the `{raw}` wrapper). */
  readonly toolInput: Readonly<Record<string, unknown>>;
  /** Argument text in arrival order; absent when the wire never sent text. */
  readonly rawArguments?: string;
  /** `toolInput` holds the complete arguments. */
  readonly argumentsComplete: boolean;
  readonly result?: TranscriptToolResult;
  /** `complete` once there is a result, else `ready` once the arguments parsed, else `streaming`. */
  readonly status: TranscriptToolCallStatus;
}

/** A row; narrow by `kind`. */
export type TranscriptRow = TranscriptTextRow | TranscriptToolCallRow;

/**
 * A history page: `session.listMessages()` / `bootstrapState()` results, any `{messages}` object,
 * or a bare array of Letta messages.
 */
export type TranscriptHistoryPage = { readonly messages?: readonly unknown[] } | readonly unknown[];

export interface TranscriptRebaseOptions {
  /** The page's order; auto-detected when omitted. */
  order?: "asc" | "desc";
}

export interface TranscriptAccumulator {
  /** Folds one streamed message; returns the same array when nothing changed. */
  apply(message: TranscriptInputMessage): readonly TranscriptRow[];
  /** Folds a batch with one snapshot (e.g. once per animation frame). */
  applyMany(messages: readonly TranscriptInputMessage[]): readonly TranscriptRow[];
  /** Merges a history page: rows stay exactly once; safe while a run is streaming. */
  rebase(page: TranscriptHistoryPage, options?: TranscriptRebaseOptions): readonly TranscriptRow[];
  /** The current rows, in transcript order. */
  rows(): readonly TranscriptRow[];
  /** Drops every row, alias and replay threshold. */
  reset(): void;
  /** Releases the WebAssembly memory now; later `apply`/`rebase`/`reset` throw `LettaClosedError`. */
  free(): void;
  [Symbol.dispose](): void;
}

/** A new, empty accumulator. Browsers and bundlers: after `await init()`. */
export declare function createTranscriptAccumulator(): TranscriptAccumulator;

/** A token delta read out of a raw stream event. */
export interface StreamTextDelta {
  kind: SDKTextMessage["type"];
  text: string;
}

/** Reads assistant or reasoning text out of a `stream_event` payload (any value); else `null`. */
export declare function extractStreamTextDelta(event: unknown): StreamTextDelta | null;
