// Public types of `letta-agent-wasm/client` (the root entry `letta-agent-wasm` exports the same).
// The declarations are split by topic: messages.d.ts (the SDKMessage union), options.d.ts
// (session and agent options), session.d.ts (LettaCodeSession and its results), management.d.ts
// (agents, conversations, models), backends.d.ts (client options, Cloud-only clients),
// alpha.d.ts (experimental Cloud APIs), transcript.d.ts (the accumulator) and errors.d.ts.

import type { AgentsClient, ConversationsClient, ModelsClient } from "./management.js";
import type { ComputerSelector, ComputersClient, LettaCodeReactNativeSocketConstructor, LettaCodeSocketConstructor, PortableLettaAgentClientOptions, RepositoriesClient } from "./backends.js";
import type { SDKResultMessage, SendMessage } from "./messages.js";
import type { CreateAgentOptions, LettaCodeClientSessionOptions, QueryOptions, QueryParams } from "./options.js";
import type { LettaCodeSession, Query } from "./session.js";
import type { AlphaClient } from "./alpha.js";

export type * from "./messages.js";
export type * from "./options.js";
export type * from "./session.js";
export type * from "./management.js";
export type * from "./backends.js";
export type * from "./errors.js";
export type * from "./alpha.js";
export type * from "./chat.js";
export { createChat } from "./chat.js";
export { RepositoriesClient } from "./backends.js";
export {
  APIError,
  CloudManagedSandboxExpiredError,
  ConversationForkHydrationError,
  LettaClosedError,
  LettaConnectionError,
  LettaInvalidArgumentError,
  LettaNotInitializedError,
  LettaRequestError,
  LettaStateError,
  LettaTimeoutError,
  LettaUnsupportedError,
} from "./errors.js";
export * from "./transcript.js";

declare global {
  // So that the declarations compile without the `esnext.disposable` / `es2024` lib (the
  // package polyfills nothing: it uses `Symbol.for(...)` where the symbols are missing).
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

/** `WebAssembly.Module` where the lib declares it (DOM), else `never` (e.g. Node-only typings). */
export type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } } ? M & object : never;

/** What `init()` accepts: where (or what) the `.wasm` module is. */
export type InitInput =
  | string
  | URL
  | Request
  | Response
  | ArrayBuffer
  | ArrayBufferView
  | WasmModule
  | Promise<Response | ArrayBuffer | ArrayBufferView | WasmModule>;

/**
 * `init({ cloud: true })`: an alias of `init()`, kept for earlier code (browsers load the Cloud
 * build on the first Cloud call either way).
 */
export interface CloudInitInput {
  cloud: true;
  /** Where (or what) the Cloud build's `.wasm` is (default: `wasm/web-cloud/` in the package). */
  module_or_path?: InitInput;
}

/**
 * Instantiates the WebAssembly module. Browsers and bundlers: `await init()` once before
 * anything else (it fetches the `.wasm` next to the package unless `input` says otherwise;
 * memoized; a failed attempt can be retried). `backend: "cloud"` needs nothing more: the
 * first Cloud call fetches the Cloud build (a larger module that app-server-only pages never
 * fetch). Node and React Native: instantiated on import, Cloud included; a no-op.
 */
export declare function init(input?: InitInput | CloudInitInput): Promise<void>;

/**
 * The portable Letta Agent SDK client. `backend: "remote"` talks to a Letta Code app server over
 * WebSocket; `backend: "cloud"` to Letta Cloud (REST and its status sockets; browsers fetch that
 * build on the first Cloud call, and check the options before, synchronously). A missing or `"local"` backend throws
 * `LettaInvalidArgumentError`. After `close()` every method throws `LettaAgentClient is closed`.
 */
export declare class LettaAgentClient {
  constructor(options: PortableLettaAgentClientOptions);
  readonly backend: "remote" | "cloud";
  /** Cloud: the client's default computer (`undefined` for managed sandboxes); remote: `undefined`. */
  readonly computer: ComputerSelector | undefined;
  /** @deprecated Alias of `computer`. */
  readonly environment: ComputerSelector | undefined;
  readonly agents: AgentsClient;
  readonly conversations: ConversationsClient;
  readonly models: ModelsClient;
  /** Cloud only: throws `LettaUnsupportedError` on a remote client. */
  get repositories(): RepositoriesClient;
  /** Cloud only: throws `LettaUnsupportedError` on a remote client. */
  get computers(): ComputersClient;
  /** Experimental Cloud APIs (`alpha.decisions`). Cloud only: throws `LettaUnsupportedError` on a remote client. */
  get alpha(): AlphaClient;
  /** Creates an agent; resolves with its id (`agent-…`). See {@link CreateAgentOptions}. */
  createAgent(options?: CreateAgentOptions): Promise<string>;
  /** A session on a new conversation of the agent; connects on first use. */
  createSession(agentId: string, options?: LettaCodeClientSessionOptions): LettaCodeSession;
  /** A session on a conversation (`conv-…` / `local-conv-…`) or on an agent's default conversation. */
  resumeSession(id: string, options?: LettaCodeClientSessionOptions): LettaCodeSession;
  /** Sends one message on a new conversation, waits for the result and closes the session. */
  prompt(message: SendMessage, agentId: string, options?: LettaCodeClientSessionOptions): Promise<SDKResultMessage>;
  /**
   * Sends `prompt` on a conversation without an agent and yields its messages (see
   * {@link QueryOptions}). Invalid options throw here; what the server refuses is thrown by the
   * first iteration.
   */
  query(params: QueryParams): Query;
  /** Closes the pooled management connection (sessions are independent). Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Adapts React Native's `WebSocket(url, protocols, {headers})` to the `(url, {headers})` form the
 * client calls, so that `authToken` works there. Throws when given something else than a class.
 */
export declare function createReactNativeWebSocketConstructor(
  WebSocket: LettaCodeReactNativeSocketConstructor,
): LettaCodeSocketConstructor;
