// Errors of `letta-agent-wasm`. Everything the package throws (or rejects with) is an instance
// of one of the classes below, whether JavaScript or the Rust core built it: `instanceof`,
// `name` and `code` all hold. Branch on the class or on `code`, not on the message text.
// `LettaError` is their union, discriminated by `name` and `code`.

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
  /** A feature this backend does not offer (Cloud-only APIs on a remote client, presets, support files). */
  LettaUnsupportedError: "unsupported";
  /** Used before `await init()` in a browser or bundler, or a Cloud call whose Cloud build could not be loaded. */
  LettaNotInitializedError: "not_initialized";
  /** A Letta Cloud REST call answered with a non-2xx status. See {@link APIError}. */
  APIError: "api_error";
  /** See {@link CloudManagedSandboxExpiredError}. */
  CloudManagedSandboxExpiredError: "managed_sandbox_expired";
  /** See {@link ConversationForkHydrationError}. */
  ConversationForkHydrationError: "conversation_fork_hydration";
}

/** The `name` of an error thrown by the package. */
export type LettaErrorName = keyof LettaErrorCodes;

/** The `code` of an error thrown by the package. */
export type LettaErrorCode = LettaErrorCodes[LettaErrorName];

/** What every error of the package has: its `name` and the matching `code`. */
export interface LettaTypedError<N extends LettaErrorName = LettaErrorName> extends Error {
  readonly name: N;
  readonly code: LettaErrorCodes[N];
}

/** The base of the classes below (not exported at run time; use the classes or `LettaError`). */
declare class LettaErrorClass<N extends LettaErrorName> extends Error implements LettaTypedError<N> {
  constructor(message?: string, options?: { cause?: unknown });
  readonly name: N;
  readonly code: LettaErrorCodes[N];
}

/** Bad options or arguments (validation texts follow the reference SDK). */
export declare class LettaInvalidArgumentError extends LettaErrorClass<"LettaInvalidArgumentError"> {}
/** A request, device-status wait or turn outlived its timeout. */
export declare class LettaTimeoutError extends LettaErrorClass<"LettaTimeoutError"> {}
/** Use after `close()`. */
export declare class LettaClosedError extends LettaErrorClass<"LettaClosedError"> {}
/**
 * The WebSocket could not be opened, or dropped while a call was pending; a Cloud request
 * failed on the network, or its `signal` aborted it.
 */
export declare class LettaConnectionError extends LettaErrorClass<"LettaConnectionError"> {}
/**
 * The app server answered `success: false` (its `error` text is the message), or a server's
 * answer was unusable (e.g. a decision that does not fit its question).
 */
export declare class LettaRequestError extends LettaErrorClass<"LettaRequestError"> {}
/** A call that is not valid now. */
export declare class LettaStateError extends LettaErrorClass<"LettaStateError"> {}
/** A feature this client does not offer on this backend. */
export declare class LettaUnsupportedError extends LettaErrorClass<"LettaUnsupportedError"> {}
/** Used before `await init()` in a browser or bundler, or a Cloud call whose Cloud build could not be loaded (browsers). */
export declare class LettaNotInitializedError extends LettaErrorClass<"LettaNotInitializedError"> {}

/** A Letta Cloud REST call answered with a non-2xx status: the message is `<status> <body>`. */
export declare class APIError extends Error {
  constructor(status: number, message: string);
  readonly name: "APIError";
  readonly code: "api_error";
  /** The HTTP status. */
  readonly status: number;
}

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
  | APIError
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
