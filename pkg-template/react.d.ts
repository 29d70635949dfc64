// `letta-agent-wasm/react`: React bindings of the chat store (see chat.d.ts). React 18 or 19 is
// an optional peer dependency: only apps that import this entry need it.

import type { ChatOptions, ChatSnapshot, LettaChat } from "./chat.js";
import type { TranscriptRow } from "./transcript.js";

/**
 * The snapshot (with its actions) of a chat made from `options`. The store is made after the
 * first render (nothing opens during server rendering or StrictMode's extra render) and
 * disposed when the component unmounts or `client`, `agentId`, `conversationId` or `session`
 * change; the other options are read when it is made. Before it exists (and on the server) the
 * snapshot says `status: "connecting"` and its actions do nothing. `null`: no chat.
 */
export declare function useLettaChat(options: ChatOptions | null): ChatSnapshot;

/** The snapshot of a store made elsewhere with `createChat()` (or `selector` of it). */
export declare function useLettaChatStore(chat: LettaChat | null): ChatSnapshot;
export declare function useLettaChatStore<T>(chat: LettaChat | null, selector: (snapshot: ChatSnapshot) => T): T;

/** One content part of an assistant-ui message made from a row. */
export type LettaThreadMessagePart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | {
      type: "tool-call";
      toolCallId: string;
      toolName: string;
      args: Record<string, unknown>;
      argsText: string;
      result?: string;
      isError?: boolean;
    };

/** An assistant-ui `ThreadMessageLike` made from the chat's rows. */
export interface LettaThreadMessage {
  id: string;
  role: "user" | "assistant";
  content: LettaThreadMessagePart[];
}

/** The rows as assistant-ui messages: each user row a user message, the rows after it one assistant message. */
export declare function toThreadMessages(rows: readonly TranscriptRow[]): LettaThreadMessage[];

/** assistant-ui's `ExternalStoreAdapter`, as `useLettaRuntime` fills it. */
export interface LettaExternalStoreAdapter {
  messages: readonly LettaThreadMessage[];
  isRunning: boolean;
  convertMessage(message: LettaThreadMessage): LettaThreadMessage;
  onNew(message: { content: readonly { type: string; text?: string }[] }): Promise<void>;
  onCancel(): Promise<void>;
}

/**
 * An adapter for assistant-ui's external-store runtime from a chat snapshot:
 * `const runtime = useExternalStoreRuntime(useLettaRuntime(useLettaChat(options)))`.
 * Approvals stay in the snapshot (`approvals`) for the app's own prompt.
 */
export declare function useLettaRuntime(chat: ChatSnapshot): LettaExternalStoreAdapter;
