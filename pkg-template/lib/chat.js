// createChat(): a framework-neutral chat store above a session and its transcript (issue 38).
// What every chat UI needs besides rows lives here once: the user's own messages (the session
// echoes them into its transcript when their turn starts), approvals and the server's queue as
// state with their actions, sends that are not accepted yet, errors, the connection, history
// paging, and the catch-up after a reconnect. The store is the shape React's
// `useSyncExternalStore` (and zustand-like bindings) read: `subscribe(listener)` and
// `getSnapshot()`, where the snapshot is immutable, the same object while nothing changed, and
// rebuilt at most once per throttle tick while a reply streams.
//
// The session feeds the transcript itself (src/js/session/chat.rs): messages that make rows
// never cross to JavaScript, only a row patch per tick does; the rest (results, errors, the
// queue, the loop status) comes as one small JSON batch.

import { chatLink } from "./session.js";
import { applyPatch } from "./transcript.js";
import { closedError, invalidArgument } from "./errors.js";
import { isNonEmptyString, isObject, positiveInteger } from "./values.js";

/** A hidden tab runs no animation frames: the snapshot still follows this often. */
const HIDDEN_FRAME_MS = 100;
const DEFAULT_HISTORY_LIMIT = 50;
const disposeSymbol = Symbol.dispose ?? Symbol.for("Symbol.dispose");

/** A client message id for a send (its otid: history's user message carries it). */
function newOtid() {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `chat-${random}`;
}

/** `{message, code?, cause?}` for the snapshot's `error`. */
function describe(error) {
  return Object.freeze({ message: error?.message ?? String(error), code: error?.code, cause: error });
}

/**
 * Waits one throttle tick: an animation frame (or a timer where there is none), N ms, or nothing.
 * @returns {() => Promise<void>}
 */
function ticker(throttle) {
  if (throttle === 0) return () => Promise.resolve();
  if (typeof throttle === "number") return () => new Promise((done) => setTimeout(done, throttle));
  if (typeof requestAnimationFrame !== "function") return () => new Promise((done) => setTimeout(done, 16));
  return () =>
    new Promise((done) => {
      let timer;
      const frame = requestAnimationFrame(() => {
        clearTimeout(timer);
        done();
      });
      timer = setTimeout(() => {
        cancelAnimationFrame(frame);
        done();
      }, HIDDEN_FRAME_MS);
    });
}

/** The options, checked: `{client, agentId | conversationId, sessionOptions} | {session}`, plus `historyLimit`, `throttle`. */
function chatOptions(options) {
  if (!isObject(options)) throw invalidArgument("createChat() options must be an object.");
  const { client, session, agentId, conversationId, sessionOptions, historyLimit = DEFAULT_HISTORY_LIMIT, throttle = "frame" } = options;
  if (session !== undefined) {
    if (typeof session?.[chatLink] !== "function") throw invalidArgument("createChat() session must be a session of this package.");
  } else {
    if (typeof client?.createSession !== "function") throw invalidArgument("createChat() needs a client (with agentId or conversationId) or a session.");
    if (isNonEmptyString(agentId) === isNonEmptyString(conversationId)) {
      throw invalidArgument("createChat() needs exactly one of agentId (a new conversation) and conversationId (resume one).");
    }
  }
  if (sessionOptions !== undefined && !isObject(sessionOptions)) throw invalidArgument("createChat() sessionOptions must be an object.");
  if (sessionOptions?.outputFormat !== undefined) throw invalidArgument("createChat() does not support outputFormat; use a session's stream() for structured output.");
  if (!positiveInteger(historyLimit)) throw invalidArgument("createChat() historyLimit must be a positive integer.");
  if (throttle !== "frame" && !(Number.isFinite(throttle) && throttle >= 0)) {
    throw invalidArgument('createChat() throttle must be "frame" or a number of milliseconds (0: every message).');
  }
  return { client, session, agentId, conversationId, sessionOptions, historyLimit, throttle };
}

/** Creates a chat store (see the module comment and chat.d.ts). */
export function createChat(options) {
  return new LettaChat(chatOptions(options));
}

/** @typedef {import("./session.js").LettaCodeSession} Session */

class LettaChat {
  #options;
  #tick;
  /** @type {Session | null} */
  #session = null;
  /** The session's chat link (`[chatLink]()`: its transcript's patches and the chat's batches). @type {any} */
  #link = null;
  #listeners = new Set();
  #snapshot;
  #disposed = false;
  /** Undo of the connection and visibility listeners. */
  #unlisten = [];

