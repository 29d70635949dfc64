// The chat of one conversation, outside React: a LettaCodeSession, the transcript accumulator
// and what the page shows beside the rows (approvals, the server's queue, error rows, the
// user's own messages until history has them). React reads it through useSyncExternalStore.
//
// Streamed messages are collected as they arrive and folded with `applyMany` once per
// animation frame. When no turn is running, the page lists the conversation's messages and
// `rebase`s onto them: rows stay exactly once, in history order, and the user's messages come
// from history (the stream has no user-message type). When the rows hold more than history
// (an aborted turn's partial reply, which the server keeps only in part, or drops later), the
// transcript is rebuilt from history alone: rows that history lacks would otherwise stay, moved
// behind the later turns, and vanish on the next reload.
import { createTranscriptAccumulator } from "letta-agent-wasm/client";
import { randomId } from "./text.js";

const HISTORY_LIMIT = 200;
const EMPTY = {
  status: "idle", // idle | connecting | ready | closed | error
  error: null,
  agentId: null,
  conversationId: null,
  rows: [],
  // Rows of the page's own: {type: "user"|"error", id, text, anchor (key of the row before
  // it), turn (an error's: the otid of its turn's user message), queued (a user message waiting
  // in the server's queue)}.
  extras: [],
  approvals: [], // {id, toolName, input, toolCallId}
  queue: [],
  loopStatus: null,
  busy: 0, // turns sent and not finished
  model: null,
  models: [],
  hasMore: false,
  synced: false, // the rows are history's (no turn ran since the last listing)
};

export class ChatController {
  #client;
  #session = null;
  #generation = 0;
  #accumulator = createTranscriptAccumulator();
  #pending = [];
  #frame = null;
  #listeners = new Set();
  #approvalAnswers = new Map();
  #turnError = false;
  #turns = []; // otids of the user messages whose turns have not finished, oldest first
  state = EMPTY;

  constructor(client) {
    this.#client = client;
  }

