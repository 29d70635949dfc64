// Errors of `letta-agent-wasm`. Everything the package throws (or rejects with) is an `Error`
// with a stable `name` and `code`; branch on those, not on the message text. Only the two
// classes below exist at run time; the other kinds are plain `Error` objects that the
// `LettaError` union describes (`const e = caught as LettaError; if (e.code === "timeout") …`).

/** Each error `name` the package uses, with its `code`. */
export interface LettaErrorCodes {
  /** Bad options or arguments (validation texts follow the reference SDK). */
  LettaInvalidArgumentError: "invalid_argument";
  /** A request, device-status wait or turn outlived its timeout. */
  LettaTimeoutError: "timeout";
  /** Use after `close()` (`Session is closed`, `LettaAgentClient is closed`, a freed accumulator). */
  LettaClosedError: "closed";
  /** The WebSocket could not be opened or dropped while a call was pending. */
  LettaConnectionError: "connection";
  /** The app server answered `success: false` (its `error` text is the message). */
  LettaRequestError: "request_failed";
  /** A call that is not valid now (`Session already initialized`, a turn already in flight). */
  LettaStateError: "invalid_state";
  /** A feature this client does not offer (Cloud-only APIs, `query()`, `backend: "cloud"`). */
  LettaUnsupportedError: "unsupported";
  /** Used before `await init()` in a browser or bundler. */
  LettaNotInitializedError: "not_initialized";
  /** See {@link CloudManagedSandboxExpiredError}. */
  CloudManagedSandboxExpiredError: "managed_sandbox_expired";
  /** See {@link ConversationForkHydrationError}. */
  ConversationForkHydrationError: "conversation_fork_hydration";
}

/** The `name` of an error thrown by the package. */
export type LettaErrorName = keyof LettaErrorCodes;

/** The `code` of an error thrown by the package. */
export type LettaErrorCode = LettaErrorCodes[LettaErrorName];

/** A plain `Error` of the package with a given name (and the matching code). */
export interface LettaTypedError<N extends LettaErrorName = LettaErrorName> extends Error {
  readonly name: N;
  readonly code: LettaErrorCodes[N];
}

export type LettaInvalidArgumentError = LettaTypedError<"LettaInvalidArgumentError">;
export type LettaTimeoutError = LettaTypedError<"LettaTimeoutError">;
export type LettaClosedError = LettaTypedError<"LettaClosedError">;
export type LettaConnectionError = LettaTypedError<"LettaConnectionError">;
export type LettaRequestError = LettaTypedError<"LettaRequestError">;
export type LettaStateError = LettaTypedError<"LettaStateError">;
export type LettaUnsupportedError = LettaTypedError<"LettaUnsupportedError">;
export type LettaNotInitializedError = LettaTypedError<"LettaNotInitializedError">;

/**
 * Every error the package throws, discriminated by `name` (or `code`). Errors thrown by your own
 * callbacks (`canUseTool`, a tool's `execute`, a `sendCommand` predicate) are passed on as they are.
 */
export type LettaError =
  | LettaInvalidArgumentError
  | LettaTimeoutError
  | LettaClosedError
  | LettaConnectionError
  | LettaRequestError
  | LettaStateError
  | LettaUnsupportedError
  | LettaNotInitializedError
  | CloudManagedSandboxExpiredError
  | ConversationForkHydrationError;

/**
 * A Cloud session's conversation-scoped managed sandbox expired (Cloud backend only; this
 * client's remote backend never throws it). Resume the conversation with a new session.
 */
export declare class CloudManagedSandboxExpiredError extends Error {
  constructor(sandboxId: string, conversationId: string);
  readonly name: "CloudManagedSandboxExpiredError";
  readonly code: "managed_sandbox_expired";
  readonly sandboxId: string;
  readonly conversationId: string;
}

/** `conversations.fork()` forked the conversation but could not read the fork back. */
export declare class ConversationForkHydrationError extends Error {
  constructor(conversationId: string, cause?: unknown);
  readonly name: "ConversationForkHydrationError";
  readonly code: "conversation_fork_hydration";
  /** The fork's id (the source conversation's id when the server returned none). */
  readonly conversationId: string;
  /** Why `conversation_retrieve` of the fork failed. */
  readonly cause: unknown;
}
