// ACP `usage_update` (tokens in the context window, and its size) from the run's usage: the app
// server streams a `usage_statistics` delta after each model step (the package passes it on
// as a `stream_event`), with `context_tokens` where the server estimates them. The window's
// size is the agent's `llm_config.context_window`.

/** The agent's context window size, `undefined` when the server does not report one. */
export async function contextWindowOf(client, agentId) {
  const agent = await client.agents.retrieve(agentId).catch(() => undefined);
  const size = agent?.llm_config?.context_window ?? agent?.context_window_limit;
  return Number.isInteger(size) && size > 0 ? size : undefined;
}

/**
 * The `usage_update` for a streamed message, or `undefined` when it is no usage report (or
 * the size is unknown). `used` is the server's estimate of the tokens in context, else the
 * step's prompt plus completion tokens.
 */
export function usageUpdate(message, size) {
  const event = message?.type === "stream_event" ? message.event : undefined;
  if (event?.message_type !== "usage_statistics" || !size) return undefined;
  const used = Number.isInteger(event.context_tokens) ? event.context_tokens : (event.prompt_tokens ?? 0) + (event.completion_tokens ?? 0);
  if (!Number.isInteger(used)) return undefined;
  return { sessionUpdate: "usage_update", used, size };
}
