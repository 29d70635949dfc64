// `session/list`: the session records of this agent (store.js), newest first, 50 a page with
// an opaque cursor (where the previous page ended: its last record's time and id, so pruning
// that record does not lose the place), each with the conversation's
// live title and last activity. A page is bounded by records, not by the sessions that
// resolve, so a run of stale records cannot turn one request into unbounded server calls.
// Records whose conversation belongs to another agent or is archived are pruned; a record
// whose conversation cannot be read now is left out of this answer but kept (a passing
// outage must not erase it).
import { RequestError } from "@agentclientprotocol/sdk";
import { errorText, log } from "./log.js";

export const SESSION_LIST_PAGE_SIZE = 50;
const MAX_TITLE = 256;

/** A one-line title from the conversation's summary (or description), else `undefined`. */
function titleOf(conversation) {
  const title = String(conversation.summary || conversation.description || "").replace(/\s+/g, " ").trim();
  if (!title) return undefined;
  return title.length <= MAX_TITLE ? title : `${title.slice(0, MAX_TITLE - 1)}…`;
}

/** The cursor after `record`. */
const cursorAfter = (record) => Buffer.from(JSON.stringify([String(record.updatedAt ?? ""), record.sessionId])).toString("base64url");

/** The index of the first record after `cursor` in `records` (sorted as store.list sorts). */
function startAfter(records, cursor) {
  let key;
  try {
    key = JSON.parse(Buffer.from(String(cursor), "base64url").toString("utf8"));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== 2 || !key.every((k) => typeof k === "string")) {
    throw RequestError.invalidParams({ cursor }, "invalid session/list cursor (pass a nextCursor of this agent's answers)");
  }
  const [updatedAt, sessionId] = key;
  const after = (r) => String(r.updatedAt ?? "") < updatedAt || (String(r.updatedAt ?? "") === updatedAt && r.sessionId > sessionId);
  const index = records.findIndex(after);
  return index < 0 ? records.length : index;
}

/**
 * One page of sessions: `{sessions, nextCursor?}`. `cwd` filters by project directory (all
 * when absent); `cursor` is a previous page's `nextCursor` (anything else is invalid params).
 */
export async function listSessions({ store, client, agentId, cwd, cursor, pageSize = SESSION_LIST_PAGE_SIZE }) {
  const records = store.list(cwd ?? undefined).filter((r) => !r.agentId || r.agentId === agentId);
  const start = cursor ? startAfter(records, cursor) : 0;
  const page = records.slice(start, start + pageSize);
  const resolved = await Promise.all(
    page.map(async (record) => {
      let conversation;
      try {
        conversation = await client.conversations.retrieve(record.sessionId);
      } catch (error) {
        log(`session/list: cannot read ${record.sessionId}: ${errorText(error)}`);
        return undefined;
      }
      if ((conversation.agent_id && conversation.agent_id !== agentId) || conversation.archived === true) {
        store.remove(record.sessionId);
        return undefined;
      }
      const title = titleOf(conversation) ?? record.title;
      const updatedAt = conversation.last_message_at ?? conversation.updated_at ?? record.updatedAt;
      return { sessionId: record.sessionId, cwd: record.cwd, ...(title ? { title } : {}), ...(updatedAt ? { updatedAt } : {}) };
    }),
  );
  const more = start + page.length < records.length;
  return { sessions: resolved.filter(Boolean), ...(more ? { nextCursor: cursorAfter(page.at(-1)) } : {}) };
}
