// The package's errors: one class per error `name`, each with its `code` (errors.d.ts says
// when each is thrown). This file is the one place that maps a name to its class and code:
// errors built in Rust come through `errorFromRust` (the loaders hand it to the wasm module),
// so `instanceof` holds for an error from either language.
//
// The classes exist once per JavaScript realm. The browser build bundles its lazily loaded
// chunks (MCP, structured output, the Cloud loader) on their own, each with a copy of this
// module; the first copy to run makes the classes and the others take them from `globalThis`,
// so that `instanceof` holds whichever chunk threw.

const REGISTRY = Symbol.for("letta-agent-wasm/errors");

/** Makes the classes (once per realm, see above). */
function makeClasses() {
  /** Shared by the classes below: `name` and `code` come from the class. */
  class PackageError extends Error {
    constructor(message, options) {
      super(message, options);
      const Class = /** @type {{errorName: string, code: string}} */ (/** @type {unknown} */ (this.constructor));
      this.name = Class.errorName;
      this.code = Class.code;
    }
  }

  class LettaInvalidArgumentError extends PackageError {}
  class LettaTimeoutError extends PackageError {}
  class LettaClosedError extends PackageError {}
  class LettaConnectionError extends PackageError {}
  class LettaRequestError extends PackageError {}
  class LettaStateError extends PackageError {}
  class LettaUnsupportedError extends PackageError {}
  class LettaNotInitializedError extends PackageError {}

  class APIError extends PackageError {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  class CloudManagedSandboxExpiredError extends PackageError {
    constructor(sandboxId, conversationId) {
      super(
        `Cloud managed sandbox ${sandboxId} expired. Resume conversation ${conversationId} with a new SDK session and retry the turn.`,
      );
      this.sandboxId = sandboxId;
      this.conversationId = conversationId;
    }
  }

  class ConversationForkHydrationError extends PackageError {
    constructor(conversationId, cause) {
      super(`Conversation ${conversationId} was forked, but its state could not be retrieved.`, { cause });
      this.conversationId = conversationId;
      this.cause = cause;
    }
  }

  const byName = new Map();
  /** Gives `Class` its `name` and `code` (as strings: a minifier renames classes). */
  const define = (Class, name, code) => {
    Class.errorName = name;
    Class.code = code;
    Object.defineProperty(Class.prototype, "name", { value: name, writable: true, configurable: true });
    byName.set(name, Class);
  };
  define(LettaInvalidArgumentError, "LettaInvalidArgumentError", "invalid_argument");
  define(LettaTimeoutError, "LettaTimeoutError", "timeout");
  define(LettaClosedError, "LettaClosedError", "closed");
  define(LettaConnectionError, "LettaConnectionError", "connection");
  define(LettaRequestError, "LettaRequestError", "request_failed");
  define(LettaStateError, "LettaStateError", "invalid_state");
  define(LettaUnsupportedError, "LettaUnsupportedError", "unsupported");
  define(LettaNotInitializedError, "LettaNotInitializedError", "not_initialized");
  define(APIError, "APIError", "api_error");
  define(CloudManagedSandboxExpiredError, "CloudManagedSandboxExpiredError", "managed_sandbox_expired");
  define(ConversationForkHydrationError, "ConversationForkHydrationError", "conversation_fork_hydration");
  return { byName, ...Object.fromEntries(byName) };
}

const classes = (globalThis[REGISTRY] ??= makeClasses());

export const {
  /** Bad options or arguments. */
  LettaInvalidArgumentError,
  /** A request, device-status wait or turn outlived its timeout. */
  LettaTimeoutError,
  /** Use after close. */
  LettaClosedError,
  /** The WebSocket could not be opened, or dropped while a call was pending. */
  LettaConnectionError,
  /** The server answered `success: false`, or with something unusable. */
  LettaRequestError,
  /** A call that is not valid now. */
  LettaStateError,
  /** A feature this client does not offer on this backend. */
  LettaUnsupportedError,
  /** Used before `await init()` in a browser or bundler. */
  LettaNotInitializedError,
  /** A Letta Cloud REST call answered with a non-2xx status (`<status> <body>`, `status`). */
  APIError,
  /** A Cloud session's managed sandbox expired (`sandboxId`, `conversationId`). */
  CloudManagedSandboxExpiredError,
  /** `conversations.fork()` forked the conversation but could not read the fork back. */
  ConversationForkHydrationError,
} = classes;

/**
 * An error Rust reports, as an instance of the class of its `name` (with Rust's message and
 * `fields`, such as `status` or `sandboxId`). The class's constructor does not run: its
 * arguments are what the message was made from, and Rust made the message already.
 */
export function errorFromRust(name, message, fields) {
  const Class = classes.byName.get(name);
  /** @type {Error & {code?: string}} */
  const error = Class ? Reflect.construct(Error, [message], Class) : new Error(message);
  error.name = name;
  error.code = Class?.code;
  return Object.assign(error, fields);
}

/** Bad arguments or options. */
export const invalidArgument = (message) => new LettaInvalidArgumentError(message);

/** Use after close. */
export const closedError = (message) => new LettaClosedError(message);
