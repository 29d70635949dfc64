// The session driver: the I/O around one Rust `SessionMachine` (the sans-IO session core).
// It owns the WebSocket, the timer and the Promises of API calls; it feeds socket events and
// the clock into the core and executes the effects the core hands back (frames to write, calls
// to settle, callbacks to run). All protocol and turn logic stays in Rust.
//
// Host objects live here rather than in Rust because this is what JavaScript does natively:
// doing it through wasm-bindgen closures and web-sys cost a third of the WebAssembly module.

import { wasm } from "./runtime.js";
import { typedError } from "./errors.js";

/** Status frames at least this long are skipped unparsed while nobody listens for them. */
const BIG_FRAME = 1024;
const DEVICE_STATUS_PREFIX = '{"type":"update_device_status"';
const SOCKET_EVENTS = ["open", "message", "close", "error"];
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A short description of a thrown value or an error event, for error messages. */
function describe(value) {
  if (typeof value === "string") return value;
  const message = value?.message;
  return typeof message === "string" && message !== "" ? message : "unknown error";
}

/** The text of a frame's data: strings as they are, binary data decoded as UTF-8 (or `undefined`). */
function frameText(data) {
  if (typeof data === "string") return data;
  try {
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return utf8.decode(data);
  } catch {
    // Not UTF-8: not a frame of this protocol.
  }
  return undefined;
}

const method = (target, name) => (typeof target?.[name] === "function" ? target[name] : undefined);

/**
 * One session (or management connection) over a real WebSocket. `config`: the validated
 * session configuration (`{url, authToken, requestTimeoutMs, target, options}`, options.js);
 * the token stays here, in JavaScript, and only goes into the `Authorization` header.
 * `WebSocket`: the injected
 * constructor (called as `new WebSocket(url, {headers})`) or `undefined` for the global one;
 * `events(kind, …)`: `("approval", handle, toolName, inputJson, contextJson)`,
 * `("tool", handle, toolCallId, toolName, inputJson)`, `("device", statusJson)`.
 */
export class SessionDriver {
  #core;
  #url;
  #authToken;
  #WebSocket;
  #events;
  #socket = null;
  #listeners = null;
  #timer = null;
  #timerAt = -1;
  #calls = new Map();
  #nextCall = 0;
  #waiters = [];
  #freed = false;

  constructor(config, nonce, WebSocket, events) {
    const { url, authToken, requestTimeoutMs, target, options } = config;
    this.#core = new (wasm().SessionMachine)(JSON.stringify({ requestTimeoutMs, target, options }), nonce);
    this.#url = url;
    this.#authToken = authToken;
    this.#WebSocket = WebSocket;
    this.#events = events;
  }

  /** Opens the socket and starts the session; resolves with the init info (JSON). */
  connect() {
    const promise = this.#call(undefined, (core, id, now) => core.begin(id, now));
    this.#open();
    return promise;
  }

  /** Writes a user turn (`contentJson`: a string or content-part array, as JSON). */
  send(contentJson, otid) {
    return this.#sync((core, now) => core.send(contentJson, otid, now));
  }

