// The session driver: the I/O around one Rust `SessionMachine` (the sans-IO session core).
// It owns the WebSocket, the timer and the Promises of API calls; it feeds socket events and
// the clock into the core and executes the effects the core hands back (frames to write, calls
// to settle, callbacks to run). All protocol and turn logic stays in Rust.
//
// Host objects live here rather than in Rust because this is what JavaScript does natively:
// doing it through wasm-bindgen closures and web-sys cost a third of the WebAssembly module.

import { wasm } from "./runtime.js";
import { closedError, invalidArgument, typedError } from "./errors.js";
import {
  BEGIN, CANCEL_CALL, CLOSE, CLOSED, ERROR, FRAME, IS_CLOSED, IS_DRAINING, NEXT_DEADLINE, OPEN, STREAM_ENDED, TAKE_EFFECTS,
  TAKE_MESSAGES, TICK, WANTS_DEVICE_STATUS,
} from "./ops.js";

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
 * Operations are the core's codes (ops.js); their arguments are listed in src/js/session.rs.
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
  /** free() was called while the core drains a close: free once the socket closed. */
  #freeWhenDrained = false;

  constructor(config, nonce, WebSocket, events) {
    const { url, authToken, requestTimeoutMs, target, options } = config;
    this.#core = wasm().SessionMachine.create(JSON.stringify({ requestTimeoutMs, target, options }), nonce);
    if (this.#core === undefined) throw invalidArgument("Invalid session configuration.");
    this.#url = url;
    this.#authToken = authToken;
    this.#WebSocket = WebSocket;
    this.#events = events;
  }

  /** Opens the socket and starts the session; resolves with the init info (JSON). */
  connect() {
    const promise = this.call(BEGIN);
    this.#open();
    return promise;
  }

  /** Every `SDKMessage` available now as one JSON array (waiting for one), or `undefined` once the stream ended. */
  nextMessages() {
    if (this.#freed) return Promise.resolve(undefined);
    const batch = this.#take(TAKE_MESSAGES);
    if (batch !== undefined || this.is(STREAM_ENDED)) return Promise.resolve(batch);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Starts the API call `op` (a Promise the core settles through its effects: the answer as
   * JSON); `predicate`: `sendCommand`'s, which decides on candidate frames.
   */
  call(op, text, extra, number, predicate) {
    if (this.#freed) return Promise.reject(closedError("Session is closed"));
    const id = ++this.#nextCall;
    const promise = new Promise((resolve, reject) => this.#calls.set(id, { resolve, reject, predicate }));
    this.#run(op, id, text, extra, number);
    this.#pump();
    return promise;
  }

  /** Runs the synchronous operation `op`, then its effects; throws the typed error it reports. */
  sync(op, id, text, extra, number) {
    if (this.#freed) throw closedError("Session is closed");
    const error = this.#run(op, id, text, extra, number);
    this.#pump();
    if (error !== undefined) throw typedError(...JSON.parse(error));
  }

  /** The core's flag `query` (ops.js); false once freed. */
  is(query) {
    return !this.#freed && this.#core.query(query) !== 0;
  }

  isClosed() {
    return this.#freed || this.is(IS_CLOSED);
  }

  /** Ends the stream, rejects pending calls and closes the socket. Idempotent. */
  close() {
    if (!this.#freed) this.sync(CLOSE);
  }

  /** Closes, then releases the core's WebAssembly memory. Idempotent. */
  free() {
    if (this.#freed) return;
    this.close();
    this.#freeWhenDrained = this.is(IS_DRAINING);
    if (this.#freeWhenDrained) return;
    this.#freed = true;
    this.#closeSocket();
    clearTimeout(this.#timer);
    this.#timer = null;
    for (const resolve of this.#waiters.splice(0)) resolve(undefined);
    this.#core.free();
  }

  // ---- plumbing ------------------------------------------------------------------------------

  /** One operation of the core, now. */
  #run(op, id = 0, text = "", extra, number = 0) {
    return this.#core.run(op, id, text, extra, number, Date.now());
  }

  /** `TAKE_EFFECTS` / `TAKE_MESSAGES`: they run after every event and need no clock. */
  #take(op) {
    return this.#core.run(op, 0, "", undefined, 0, 0);
  }

  #takeCall(id) {
    const call = this.#calls.get(id);
    this.#calls.delete(id);
    return call;
  }

  #open() {
    if (this.#freed || this.#socket !== null || this.is(IS_CLOSED)) return;
    try {
      this.#socket = this.#newSocket(this.#url);
      this.#listen(this.#socket);
      if (this.#socket.readyState === 1) this.#run(OPEN);
    } catch (error) {
      this.#closeSocket();
      this.#run(ERROR, 0, error.message);
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
    if (name === "open") this.#run(OPEN);
    else if (name === "close") this.#run(CLOSED);
    else if (name === "error") {
      this.#run(ERROR, 0, typeof event?.message === "string" && event.message !== "" ? event.message : "error event");
    } else {
      const skip =
        typeof event === "string" &&
        event.length >= BIG_FRAME &&
        event.startsWith(DEVICE_STATUS_PREFIX) &&
        !this.is(WANTS_DEVICE_STATUS);
      const text = skip ? undefined : frameText(event);
      if (text !== undefined) this.#run(FRAME, 0, text);
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
    for (let json = this.#take(TAKE_EFFECTS); json !== undefined; json = this.#freed ? undefined : this.#take(TAKE_EFFECTS)) {
      for (const effect of JSON.parse(json)) this.#execute(effect);
    }
    this.#deliver();
    this.#arm();
    if (this.#freeWhenDrained && !this.is(IS_DRAINING)) {
      this.#freeWhenDrained = false;
      this.free();
    }
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
      if (!this.#freed) this.#run(CANCEL_CALL, id);
      this.#takeCall(id)?.reject(thrown);
      return;
    }
    if (accepted) {
      if (!this.#freed) this.#run(CANCEL_CALL, id);
      this.#takeCall(id)?.resolve(frame);
    }
  }

  #deliver() {
    while (this.#waiters.length > 0 && !this.#freed) {
      const batch = this.#take(TAKE_MESSAGES);
      if (batch === undefined && !this.is(STREAM_ENDED)) return;
      this.#waiters.shift()(batch);
    }
  }

  #arm() {
    if (this.#freed) return;
    const at = this.#core.query(NEXT_DEADLINE);
    if (at === this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = at;
    if (at < 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = -1;
      if (this.#freed) return;
      this.#run(TICK);
      this.#pump();
    }, Math.max(0, at - Date.now()));
  }
}
