// LettaCodeSession: a session on one conversation. The protocol and the turn state machine live
// in Rust, and so does its I/O (the SessionDriver class: src/js/session.rs); this class adds what JavaScript
// does better: async iteration, user callbacks (canUseTool, SDK-hosted tools, device status
// listeners) and disposal.

import { wasm } from "./runtime.js";
import { invalidArgument, LettaStateError } from "./errors.js";
import { sessionOptions, sessionTarget, splitOptions } from "./options.js";
import { asyncDisposeSymbol, parse } from "./values.js";

/**
 * A Rust `SessionDriver` for the validated `config` (options.js: `{url, authToken,
 * requestTimeoutMs, target, options}`); the token only goes into the `Authorization` header.
 */
export function newDriver(config, nonce, WebSocket, events) {
  const { url, authToken, requestTimeoutMs, target, options } = config;
  const json = JSON.stringify({ requestTimeoutMs, target, options });
  return new (wasm().SessionDriver)(json, nonce, url, authToken, WebSocket, events);
}

const errorMessage = (error) => (error instanceof Error ? error.message : String(error));

/** @internal The key of a session's link for the chat store (lib/chat.js). */
export const chatLink = Symbol("letta-agent-wasm chat link");

// `Info.agentId` is `null` only in query()'s sessions, whose `Query` reports it itself.
/** @typedef {import("../session.js").LettaCodeSession} PublicSession @typedef {import("../messages.js").SDKInitMessage} Info */
/** @typedef {{mcpServers?: unknown, outputFormat?: unknown, mcp?: import("./mcp.js").McpServers, structured?: any, closed?: Promise<void>}} Extras */
/** A session on one Letta conversation. Create it with `client.createSession()` or `resumeSession()`. @implements {PublicSession} */
export class LettaCodeSession {
  #connection;
  #config;
  #options;
  /** The Rust SessionDriver; `null` until the start for a Cloud session made before the Cloud build loaded. @type {any} */
  #driver;
  /** @type {Promise<Info> | null} */ #initializing = null;
  /** A Cloud reopen after an idle drop, shared by concurrent callers. @type {Promise<void> | null} */
  #reopening = null;
  /** @type {import("../session.js").SandboxFilesClient | undefined} */ #sandbox;
  /** @type {Info | null} */ #info = null;
  #closed = false;
  #deviceListeners = new Set();
  #connectionListeners = new Set();
  /**
   * Aborted when the session closes: the `signal` SDK-hosted tools receive. Made by the first
   * tool call (one per session was a measurable share of a turn: bench/RESULTS.md).
   * @type {AbortController | null}
   */
  #closing = null;
  /**
   * `{mcpServers?, outputFormat?}` when set, with what their lazily loaded modules make of them
   * before the start: `mcp` (mcp.js `McpServers`), `structured` (structured-output.js). @type {Extras | null}
   */
  #extras = null;
  /** A chat store reads this session (see `[chatLink]`): every driver feeds its transcript. */
  #feeding = false;
  /** Messages fetched from Rust but not yet yielded (kept for the next `stream()`). */
  #buffered = [];
  #read = 0;

  /** @internal Use `client.createSession()` / `client.resumeSession()`. */
  constructor(connection, target, options) {
    this.#connection = connection;
    const start = sessionTarget(JSON.parse(JSON.stringify(target)));
    this.#options = splitOptions(options, start.action);
    // A Cloud connection carries its CloudClient (`cloud.client`) instead of remote options.
    const client = connection.client ?? {};
    const { plain } = this.#options;
    const { mcpServers, outputFormat, ...checked } = sessionOptions(plain, start.action, Boolean(connection.cloud));
    // Where a Cloud session runs (spec §1.3, §4.3–4.5) is decided in Rust (cloud::target).
    const { computer, environment, sandbox, resources } = plain;
    const cloud = connection.cloud ? { action: start.action, computer, environment, sandbox, resources } : undefined;
    if (mcpServers || outputFormat) this.#extras = { mcpServers, outputFormat };
    this.#config = { ...client, target: start.target, options: checked, cloud };
    this.#driver = this.#newDriver();
  }

