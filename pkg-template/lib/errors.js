// Error helpers and the error classes the portable entry exports. Every error the package
// throws is an `Error` with a stable `name` and `code`.

/** An `Error` with the given name and code. */
export function typedError(name, code, message) {
  const error = new Error(message);
  error.name = name;
  error.code = code;
  return error;
}

/** Bad arguments or options. */
export const invalidArgument = (message) => typedError("LettaInvalidArgumentError", "invalid_argument", message);

/** Use after close. */
export const closedError = (message) => typedError("LettaClosedError", "closed", message);

/** Thrown by Cloud sessions whose managed sandbox expired (Cloud backend only). */
export class CloudManagedSandboxExpiredError extends Error {
  constructor(sandboxId, conversationId) {
    super(
      `Cloud managed sandbox ${sandboxId} expired. Resume conversation ${conversationId} with a new SDK session and retry the turn.`,
    );
    this.name = "CloudManagedSandboxExpiredError";
    this.code = "managed_sandbox_expired";
    this.sandboxId = sandboxId;
    this.conversationId = conversationId;
  }
}

/** `conversations.fork()` forked the conversation but could not read the fork back. */
export class ConversationForkHydrationError extends Error {
  constructor(conversationId, cause) {
    super(`Conversation ${conversationId} was forked, but its state could not be retrieved.`, { cause });
    this.name = "ConversationForkHydrationError";
    this.code = "conversation_fork_hydration";
    this.conversationId = conversationId;
    this.cause = cause;
  }
}
