// The portable `/client` surface, shared by every platform loader.
export { createTranscriptAccumulator, extractStreamTextDelta } from "./transcript.js";
export { createChat } from "./chat.js";
export { LettaAgentClient, RepositoriesClient, createReactNativeWebSocketConstructor } from "./agent-client.js";
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