  // The state the snapshot is made of.
  #started = false;
  #closed = false;
  /** @type {ReturnType<typeof describe> | null} */
  #startError = null;
  #ids = { agentId: null, conversationId: null };
  /** @type {readonly any[]} */
  #rows = [];
  /** The next patch rebuilds the rows from nothing (a fresh rebase). */
  #rowsFresh = false;
  /** @type {readonly any[]} */
  #approvals = [];
  /** @type {readonly any[]} */
  #queue = [];
  /** @type {readonly any[]} */
  #outbox = [];
  /** @type {Readonly<{message: string, code?: string, cause?: unknown}> | null} */
  #error = null;
  #connection = "connecting";
  #history = { hasMore: false, loading: false };
  #nextBefore = undefined;
  /** Every socket was lost since the last catch-up: rows may miss what the server did meanwhile. */
  #lostAll = false;
  /** The server's loop is working (the latest `loop_status`), for this chat or another client. */
  #serverBusy = false;
  /** A turn did not end well: the rows catch up with history once nothing runs. */
  #reconcile = false;
  /** @type {any} */
  #lastResult = null;

  constructor(options) {
    this.#options = options;
    this.#tick = ticker(options.throttle);
    this.#ids.conversationId = options.conversationId ?? null;
    this.#ids.agentId = options.agentId ?? null;
    this.#start(); // makes the session at once, then waits for it
    this.#snapshot = this.#makeSnapshot();
  }

