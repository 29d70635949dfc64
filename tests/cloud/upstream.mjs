// The stand-in's side of the REAL app server: sockets authenticated with the app server's token
// (header only; the token never appears in a URL or a log line) and request/response calls
// correlated by request_id.
import { randomUUID } from "node:crypto";
import WebSocket from "ws";

/** Opens a socket to the app server; resolves once it is open. */
export function openUpstream(url, token) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
    socket.once("open", () => resolve(socket));
    socket.once("error", (error) => reject(new Error(`app server socket failed: ${error.message}`)));
  });
}

/** Sends `{type, request_id, ...fields}` and resolves with the `<type>_response` frame. */
export function call(socket, type, fields = {}, timeoutMs = 60_000) {
  const requestId = `${type}-${randomUUID()}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`app server did not answer ${type}`)), timeoutMs);
    const onMessage = (data) => {
      let frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (frame.request_id !== requestId || frame.type !== `${type}_response`) return;
      if (frame.success === false) done(new Error(frame.error ?? `${type} failed`));
      else done(null, frame);
    };
    const onClose = () => done(new Error("app server socket closed"));
    function done(error, frame) {
      clearTimeout(timer);
      socket.off("message", onMessage);
      socket.off("close", onClose);
      if (error) reject(error);
      else resolve(frame);
    }
    socket.on("message", onMessage);
    socket.once("close", onClose);
    socket.send(JSON.stringify({ type, request_id: requestId, ...fields }));
  });
}

/** One lazily opened management connection (no runtime bound to it), reopened after a drop. */
export class Management {
  #url;
  #token;
  #socket = null;

  constructor(url, token) {
    this.#url = url;
    this.#token = token;
  }

  async #open() {
    if (this.#socket === null || this.#socket.readyState > WebSocket.OPEN) {
      const opening = openUpstream(this.#url, this.#token);
      this.#socket = opening;
      const socket = await opening.catch((error) => {
        this.#socket = null;
        throw error;
      });
      this.#socket = socket;
      socket.once("close", () => {
        if (this.#socket === socket) this.#socket = null;
      });
    }
    return this.#socket;
  }

  /** A management request (`agent_list`, `conversation_create`, …). */
  async request(type, fields) {
    return call(await this.#open(), type, fields);
  }

  /** `runtime_start` on a throw-away connection (agent creation, agent-free conversations). */
  async runtimeStart(fields) {
    const socket = await openUpstream(this.#url, this.#token);
    try {
      return await call(socket, "runtime_start", {
        client_info: { name: "cloud-stand-in", title: "Cloud stand-in" },
        mode: "standard",
        ...fields,
      });
    } finally {
      socket.close();
    }
  }

  close() {
    const socket = this.#socket;
    this.#socket = null;
    if (socket && typeof socket.close === "function") socket.close();
  }
}
