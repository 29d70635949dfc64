// Session records of letta-acp, for `session/list`: one JSON file under the user's state
// directory (LETTA_ACP_STATE_DIR, else $XDG_STATE_HOME/letta-acp, else ~/.local/state/letta-acp),
// keyed by session id (= conversation id) with the project directory, agent, title and times.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The state directory of letta-acp. */
export function stateDir(env = process.env) {
  if (env.LETTA_ACP_STATE_DIR) return env.LETTA_ACP_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "letta-acp");
}

export class SessionStore {
  constructor(dir = stateDir()) {
    this.dir = dir;
    this.file = join(dir, "sessions.json");
  }

  /** Every record (an empty list when the file is missing or unreadable). */
  all() {
    try {
      const records = JSON.parse(readFileSync(this.file, "utf8"));
      return Array.isArray(records) ? records : [];
    } catch {
      return [];
    }
  }

  get(sessionId) {
    return this.all().find((r) => r.sessionId === sessionId);
  }

  /** Inserts or merges a record (its `updatedAt` set to now); written atomically. */
  put(record) {
    const records = this.all();
    const index = records.findIndex((r) => r.sessionId === record.sessionId);
    const merged = { ...(records[index] ?? {}), ...record, updatedAt: new Date().toISOString() };
    if (index >= 0) records[index] = merged;
    else records.push(merged);
    this.#write(records);
    return merged;
  }

  /** Writes every record atomically (a temporary file renamed over the old one). */
  #write(records) {
    mkdirSync(this.dir, { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(records, null, 2));
    renameSync(temp, this.file);
  }

  /** Removes a record (a no-op when there is none). */
  remove(sessionId) {
    const records = this.all();
    const kept = records.filter((r) => r.sessionId !== sessionId);
    if (kept.length !== records.length) this.#write(kept);
  }

  /**
   * The records of one project directory (all when `cwd` is not given), newest first (ties:
   * by session id), the order session/list pages through.
   */
  list(cwd) {
    const updated = (r) => String(r.updatedAt ?? "");
    return this.all()
      .filter((r) => !cwd || r.cwd === cwd)
      .sort((a, b) => (updated(a) === updated(b) ? (a.sessionId < b.sessionId ? -1 : 1) : updated(a) < updated(b) ? 1 : -1));
  }
}