  /** Calls `listener` after each new snapshot; returns the unsubscribe function. */
  subscribe = (listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The current snapshot: the same object until something changed. */
  getSnapshot = () => this.#snapshot;

  /** Sends a message (text or content parts). Resolves once the session took it; a failure stays in the outbox for `retry()`. */
  send = async (content) => {
    if (this.#disposed) throw closedError("This chat was disposed.");
    if (!(isNonEmptyString(content) || (Array.isArray(content) && content.length > 0))) {
      throw invalidArgument("chat.send() expects a non-empty string or an array of content parts.");
    }
    await this.#deliver({ id: newOtid(), content, state: "sending" });
  };

  /** Interrupts the reply being streamed (its result says so). */
  stop = async () => {
    if (this.#session === null || !this.#started) return;
    try {
      await this.#session.abort();
    } catch (error) {
      this.#fail(error);
    }
  };

  /** Loads the page of history before the oldest row shown. */
  loadOlder = async () => {
    if (!this.#started || !this.#history.hasMore || this.#history.loading || this.#disposed) return;
    await this.#loadHistory({ before: this.#nextBefore });
  };

  /** After an error: starts again if the start failed, and sends the failed messages again (same ids: never twice). */
  retry = async () => {
    if (this.#disposed) return;
    this.#error = null;
    if (this.#startError !== null) {
      this.#startError = null;
      for (const undo of this.#unlisten.splice(0)) undo();
      // A session the chat made starts afresh; the caller's own tries its start again.
      if (!this.#options.session) this.#session?.close();
      this.#session = null;
      this.#publish();
      await this.#start();
    }
    const failed = this.#outbox.filter((entry) => entry.state === "failed");
    for (const entry of failed) await this.#deliver({ id: entry.id, content: entry.content, state: "sending" }, entry);
  };

  /** Stops listening and closes a session the chat made. Pending approvals are not answered: a chat open on the conversation meanwhile shows them. */
  dispose = () => {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const undo of this.#unlisten.splice(0)) undo();
    if (!this.#options.session) this.#session?.close();
    this.#publish();
    this.#listeners.clear();
  };

  [disposeSymbol]() {
    this.dispose();
  }

  /** Opens the session (or takes the caller's), loads history when resuming, then reads its messages. */
  async #start() {
    const { client, session: given, agentId, conversationId, sessionOptions } = this.#options;
    let session = given;
    try {
      if (!session) {
        const options = { ...sessionOptions, canUseTool: (toolName, input, context) => this.#ask(toolName, input, context) };
        session = conversationId ? client.resumeSession(conversationId, options) : client.createSession(agentId, options);
      }
      this.#session = session;
      this.#link = session[chatLink]();
      this.#listen(session);
      const info = await session.ready();
      if (this.#disposed || this.#session !== session) return;
      this.#ids = { agentId: info.agentId, conversationId: info.conversationId };
      if (conversationId || given) {
        await this.#loadHistory({ fresh: true });
        // Approvals an earlier page left pending reach `canUseTool` (and the snapshot) again.
        if (!given) await session.recoverPendingApprovals().catch(() => {});
      }
      this.#started = true;
      this.#connection = "connected";
      this.#publish();
      this.#pump(session);
    } catch (error) {
      if (this.#disposed || (session && this.#session !== session)) return;
      this.#startError = describe(error);
      this.#error = this.#startError;
      if (this.#snapshot) this.#publish();
    }
  }

  /** Connection changes, and (in a browser) waking up: a tab shown again or the network back reopens a dropped session. */
  #listen(session) {
    this.#unlisten.push(
      session.onConnectionChange((change) => {
        if (change.type === "reconnected") {
          this.#connection = "connected";
          if (this.#lostAll) {
            this.#lostAll = false;
            this.#catchUp({ rebuild: true });
          }
        } else {
          this.#connection = change.live ? "reconnecting" : "disconnected";
          if (!change.live) this.#lostAll = true;
        }
        this.#publish();
      }),
    );
    const target = globalThis.document;
    if (typeof target?.addEventListener !== "function") return;
    const wake = () => {
      if (target.visibilityState !== "hidden" && this.#connection === "disconnected") session.ready().catch(() => {});
    };
    target.addEventListener("visibilitychange", wake);
    globalThis.addEventListener?.("online", wake);
    this.#unlisten.push(() => {
      target.removeEventListener("visibilitychange", wake);
      globalThis.removeEventListener?.("online", wake);
    });
  }

  /** Reads the session's messages until it ends: one snapshot per throttle tick. */
  async #pump(session) {
    const link = this.#link;
    try {
      for (;;) {
        const batch = await link.next();
        if (batch === undefined) break;
        this.#take(batch);
        // What arrives during the tick waits in Rust and is taken with this one snapshot.
        await this.#tick();
        if (this.#disposed || this.#session !== session) return;
        const more = link.poll();
        if (typeof more === "string") this.#take(more);
        this.#publish();
        if (more === undefined) break;
      }
    } catch (error) {
      this.#fail(error);
    }
    if (!this.#disposed && this.#session === session) {
      this.#closed = true;
      this.#publish();
    }
  }

  /** Applies a batch of messages that are no rows (results, errors, the queue). */
  #take(batch) {
    for (const message of JSON.parse(batch)) {
      if (message.type === "queue_update") {
        this.#queue = Object.freeze(message.queue.map((item) => this.#queueItem(item)));
      } else if (message.type === "loop_status") {
        const busy = message.status !== "WAITING_ON_INPUT" || message.activeRunIds.length > 0;
        // Another client's run (one this chat may have approved) streams to it, not here: its
        // rows come from history once the server is idle again.
        if (this.#serverBusy && !busy && !this.#link.busy()) this.#catchUp({ rebuild: false });
        this.#serverBusy = busy;
      } else if (message.type === "error") {
        this.#error = Object.freeze({ message: message.message, code: message.errorCode });
      } else if (message.type === "result") {
        this.#lastResult = Object.freeze(message);
        if (!message.success && message.errorCode !== "interrupted") {
          this.#error = Object.freeze({ message: message.errorDetail ?? message.error ?? "The turn failed.", code: message.errorCode });
        }
        // A turn that did not end well may leave rows the server did not keep (an interrupted
        // reply's part): once idle, the rows become history's.
        if (!message.success) this.#reconcile = true;
      }
    }
    if (this.#reconcile && !this.#link.busy()) {
      this.#reconcile = false;
      this.#catchUp({ rebuild: true });
    }
  }

  #queueItem(item) {
    const remove = async () => {
      try {
        await /** @type {Session} */ (this.#session).removeQueuedMessage(item.id);
      } catch (error) {
        this.#fail(error);
      }
    };
    return Object.freeze({ ...item, remove });
  }

  /** Sends `entry` (replacing `previous` in the outbox, on a retry) and keeps its state in the outbox until the session took it. */
  async #deliver(entry, previous) {
    this.#outbox = Object.freeze(previous ? this.#outbox.map((e) => (e === previous ? entry : e)) : [...this.#outbox, entry]);
    this.#error = null;
    this.#publish();
    try {
      if (!this.#started) await this.#session?.ready();
      await /** @type {Session} */ (this.#session).send(entry.content, { otid: entry.id });
      this.#outbox = Object.freeze(this.#outbox.filter((e) => e !== entry));
    } catch (error) {
      const failed = Object.freeze({ ...entry, state: "failed", error: describe(error) });
      this.#outbox = Object.freeze(this.#outbox.map((e) => (e === entry ? failed : e)));
      this.#error = failed.error;
    }
    this.#publish();
  }

  /** `canUseTool`: the approval waits in the snapshot until `allow()` or `deny()`. */
  async #ask(toolName, input, context) {
    const own = this.#options.sessionOptions?.canUseTool;
    const decided = own ? await own(toolName, input, context) : undefined;
    if (decided !== undefined) return decided;
    return new Promise((resolve) => {
      const toolCallId = context?.toolCallId;
      const answer = (decision) => {
        if (!this.#approvals.includes(approval)) return;
        this.#approvals = Object.freeze(this.#approvals.filter((a) => a !== approval));
        // Answered directly too, so the answer does not depend on this callback's session.
        if (toolCallId) this.#session?.respondToApproval(toolCallId, decision).catch((error) => this.#fail(error));
        resolve(decision);
        this.#publish();
      };
      const approval = Object.freeze({
        toolName,
        input,
        toolCallId,
        requestId: context?.requestId,
        allow: (updatedInput) => answer(updatedInput === undefined ? { behavior: "allow" } : { behavior: "allow", updatedInput }),
        deny: (message) => answer({ behavior: "deny", message: isNonEmptyString(message) ? message : "Denied by the user." }),
      });
      this.#approvals = Object.freeze([...this.#approvals, approval]);
      this.#publish();
    });
  }

  /**
   * Loads a page of history into the rows: the newest page (`fresh`: instead of the rows) or the one before `before`.
   * @param {{before?: string, fresh?: boolean, keepPaging?: boolean}} page
   */
  async #loadHistory({ before, fresh = false, keepPaging = false }) {
    this.#history = Object.freeze({ ...this.#history, loading: true });
    this.#publish();
    try {
      const page = await /** @type {Session} */ (this.#session).listMessages({ limit: this.#options.historyLimit, order: "desc", before });
      if (this.#disposed) return;
      this.#link.rebase(page, "desc", fresh);
      this.#rowsFresh ||= fresh;
      // A catch-up merging the newest page keeps the paging of older pages as it was.
      if (!keepPaging || fresh) {
        this.#nextBefore = page.nextBefore ?? page.messages.at(-1)?.id;
        this.#history = Object.freeze({ hasMore: Boolean(page.hasMore), loading: false });
      } else {
        this.#history = Object.freeze({ ...this.#history, loading: false });
      }
    } catch (error) {
      this.#history = Object.freeze({ ...this.#history, loading: false });
      this.#fail(error);
    }
    this.#publish();
  }

  /**
   * History says what happened without this chat's stream: after every socket was lost, or a
   * turn that did not end well (`rebuild`: the rows become history's when no turn runs, merged
   * otherwise), or after another client's run (merged).
   */
  async #catchUp({ rebuild }) {
    if (!this.#started || this.#disposed) return;
    await this.#loadHistory({ fresh: rebuild && !this.#link.busy(), keepPaging: true });
  }

  #fail(error) {
    this.#error = describe(error);
    this.#publish();
  }

  /** Takes the row patch and publishes a new snapshot when anything changed. */
  #publish() {
    if (this.#link !== null && !this.#disposed) {
      this.#rows = applyPatch(this.#rowsFresh ? [] : this.#rows, this.#link.patch());
      this.#rowsFresh = false;
    }
    const next = this.#makeSnapshot();
    const previous = this.#snapshot;
    if (Object.keys(next).every((key) => next[key] === previous[key])) return;
    this.#snapshot = next;
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A listener's failure must not stop the others or the chat.
      }
    }
  }

  #status() {
    if (this.#disposed || this.#closed) return "closed";
    if (this.#startError !== null) return "error";
    if (!this.#started) return "connecting";
    if (this.#approvals.length > 0) return "awaiting-approval";
    if (this.#link.busy() || this.#serverBusy || this.#outbox.some((e) => e.state === "sending")) return "streaming";
    return "ready";
  }

  #makeSnapshot() {
    return Object.freeze({
      status: this.#status(),
      agentId: this.#ids.agentId,
      conversationId: this.#ids.conversationId,
      rows: this.#rows,
      approvals: this.#approvals,
      queue: this.#queue,
      outbox: this.#outbox,
      error: this.#error,
      connection: this.#connection,
      history: this.#history,
      lastResult: this.#lastResult,
      session: this.#session,
      send: this.send,
      stop: this.stop,
      loadOlder: this.loadOlder,
      retry: this.retry,
    });
  }
}