  subscribe = (listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = () => this.state;

  #set(patch) {
    this.state = { ...this.state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  #lastKey() {
    return this.state.rows.at(-1)?.key ?? null;
  }

  /** Opens a conversation: `{agentId}` starts a new one, `{conversationId}` resumes one with its history. */
  async open(target) {
    this.#closeSession();
    const generation = ++this.#generation;
    this.#accumulator.reset();
    this.#set({ ...EMPTY, status: "connecting", agentId: target.agentId ?? null, conversationId: target.conversationId ?? null });
    const options = { canUseTool: (toolName, input, context) => this.#askApproval(generation, toolName, input, context) };
    const session = target.conversationId
      ? this.#client.resumeSession(target.conversationId, options)
      : this.#client.createSession(target.agentId, options);
    this.#session = session;
    try {
      const info = await session.ready();
      if (generation !== this.#generation) return null;
      this.#set({ agentId: info.agentId, conversationId: info.conversationId, model: info.model ?? null });
      if (target.conversationId) await this.#loadHistory(generation);
      if (generation !== this.#generation) return null;
      this.#set({ status: "ready", synced: true });
      this.#pump(session, generation);
      this.#loadModels(session, generation);
      return info;
    } catch (error) {
      if (generation === this.#generation) this.#set({ status: "error", error: error.message });
      return null;
    }
  }

  /** Reads every message the session yields, turn after turn, until it closes. */
  async #pump(session, generation) {
    let error = null;
    try {
      for (;;) {
        let finished = false;
        for await (const message of session.stream()) {
          if (generation !== this.#generation) return;
          this.#pending.push(message);
          if (message.type === "result") finished = true;
          this.#schedule();
        }
        if (!finished || generation !== this.#generation) break; // closed: stream() ended without a result
      }
    } catch (caught) {
      error = caught;
    }
    if (generation !== this.#generation) return;
    this.#flush();
    this.#set({ status: "closed", error: error?.message ?? "The connection to the app server closed.", busy: 0 });
  }

  #schedule() {
    if (this.#frame !== null) return;
    // One fold per animation frame; the timeout keeps a hidden tab (no frames) up to date.
    const run = () => {
      if (this.#frame === null) return;
      cancelAnimationFrame(this.#frame.raf);
      clearTimeout(this.#frame.timer);
      this.#frame = null;
      this.#flush();
    };
    this.#frame = { raf: requestAnimationFrame(run), timer: setTimeout(run, 250) };
  }

  /** Folds the collected messages into rows and updates the rest of the state. */
  #flush() {
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    let rows = this.state.rows;
    let rowMessages = [];
    let { extras, queue, loopStatus, busy } = this.state;
    const fold = () => {
      if (rowMessages.length > 0) rows = this.#accumulator.applyMany(rowMessages);
      rowMessages = [];
    };
    for (const message of batch) {
      switch (message.type) {
        case "queue_update": {
          fold(); // a message that leaves the queue starts here: after the rows so far
          queue = message.queue ?? [];
          const waiting = new Set(queue.map((item) => item.clientMessageId));
          const anchor = rows.at(-1)?.key ?? null;
          extras = extras.map((e) => (e.queued && !waiting.has(e.id) ? { ...e, queued: false, anchor } : e));
          break;
        }
        case "loop_status":
          loopStatus = message.status;
          break;
        case "error":
          fold();
          this.#turnError = true;
          extras = [...extras, { type: "error", id: randomId(), text: message.message, anchor: rows.at(-1)?.key ?? null, turn: this.#turns[0] }];
          break;
        case "result":
          fold();
          busy = Math.max(0, busy - 1);
          if (!message.success && !this.#turnError) {
            const why = message.errorCode === "interrupted" || message.stopReason === "cancelled" ? "Turn interrupted" : "Turn failed";
            const text = `${why} (${message.stopReason ?? message.errorCode ?? "error"})${message.errorDetail ? `: ${message.errorDetail}` : ""}`;
            extras = [...extras, { type: "error", id: randomId(), text, anchor: rows.at(-1)?.key ?? null, turn: this.#turns[0] }];
          }
          this.#turns.shift();
          this.#turnError = false;
          break;
        default:
          rowMessages.push(message);
      }
    }
    fold();
    this.#set({ rows, extras, queue, loopStatus, busy });
    if (busy === 0 && batch.some((m) => m.type === "result")) this.#loadHistory(this.#generation);
  }

  /** Lists the conversation and rebases the transcript onto it. */
  async #loadHistory(generation) {
    const session = this.#session;
    const sentBefore = new Set(this.state.extras.filter((e) => e.type === "user" && !e.queued).map((e) => e.id));
    try {
      const page = await session.listMessages({ limit: HISTORY_LIMIT, order: "desc" });
      if (generation !== this.#generation) return;
      this.#flush();
      if (this.state.busy > 0) return; // a turn started meanwhile: its end lists again
      const rows = this.#rebase(page);
      // The user's messages sent before the listing are in history now.
      const extras = this.state.extras.filter((e) => !sentBefore.has(e.id));
      this.#set({ rows, extras, hasMore: Boolean(page.hasMore), synced: true });
    } catch (error) {
      if (generation === this.#generation) this.#addError(`Could not load the conversation's messages: ${error.message}`);
    }
  }

  /**
   * Rebases onto a history page. Rows that history has keep their identity; if the rows hold
   * more than history (live rows the server did not keep), the transcript becomes history's.
   */
  #rebase(page) {
    const rows = this.#accumulator.rebase(page, { order: "desc" });
    const fresh = createTranscriptAccumulator();
    const history = fresh.rebase(page, { order: "desc" });
    if (history.length === rows.length) {
      fresh.free();
      return rows;
    }
    this.#accumulator.free();
    this.#accumulator = fresh;
    return history;
  }

  async #loadModels(session, generation) {
    try {
      const { entries = [] } = await session.listModels();
      if (generation === this.#generation) this.#set({ models: entries });
    } catch {
      // The picker stays empty; the conversation works without it.
    }
  }

  #addError(text) {
    this.#set({ extras: [...this.state.extras, { type: "error", id: randomId(), text, anchor: this.#lastKey() }] });
  }

  /** Sends a message; during a turn the server queues it (it then shows in the queue). */
  async send(text) {
    const session = this.#session;
    if (session === null || this.state.status !== "ready") return;
    this.#flush();
    const otid = randomId();
    const queued = this.state.busy > 0;
    const extra = { type: "user", id: otid, text, anchor: this.#lastKey(), queued };
    this.#turns.push(otid);
    this.#set({ extras: [...this.state.extras, extra], busy: this.state.busy + 1, synced: false });
    try {
      await session.send(text, { otid });
    } catch (error) {
      this.#turns = this.#turns.filter((id) => id !== otid);
      this.#set({ busy: Math.max(0, this.state.busy - 1), extras: this.state.extras.filter((e) => e.id !== otid) });
      this.#addError(`Could not send: ${error.message}`);
    }
  }

  async abort() {
    try {
      await this.#session?.abort();
    } catch (error) {
      this.#addError(`Could not abort: ${error.message}`);
    }
  }

  async removeQueued(item) {
    try {
      const { removed } = await this.#session.removeQueuedMessage(item.id);
      if (removed !== false) {
        this.#turns = this.#turns.filter((id) => id !== item.clientMessageId);
        this.#set({
          extras: this.state.extras.filter((e) => e.id !== item.clientMessageId),
          queue: this.state.queue.filter((q) => q.id !== item.id),
          busy: Math.max(0, this.state.busy - 1),
        });
      }
    } catch (error) {
      this.#addError(`Could not remove the queued message: ${error.message}`);
    }
  }

  async setModel(handle) {
    try {
      const applied = await this.#session.updateModel(handle);
      this.#set({ model: applied?.modelHandle ?? handle });
    } catch (error) {
      this.#addError(`Could not switch the model: ${error.message}`);
    }
  }

  #askApproval(generation, toolName, input, context) {
    return new Promise((resolve) => {
      if (generation !== this.#generation) {
        resolve({ behavior: "deny", message: "The page left this conversation." });
        return;
      }
      const id = context?.requestId ?? context?.toolCallId ?? randomId();
      this.#approvalAnswers.set(id, resolve);
      this.#set({ approvals: [...this.state.approvals, { id, toolName, input, toolCallId: context?.toolCallId }] });
    });
  }

  answerApproval(id, allow) {
    const resolve = this.#approvalAnswers.get(id);
    this.#approvalAnswers.delete(id);
    this.#set({ approvals: this.state.approvals.filter((a) => a.id !== id) });
    resolve?.(allow ? { behavior: "allow" } : { behavior: "deny", message: "The user denied this in the demo page." });
  }

  #closeSession() {
    for (const resolve of this.#approvalAnswers.values()) resolve({ behavior: "deny", message: "The page left this conversation." });
    this.#approvalAnswers.clear();
    this.#session?.close();
    this.#session = null;
    this.#pending = [];
    this.#turnError = false;
    this.#turns = [];
  }

  /** Closes the session and releases the accumulator. */
  dispose() {
    this.#generation++;
    this.#closeSession();
    this.#accumulator.free();
  }
}