  #newDriver() {
    const { nonce, WebSocket, cloud } = this.#connection;
    const events = (...event) => this.#onEvent(event);
    const driver = cloud
      ? cloud.sessionDriver(JSON.stringify(this.#config), nonce, WebSocket, events)
      : newDriver(this.#config, nonce, WebSocket, events);
    if (driver === null) return null;
    if (this.#deviceListeners.size > 0) driver.setDeviceStatusListening(true);
    if (this.#feeding) driver.feedTranscript();
    return driver;
  }

  /**
   * Before the first start of a session with `outputFormat` / `mcpServers`: loads their modules
   * (dynamic imports: other sessions never load them, and the browser fetches them on demand),
   * which validate them, connect the MCP servers and add the tools that the start registers.
   */
  async #prepare() {
    const extras = /** @type {Extras} */ (this.#extras);
    const { options } = this.#config;
    if (extras.outputFormat) {
      extras.structured ??= (await import("./structured-output.js")).structuredTurns(extras.outputFormat, options, this.#options);
    }
    if (extras.mcpServers) {
      const { startMcp } = await import("./mcp.js");
      extras.mcp ??= await startMcp(extras.mcpServers, options, this.#options, wasm().loadStdioTransport ?? null);
    }
    if (this.#closed) {
      extras.closed = extras.mcp?.close();
      throw wasm().SessionDriver.closedError();
    }
    this.#driver?.release();
    this.#driver = this.#newDriver();
  }

  /** The agent's id, once started (`null` before, and for agent-free conversations). */
  get agentId() {
    return this.#info?.agentId ?? null;
  }

  /** The conversation's id, once started (`null` before). */
  get conversationId() {
    return this.#info?.conversationId ?? null;
  }

  /** `<agentId>:<conversationId>` (just the conversation id when agent-free), once started. */
  get sessionId() {
    return this.#info?.sessionId ?? null;
  }

  /**
   * Cloud only: file transfer with the session's managed sandbox (spec §4.8; files live under
   * `/root/downloads`). With an explicit computer both methods reject with the spec's error.
   */
  get sandbox() {
    if (!this.#connection.cloud) return undefined;
    this.#sandbox ??= {
      uploadFiles: async (files) => {
        // Rust checks the list (at least one file, every name non-empty): cloud::files.
        const list = Array.isArray(files) ? files.map((file) => ({ name: file?.name, content: file?.data })) : [];
        await this.#ensureInitialized();
        return parse(await this.#live().sandboxUpload(list));
      },
      downloadFile: async (path) => {
        await this.#ensureInitialized();
        return this.#live().sandboxDownload(typeof path === "string" ? path : "");
      },
    };
    return this.#sandbox;
  }

  #live() {
    if (this.#closed) throw wasm().SessionDriver.closedError();
    return this.#driver;
  }

  /** Starts the session once; concurrent callers share one start. A failed start can be retried. @returns {Promise<Info>} */
  #ensureInitialized() {
    this.#live();
    // A remote session that lost every socket reopens on the next call (Cloud: before a turn).
    if (this.#info !== null && !this.#connection.cloud && this.#driver.isIdleDisconnected()) {
      return this.#reopenIfIdle().then(() => /** @type {Info} */ (this.#info));
    }
    if (this.#info !== null) return Promise.resolve(this.#info);
    if (this.#initializing === null) {
      this.#initializing = this.#beforeStart().then(
        () => this.#connect(),
        (error) => {
          this.#initializing = null;
          throw error;
        },
      );
    }
    return this.#initializing;
  }

  /** Before a start: the Cloud build (and then the driver) if not loaded yet, and the modules of `outputFormat` / `mcpServers`. */
  async #beforeStart() {
    const { cloud } = this.#connection;
    if (this.#driver === null && cloud) {
      await cloud.client();
      if (this.#closed) throw wasm().SessionDriver.closedError();
    }
    // `#prepare` makes the session's driver anew itself.
    if (this.#extras) await this.#prepare();
    else this.#driver ??= this.#newDriver();
  }

  #connect() {
    const driver = this.#driver;
    return driver.connect().then(
      async (json) => {
        const info = JSON.parse(json);
        // The init message lists the MCP tools too (spec §1.5); structured output picks its mode.
        this.#extras?.mcp?.listTools(info);
        await this.#extras?.structured?.afterStart(driver, info, this.#config.options.tools);
        this.#info = info;
        return info;
      },
      (error) => {
        this.#initializing = null;
        if (!this.#closed) {
          driver.release();
          this.#driver = this.#newDriver();
        }
        throw error;
      },
    );
  }

  /** Advanced: starts the session explicitly; returns the init message. */
  async initialize() {
    if (this.#info !== null) throw new LettaStateError("Session already initialized");
    return this.#ensureInitialized();
  }

  /** Connects and returns the session identity, without calling the model. */
  async ready() {
    const info = await this.#ensureInitialized();
    if (this.#connection.cloud) await this.#reopenIfIdle();
    return { agentId: /** @type {string} */ (info.agentId), conversationId: info.conversationId, model: info.model || undefined, tools: info.tools };
  }

  /**
   * Sends a user message; resolves once it is written (the turn streams through `stream()`).
   * The core checks the message and `otid` (as the reference does, once the session started).
   */
  async send(message, options) {
    await this.#ensureInitialized();
    if (this.#connection.cloud) await this.#beforeTurn();
    const structured = this.#extras?.structured;
    const content = structured ? structured.begin(message) : message;
    this.#live().send(JSON.stringify(content) ?? "null", options?.otid, structured?.format);
  }

  /**
   * Cloud, before input is written: the managed sandbox is refreshed (an expired one rejects
   * with `CloudManagedSandboxExpiredError`), then a transport dropped while idle is reopened.
   */
  async #beforeTurn() {
    await this.#live().beforeTurn();
    await this.#reopenIfIdle();
  }

  /**
   * The reopen after the transport was lost (Cloud: idle drop, spec §3.11; remote: every socket
   * lost): one reopen for concurrent callers; acknowledged input is never sent again.
   */
  async #reopenIfIdle() {
    const driver = this.#live();
    if (!driver.isIdleDisconnected()) return;
    this.#reopening ??= driver.connect().finally(() => {
      this.#reopening = null;
    });
    await this.#reopening;
  }

  /** Yields this turn's messages and stops after its `result` (or when the session closes). */
  async *stream() {
    await this.#ensureInitialized();
    const driver = this.#driver;
    while (!this.#closed) {
      if (this.#buffered.length === this.#read) {
        const batch = parse(await driver.nextMessages());
        if (batch === undefined || this.#closed) return;
        this.#buffered = batch;
        this.#read = 0;
      }
      let message = this.#buffered[this.#read++];
      // Structured output may rewrite a result, or hold it back for a corrective turn.
      if (this.#extras?.structured && !(message = this.#extras.structured.observe(message, driver))) continue;
      yield message;
      if (message.type === "result") return;
    }
  }

  /** Interrupts the active turn (its result ends with `interrupted`). A no-op before start. */
  async abort() {
    const driver = this.#live();
    if (this.#info === null) return;
    await driver.abort();
  }

  async listMessages(options = {}) {
    await this.#ensureInitialized();
    return parse(await this.#live().listMessages(JSON.stringify(options ?? {})));
  }

  /** `listMessages` plus the session identity. */
  async bootstrapState(options = {}) {
    const info = await this.#ensureInitialized();
    const page = await this.listMessages({ limit: options?.limit, order: options?.order ?? "desc" });
    return {
      agentId: /** @type {string} */ (info.agentId),
      conversationId: info.conversationId,
      model: info.model || undefined,
      tools: info.tools,
      messages: page.messages,
      nextBefore: page.nextBefore,
      hasMore: page.hasMore,
    };
  }

  /** The status of each of the session's `mcpServers` (starts the session); `[]` without any. */
  async mcpServerStatus() {
    await this.#ensureInitialized();
    return this.#extras?.mcp?.statuses() ?? [];
  }

  async listModels() {
    await this.#ensureInitialized();
    return parse(await this.#live().listModels());
  }

  async updateModel(request) {
    await this.#ensureInitialized();
    return parse(await this.#live().updateModel(JSON.stringify(request ?? null)));
  }

  async removeQueuedMessage(itemId) {
    await this.#ensureInitialized();
    return parse(await this.#live().removeQueuedMessage(typeof itemId === "string" ? itemId : ""));
  }

  async changeDeviceState(update) {
    await this.#ensureInitialized();
    this.#live().changeDeviceState(JSON.stringify(update ?? {}));
  }

  async getDeviceStatus(options = {}) {
    await this.#ensureInitialized();
    return parse(await this.#live().getDeviceStatus(JSON.stringify(options ?? {})));
  }

  /** Subscribes to device status snapshots of this session; returns the unsubscribe function. */
  onDeviceStatus(listener) {
    if (typeof listener !== "function") throw invalidArgument("Invalid device status listener. Expected a function.");
    const driver = this.#live();
    this.#deviceListeners.add(listener);
    driver?.setDeviceStatusListening(true);
    return () => {
      this.#deviceListeners.delete(listener);
      if (this.#deviceListeners.size === 0 && !this.#closed) this.#driver?.setDeviceStatusListening(false);
    };
  }

  /**
   * Subscribes to connection changes: `{type: "reconnecting", live}` when a socket dropped
   * (`live`: another one carries the session meanwhile) and `{type: "reconnected"}` once the
   * session is whole again. Returns the unsubscribe function.
   */
  onConnectionChange(listener) {
    if (typeof listener !== "function") throw invalidArgument("Invalid connection listener. Expected a function.");
    this.#live();
    this.#connectionListeners.add(listener);
    return () => this.#connectionListeners.delete(listener);
  }

  /**
   * Answers the approval of tool call `toolCallId` with `decision` (what `canUseTool` returns),
   * whether or not `canUseTool` is deciding it: one recovered after a reload, or a UI's answer.
   * A request answered already is left as it is.
   */
  async respondToApproval(toolCallId, decision) {
    await this.#ensureInitialized();
    this.#live().respondToApproval(typeof toolCallId === "string" ? toolCallId : "", JSON.stringify(decision ?? null));
  }

  /**
   * @internal lib/chat.js: from now on this session feeds its own transcript (rows cross as
   * patches, see src/js/session/chat.rs), and `nextMessages()` yields only what is no row.
   */
  [chatLink]() {
    this.#feeding = true;
    this.#live()?.feedTranscript();
    return {
      next: () => this.#live().nextMessages(),
      poll: () => (this.#closed ? undefined : this.#driver.pollMessages()),
      patch: () => this.#driver.transcriptPatch(),
      rebase: (page, order, fresh) => this.#driver.rebaseTranscript(JSON.stringify(page), order, fresh),
      busy: () => !this.#closed && Boolean(this.#driver?.hasInFlightTurn()),
    };
  }

  async recoverPendingApprovals(options = {}) {
    await this.#ensureInitialized();
    return parse(await this.#live().recoverPendingApprovals(JSON.stringify(options ?? {})));
  }

  /** Advanced: changes the session's toolset preference (`update_toolset`). */
  async updateToolset(preference) {
    const info = await this.#ensureInitialized();
    const fields = { runtime: { agent_id: info.agentId, conversation_id: info.conversationId }, toolset_preference: preference };
    return parse(await this.#live().management("update_toolset", JSON.stringify(fields)));
  }

  /** Raw protocol escape hatch. Without options the command is written as is. The core checks the command and `timeoutMs`. */
  async sendCommand(command, options) {
    await this.#ensureInitialized();
    const driver = this.#live();
    const json = JSON.stringify(command) ?? "null";
    const { responseType, timeoutMs, predicate } = options ?? {};
    if (responseType === undefined && timeoutMs === undefined && predicate === undefined) {
      driver.sendRaw(json);
      return undefined;
    }
    if (predicate !== undefined && typeof predicate !== "function") {
      throw invalidArgument("Invalid predicate. Expected a function.");
    }
    return parse(await driver.sendCommand(json, JSON.stringify({ responseType, timeoutMs }), predicate));
  }

  /** Advanced: sends one message and waits for its result. */
  async sendAndWaitForResult(message) {
    await this.#ensureInitialized();
    if (this.#live().hasInFlightTurn()) {
      throw new LettaStateError(
        "A turn is already in flight for this app-server session. Use send() and stream() to let the listener queue messages.",
      );
    }
    await this.send(message);
    for await (const event of this.stream()) {
      if (event.type === "result") return event;
    }
    return {
      type: "result",
      success: false,
      error: "stream_closed",
      errorCode: "stream_closed",
      recoverable: false,
      errorDetail: "Stream ended before terminal result",
      durationMs: 0,
      conversationId: this.conversationId ?? null,
    };
  }

  /** Closes the session: ends `stream()`, rejects pending calls, closes the socket. Idempotent. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#deviceListeners.clear();
    this.#connectionListeners.clear();
    this.#closing?.abort();
    // MCP servers: child processes end and HTTP sessions are terminated (in the background).
    if (this.#extras) this.#extras.closed = this.#extras.mcp?.close();
    const driver = this.#driver;
    if (driver === null) return;
    driver.close();
    // Release the WebAssembly memory once the close has settled every pending call.
    queueMicrotask(() => driver.release());
  }

  async [asyncDisposeSymbol]() {
    this.close();
    await this.#extras?.closed;
  }

  /** @param {any[]} event `[kind, …arguments]` from the driver */
  #onEvent([kind, a, b, c, d]) {
    if (this.#closed) return;
    const driver = this.#driver;
    if (kind === "approval") {
      queueMicrotask(() => this.#approve(driver, a, b, JSON.parse(c), JSON.parse(d)));
    } else if (kind === "tool") {
      queueMicrotask(() => this.#runTool(driver, a, b, c, JSON.parse(d)));
    } else if (kind === "device" || kind === "connection") {
      const status = JSON.parse(a);
      const listeners = kind === "device" ? this.#deviceListeners : this.#connectionListeners;
      for (const listener of listeners) {
        try {
          listener(status);
        } catch {
          // A listener's failure must not stop the others or the session.
        }
      }
    }
  }

  async #approve(driver, handle, toolName, input, context) {
    let response;
    try {
      response = await this.#options.canUseTool(toolName, input, context);
    } catch (error) {
      response = { behavior: "deny", message: errorMessage(error) };
    }
    if (!this.#closed) driver.answerApproval(handle, JSON.stringify(response ?? null));
  }

  async #runTool(driver, handle, toolCallId, toolName, input) {
    let outcome;
    try {
      // The signal aborts when the session closes; partial updates have no wire form, so
      // onUpdate accepts and drops them.
      const result = await this.#options.executors.get(toolName)(toolCallId, input, (this.#closing ??= new AbortController()).signal, () => {});
      outcome = { result: result ?? { content: [] } };
    } catch (error) {
      outcome = { error: errorMessage(error) };
    }
    if (!this.#closed) driver.finishTool(handle, JSON.stringify(outcome));
  }
}
