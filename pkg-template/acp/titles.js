// Conversation titles. The Letta conversation's `summary` is what Letta Desktop and the CLI
// show as its title, and nothing on the server fills it in, so an ACP session would stay
// "Untitled" there. After the first completed prompt of an untitled conversation the title is
// derived from that prompt's text (a retrieval handle, not a summary: the same on every
// backend, no model call), written as the summary and sent to the editor as a
// `session_info_update`; `session/list` reads it back from the conversation.
import { errorText, log } from "./log.js";

/** Desktop's cap on conversation titles. */
export const TITLE_MAX_LENGTH = 100;

/**
 * A title from the first user message: whitespace collapsed, one layer of surrounding quotes
 * dropped, at most 100 characters; `null` when nothing is left.
 */
export function titleFromText(text) {
  let title = String(text ?? "").replace(/\s+/g, " ").trim();
  if (title.length >= 2 && ((title.startsWith('"') && title.endsWith('"')) || (title.startsWith("'") && title.endsWith("'")))) title = title.slice(1, -1).trim();
  return title ? title.slice(0, TITLE_MAX_LENGTH) : null;
}

/**
 * Titles the session's conversation after a completed prompt with text `typed`, once: a
 * conversation that already has a summary (set here before, or elsewhere) keeps it. Best
 * effort: a failure is logged and the next prompt tries again.
 */
export async function titleConversation(state, client, notify, typed) {
  if (state.titled) return;
  const title = titleFromText(typed);
  if (!title) return;
  state.titled = true; // claimed before the writes: a concurrent prompt must not title twice
  try {
    const current = await client.conversations.retrieve(state.id);
    if (current?.summary) return;
    await client.conversations.update(state.id, { summary: title });
    state.store?.put({ sessionId: state.id, title });
    await notify(state.id, { sessionUpdate: "session_info_update", title, updatedAt: new Date().toISOString() });
  } catch (error) {
    state.titled = false;
    log(`could not title the conversation: ${errorText(error)}`);
  }
}
