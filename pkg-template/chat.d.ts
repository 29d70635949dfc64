// createChat(): a framework-neutral chat store above a session and its transcript. React binds
// it with `letta-agent-wasm/react` (`useLettaChat`); any framework can read it through
// `subscribe` and `getSnapshot` (the shape of React's `useSyncExternalStore`).

import type { LettaAgentClient } from "./client.js";
import type { SDKQueueItem, SDKResultMessage, SendMessage } from "./messages.js";
import type { CanUseToolContext, CanUseToolResponse, LettaCodeClientSessionOptions } from "./options.js";
import type { LettaCodeSession } from "./session.js";
import type { TranscriptRow } from "./transcript.js";

/** Options of {@link createChat}: a client with the conversation to open, or a session of your own. */
export type ChatOptions = ChatCommonOptions &
  (
    | {
        client: LettaAgentClient;
        /** Start a new conversation of this agent. */
        agentId: string;
        conversationId?: undefined;
        session?: undefined;
        sessionOptions?: ChatSessionOptions;
      }
    | {
        client: LettaAgentClient;
        agentId?: undefined;
        /** Resume this conversation: its history loads, and approvals an earlier page left pending show again. */
        conversationId: string;
        session?: undefined;
        sessionOptions?: ChatSessionOptions;
      }
    | {
        /**
         * A session you made. The chat reads it from now on (its `stream()` then yields only what is
         * no row), and `dispose()` leaves it open. Its approvals go to its own `canUseTool`.
         */
        session: LettaCodeSession;
        client?: undefined;
        agentId?: undefined;
        conversationId?: undefined;
        sessionOptions?: undefined;
      }
  );

/** Options of the session a chat makes: a session's, without `outputFormat`. */
export interface ChatSessionOptions extends Omit<LettaCodeClientSessionOptions, "canUseTool" | "outputFormat"> {
  /** Decides first when given: returning `undefined` puts the approval into the snapshot instead. */
  canUseTool?: (
    toolName: string,
    toolInput: Record<string, unknown>,
    context: CanUseToolContext,
  ) => CanUseToolResponse | undefined | Promise<CanUseToolResponse | undefined>;
}

export interface ChatCommonOptions {
  /** Messages per history page (the first one and each `loadOlder()`): 50 by default. */
  historyLimit?: number;
  /**
   * How often the snapshot is rebuilt while a reply streams: `"frame"` (the default: once per
   * animation frame, or per 16 ms timer where there are none, and at least every 100 ms in a
   * hidden tab), a number of milliseconds, or `0` for every batch of messages.
   */
  throttle?: "frame" | number;
}

/** Where the chat is. */
export type ChatStatus =
  /** Opening the session (and loading history when resuming). */
  | "connecting"
  /** Idle: nothing in flight. */
  | "ready"
  /** A reply is on its way (a send is in flight, or a turn runs). */
  | "streaming"
  /** A tool call waits for `allow()` or `deny()` (see `approvals`). */
  | "awaiting-approval"
  /** The start failed: see `error`, then `retry()`. */
  | "error"
  /** Disposed, or the session ended for good. */
  | "closed";

/** The connection as the session reports it (`onConnectionChange`). */
export type ChatConnection =
  /** Not open yet. */
  | "connecting"
  | "connected"
  /** One socket dropped and the other carries the session meanwhile. */
  | "reconnecting"
  /** Every socket dropped: the session reopens by itself (and when the tab is shown again or the network comes back); the rows catch up with history then. */
  | "disconnected";

/** A tool call waiting for the user's decision. */
export interface ChatApproval {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly toolCallId: string | undefined;
  readonly requestId: string | undefined;
  /** Runs the tool (with `updatedInput` instead of `input` when given). */
  allow(updatedInput?: Record<string, unknown>): void;
  /** Refuses it; the model hears `message`. */
  deny(message?: string): void;
}

/** An item of the server's input queue (a message sent while a turn runs). */
export interface ChatQueueItem extends SDKQueueItem {
  /** Removes it from the queue before it runs. */
  remove(): Promise<void>;
}

/** A send the session has not taken yet. */
export interface ChatOutboxEntry {
  /** The message's client id (its otid; its row's key is `user:otid:<id>`). */
  readonly id: string;
  readonly content: SendMessage;
  /** `"failed"`: see `error`, and `retry()`. */
  readonly state: "sending" | "failed";
  readonly error?: ChatError;
}

/** The latest problem: a failed start, send or call, or a failed turn. Cleared by the next send. */
export interface ChatError {
  readonly message: string;
  /** The error's or the turn's code (`LettaErrorCode`, `SDKErrorCode`), when it has one. */
  readonly code?: string;
  /** The error thrown, when one was. */
  readonly cause?: unknown;
}

/** What a UI renders: immutable, the same object while nothing changed. */
export interface ChatSnapshot {
  readonly status: ChatStatus;
  /** Known once the session started (a new conversation's id: keep it to resume later). */
  readonly agentId: string | null;
  readonly conversationId: string | null;
  /**
   * The transcript: the accumulator's rows and the user's own messages (`kind: "user"`, shown
   * when their turn starts), each exactly once, in conversation order. Rows that did not change
   * keep their object identity across snapshots (what `React.memo` needs). History's user rows
   * may carry `<system-reminder>` parts the user never typed.
   */
  readonly rows: readonly TranscriptRow[];
  /** Pending approvals, oldest first. */
  readonly approvals: readonly ChatApproval[];
  /** The server's queue. */
  readonly queue: readonly ChatQueueItem[];
  /** Sends not taken yet (the session is connecting or reconnecting), and failed ones. */
  readonly outbox: readonly ChatOutboxEntry[];
  readonly error: ChatError | null;
  readonly connection: ChatConnection;
  /** Older history: whether there is more, and whether a page is loading (also while the rows catch up with history after a reconnect or a turn that did not end well). */
  readonly history: { readonly hasMore: boolean; readonly loading: boolean };
  /** The `result` of the latest turn this chat saw end (an interrupted one says `errorCode: "interrupted"`). */
  readonly lastResult: SDKResultMessage | null;
  /** The chat's session, for what the chat does not cover (`listModels()`, `updateModel()`, device status). Do not `close()` it: `dispose()` the chat. */
  readonly session: LettaCodeSession | null;
  /** The store's actions, for convenience (the same functions as on the store). */
  readonly send: LettaChat["send"];
  readonly stop: LettaChat["stop"];
  readonly loadOlder: LettaChat["loadOlder"];
  readonly retry: LettaChat["retry"];
}

/** A chat store. */
export interface LettaChat {
  /** Calls `listener` after each new snapshot; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** The current snapshot. */
  getSnapshot(): ChatSnapshot;
  /** Sends a message. Resolves once the session took it; a failure stays in `outbox` (see `retry()`). */
  send(content: SendMessage): Promise<void>;
  /** Interrupts the reply being streamed. */
  stop(): Promise<void>;
  /** Loads the history page before the oldest row shown. */
  loadOlder(): Promise<void>;
  /** After an error: starts again if the start failed, and sends failed messages again (never twice). */
  retry(): Promise<void>;
  /** Stops listening and closes a session the chat made; pending approvals stay pending on the server. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/** Creates a chat store (the chat state of one conversation, framework-neutral). */
export declare function createChat(options: ChatOptions): LettaChat;