  /** Every `SDKMessage` available now as one JSON array (waiting for one), or `undefined` once the stream ended. */
  nextMessages() {
    const core = this.#core;
    if (this.#freed) return Promise.resolve(undefined);
    const batch = core.takeMessages();
    if (batch !== undefined) return Promise.resolve(batch);
    if (core.streamEnded()) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  abort() {
    return this.#call(undefined, (core, id, now) => core.abort(id, now));
  }

  listMessages(optionsJson) {
    return this.#call(undefined, (core, id, now) => core.listMessages(id, optionsJson, now));
  }

  listModels() {
    return this.#call(undefined, (core, id, now) => core.listModels(id, now));
  }

  updateModel(requestJson) {
    return this.#call(undefined, (core, id, now) => core.updateModel(id, requestJson, now));
  }

  removeQueuedMessage(itemId) {
    return this.#call(undefined, (core, id, now) => core.removeQueuedMessage(id, itemId, now));
  }

  changeDeviceState(updateJson) {
    return this.#sync((core) => core.changeDeviceState(updateJson));
  }

  getDeviceStatus(optionsJson) {
    return this.#call(undefined, (core, id, now) => core.getDeviceStatus(id, optionsJson, now));
  }

  setDeviceStatusListening(listening) {
    if (!this.#freed) this.#core.setDeviceStatusListening(listening);
  }

  recoverPendingApprovals(optionsJson) {
    return this.#call(undefined, (core, id, now) => core.recoverPendingApprovals(id, optionsJson, now));
  }

  /** `sendCommand(command)` without options: written verbatim. */
  sendRaw(commandJson) {
    return this.#sync((core) => core.sendRaw(commandJson));
  }

  /** `sendCommand(command, options)`: resolves with the answering frame (JSON). */
  sendCommand(commandJson, responseType, predicate, timeoutMs) {
    return this.#call(predicate, (core, id, now) =>
      core.sendCommand(id, commandJson, responseType, predicate !== undefined, timeoutMs, now),
    );
  }

  /** A management request (`agent_list`, …): resolves with the response frame (JSON). */
  management(type, fieldsJson) {
    return this.#call(undefined, (core, id, now) => core.management(id, type, fieldsJson, now));
  }

  /** The `canUseTool` callback's answer (JSON) for an `approval` event. */
  answerApproval(handle, responseJson) {
    this.#sync((core) => core.answerApproval(handle, responseJson));
  }

  /** A tool's outcome (`{"result": …}` or `{"error": "…"}`) for a `tool` event. */
  finishTool(handle, outcomeJson) {
    this.#sync((core) => core.finishTool(handle, outcomeJson));
  }

  hasInFlightTurn() {
    return !this.#freed && this.#core.hasInFlightTurn();
  }

  isClosed() {
    return this.#freed || this.#core.isClosed();
  }

  /** Ends the stream, rejects pending calls and closes the socket. Idempotent. */
  close() {
    if (!this.#freed) this.#sync((core, now) => core.close(now));
  }

  /** Closes, then releases the core's WebAssembly memory. Idempotent. */
  free() {
    if (this.#freed) return;
    this.close();
    this.#freed = true;
    this.#closeSocket();
    clearTimeout(this.#timer);
    this.#timer = null;
    for (const resolve of this.#waiters.splice(0)) resolve(undefined);
    this.#core.free();
  }

  // ---- plumbing ------------------------------------------------------------------------------

  /** Runs a synchronous core call, then its effects. A typed error thrown by the core propagates. */
  #sync(f) {
    if (this.#freed) throw typedError("LettaClosedError", "closed", "Session is closed");
    try {
      return f(this.#core, Date.now());
    } finally {
      this.#pump();
    }
  }

  /** Registers a call (a Promise the core settles through its effects) and starts it. */
  #call(predicate, start) {
    if (this.#freed) return Promise.reject(typedError("LettaClosedError", "closed", "Session is closed"));
    const id = ++this.#nextCall;
    const promise = new Promise((resolve, reject) => this.#calls.set(id, { resolve, reject, predicate }));
    start(this.#core, id, Date.now());
    this.#pump();
    return promise;
  }

  #takeCall(id) {
    const call = this.#calls.get(id);
    this.#calls.delete(id);
    return call;
  }

  #open() {
    if (this.#freed || this.#socket !== null || this.#core.isClosed()) return;
    try {
      this.#socket = this.#newSocket(this.#url);
      this.#listen(this.#socket);
      if (this.#socket.readyState === 1) this.#core.onOpen(Date.now());
    } catch (error) {
      this.#closeSocket();
      this.#core.onError(error.message);
    }
    this.#pump();
  }

  /** The token only ever travels in the `Authorization` header. */
  #newSocket(url) {
    const construct = (Constructor, ...args) => {
      try {
        return new Constructor(url, ...args);
      } catch (error) {
        throw new Error(`WebSocket constructor failed: ${describe(error)}`);
      }
    };
    if (typeof this.#WebSocket === "function") {
      const token = this.#authToken;
      return token === undefined
        ? construct(this.#WebSocket)
        : construct(this.#WebSocket, { headers: { Authorization: `Bearer ${token}` } });
    }
    if (this.#authToken !== undefined) {
      throw new Error(
        "authToken needs a WebSocket constructor that accepts headers (the ws package in Node, createReactNativeWebSocketConstructor in React Native); browsers cannot send the Authorization header, so connect through a relay that adds it",
      );
    }
    if (typeof globalThis.WebSocket !== "function") {
      throw new Error("No WebSocket implementation available: pass the WebSocket option (for example the ws package in Node).");
    }
    const socket = construct(globalThis.WebSocket);
    socket.binaryType = "arraybuffer";
    return socket;
  }

  /** Attaches the four listeners (`addEventListener`, or `on` for emitter-style sockets). */
  #listen(socket) {
    const eventTarget = method(socket, "addEventListener") !== undefined;
    const register = eventTarget ? socket.addEventListener : method(socket, "on");
    if (register === undefined) throw new Error("WebSocket implementation does not support event listeners");
    this.#listeners = { eventTarget, handlers: [] };
    for (const name of SOCKET_EVENTS) {
      const handler = (event) => this.#onSocketEvent(name, eventTarget && name === "message" ? event?.data : event);
      try {
        register.call(socket, name, handler);
      } catch (error) {
        throw new Error(`WebSocket listener failed: ${describe(error)}`);
      }
      this.#listeners.handlers.push([name, handler]);
    }
  }

  #onSocketEvent(name, event) {
    if (this.#freed) return;
    const core = this.#core;
    const now = Date.now();
    if (name === "open") core.onOpen(now);
    else if (name === "close") core.onClosed(now);
    else if (name === "error") core.onError(typeof event?.message === "string" && event.message !== "" ? event.message : "error event");
    else {
      const skip =
        typeof event === "string" &&
        event.length >= BIG_FRAME &&
        event.startsWith(DEVICE_STATUS_PREFIX) &&
        !core.wantsDeviceStatus();
      const text = skip ? undefined : frameText(event);
      if (text !== undefined) core.onFrame(text, now);
    }
    this.#pump();
  }

  /** Detaches the listeners and closes the socket (idempotent). */
  #closeSocket() {
    const socket = this.#socket;
    if (socket === null || this.#listeners === null) return;
    const { eventTarget, handlers } = this.#listeners;
    this.#listeners = null;
    const remove = eventTarget ? method(socket, "removeEventListener") : (method(socket, "off") ?? method(socket, "removeListener"));
    for (const [name, handler] of handlers) {
      try {
        remove?.call(socket, name, handler);
      } catch {
        // A socket that cannot remove a listener still gets closed.
      }
    }
    try {
      method(socket, "close")?.call(socket);
    } catch {
      // Closing a socket that already failed.
    }
  }

  /** Executes the core's effects, delivers messages to waiters and re-arms the timer. */
  #pump() {
    if (this.#freed) return;
    for (let json = this.#core.takeEffects(); json !== undefined; json = this.#freed ? undefined : this.#core.takeEffects()) {
      for (const effect of JSON.parse(json)) this.#execute(effect);
    }
    this.#deliver();
    this.#arm();
  }

  #execute([kind, a, b, c, d]) {
    switch (kind) {
      case "write":
        try {
          this.#socket?.send(a);
        } catch {
          // A failed write means the socket is going away; its close event follows.
        }
        break;
      case "ok":
        this.#takeCall(a)?.resolve(b);
        break;
      case "error":
        this.#takeCall(a)?.reject(typedError(b, c, d));
        break;
      case "candidate":
        this.#candidate(a, b);
        break;
      case "approval":
      case "tool":
        this.#events(kind, a, b, c, d);
        break;
      case "device":
        this.#events(kind, a);
        break;
      case "close":
        this.#closeSocket();
        break;
    }
  }

  /** A frame that may answer a `sendCommand` with a predicate: the predicate decides. */
  #candidate(id, frame) {
    const predicate = this.#calls.get(id)?.predicate;
    if (predicate === undefined) return;
    let parsed = null;
    try {
      parsed = JSON.parse(frame);
    } catch {
      // Handed to the predicate as null.
    }
    let accepted;
    try {
      accepted = predicate(parsed);
    } catch (thrown) {
      if (!this.#freed) this.#core.cancelCall(id);
      this.#takeCall(id)?.reject(thrown);
      return;
    }
    if (accepted) {
      if (!this.#freed) this.#core.cancelCall(id);
      this.#takeCall(id)?.resolve(frame);
    }
  }

  #deliver() {
    while (this.#waiters.length > 0 && !this.#freed) {
      const batch = this.#core.takeMessages();
      if (batch === undefined && !this.#core.streamEnded()) return;
      this.#waiters.shift()(batch);
    }
  }

  #arm() {
    if (this.#freed) return;
    const at = this.#core.nextDeadline();
    if (at === this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = at;
    if (at < 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = -1;
      if (this.#freed) return;
      this.#core.onTick(Date.now());
      this.#pump();
    }, Math.max(0, at - Date.now()));
  }
}
