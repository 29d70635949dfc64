// A replayed Letta Code app server inside the Hermes VM, which has no sockets: a WebSocket
// class with React Native's constructor shape `(url, protocols, {headers})` that plays a
// recording of the real app server (tests/captures/*.jsonl) to the client. Each command is
// answered with its recorded answer (request id patched; a bare `{type}_response` success for
// one the recording lacks); the frames the server sent after each of the client's turn-driving
// commands (a `create_message` input, an `approval_response` input, an
// `external_tool_call_response`) follow the same command from the client, on every socket
// subscribed to the runtime (the primary and the session's standby), one frame per timer tick.
// The client message id of the recorded input becomes the client's own in every frame (the
// server maps runs to them: `client_message_ids_by_run_id`).
//
// `play(capture)` chooses the recording for the next session; `play(capture, {abort: true})`
// plays its turn only up to the first reasoning delta and then waits, like a slow model, for the
// client's `abort_message`, answered `{aborted: true}` and followed by the run's `turn_finished`
// with `stop_reason: "cancelled"`, as the app server ends an aborted turn.

/** The key of a command that makes the server go on with a turn, or null. */
function turnKey(command) {
  if (command.type === "input") return `input:${command.payload?.kind}`;
  return command.type === "external_tool_call_response" ? command.type : null;
}

/** The client message id of a `create_message` input, if it has one. */
const clientMessageId = (command) => command.payload?.messages?.find((m) => m.client_message_id)?.client_message_id;

/** Answers and turn segments of a recording (`{dir, frame}` lines). */
function parseRecording(capture) {
  const answers = new Map(); // command type → recorded answer
  const segments = new Map(); // turn key → frames the server sent after that command
  let recordedMessageId;
  let segment = null;
  for (const { dir, frame } of capture) {
    if (dir === "send") {
      if (turnKey(frame) === "input:create_message") recordedMessageId = clientMessageId(frame);
      const answer = frame.request_id && capture.find((l) => l.dir === "recv" && l.frame.request_id === frame.request_id);
      if (answer) answers.set(frame.type === "input" ? "input_accepted" : frame.type, answer.frame);
      const key = turnKey(frame);
      segment = key === null ? null : [];
      if (key !== null) segments.set(key, segment);
    } else if (dir === "recv" && segment !== null && frame.type !== "input_accepted") {
      segment.push(frame);
      if (frame.type === "turn_finished") segment = null;
    }
  }
  return { answers, segments, recordedMessageId, runtime: answers.get("runtime_start").runtime };
}

export function createReplayServer() {
  let recording = null;
  let abort = false;
  let messageId; // the client's id for the recorded input's
  const subscribed = new Set();

  const server = {
    /** Every command the client wrote, parsed, in order. */
    written: [],
    /** The `{headers}` each socket was constructed with. */
    headers: [],
    /** Plays `capture` to the sessions made from now on; returns its agent id. */
    play(capture, options = {}) {
      recording = parseRecording(capture);
      abort = options.abort === true;
      server.written.length = 0;
      return recording.runtime.agent_id;
    },
    WebSocket: null,
  };

  const answer = (type, requestId) => ({
    ...(recording.answers.get(type) ?? { type: `${type}_response`, success: true }),
    request_id: requestId,
  });

  /** The frames that follow the client's command of turn key `key`. */
  function turnFrames(key) {
    const frames = recording.segments.get(key) ?? [];
    if (!abort) return frames;
    const firstReasoning = frames.findIndex((f) => f.delta?.message_type === "reasoning_message");
    return frames.slice(0, firstReasoning + 1);
  }

  /** The `turn_finished` of the aborted turn's run. */
  function cancelled() {
    const frames = recording.segments.get("input:create_message");
    const last = frames[frames.length - 1];
    const runId = frames.find((f) => f.delta?.run_id)?.delta.run_id;
    return { ...last, type: "turn_finished", stop_reason: "cancelled", run_id: runId, event_seq: last.event_seq + 1, idempotency_key: `turn_finished:${last.event_seq + 1}:aborted` };
  }

  class ReplaySocket {
    constructor(url, protocols, options) {
      server.headers.push(options?.headers ?? null);
      this.url = url;
      this.readyState = 0;
      this.listeners = new Map();
      this.outbox = [];
      this.draining = false;
      setTimeout(() => {
        this.readyState = 1;
        this.emit("open", {});
      }, 0);
    }
    addEventListener(name, listener) {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
    }
    removeEventListener(name, listener) {
      this.listeners.set(name, (this.listeners.get(name) ?? []).filter((l) => l !== listener));
    }
    emit(name, event) {
      for (const listener of this.listeners.get(name) ?? []) listener(event);
    }
    /** Queues frames to this socket, delivered one per timer tick. */
    push(frames) {
      const { recordedMessageId } = recording;
      const text = (frame) => JSON.stringify(frame);
      const renamed = (frame) => text(frame).replaceAll(recordedMessageId, messageId);
      this.outbox.push(...frames.map(recordedMessageId && messageId ? renamed : text));
      if (this.draining) return;
      this.draining = true;
      const next = () => {
        const data = this.outbox.shift();
        if (data === undefined || this.readyState !== 1) {
          this.draining = false;
          return;
        }
        this.emit("message", { data });
        setTimeout(next, 0);
      };
      setTimeout(next, 0);
    }
    /** `own` frames to this socket, then `broadcast` to every socket subscribed to the runtime. */
    reply(own, broadcast = []) {
      this.push(own);
      for (const socket of subscribed) socket.push(broadcast);
      if (!subscribed.has(this)) this.push(broadcast);
    }
    send(text) {
      const command = JSON.parse(text);
      server.written.push(command);
      const { type, request_id: requestId } = command;
      if (type === "runtime_start") subscribed.add(this);
      const key = turnKey(command);
      if (key === "input:create_message") messageId = clientMessageId(command);
      if (key !== null) {
        this.reply(key === "input:create_message" ? [answer("input_accepted", requestId)] : [], turnFrames(key));
      } else if (type === "abort_message") {
        this.reply([{ type: "abort_message_response", request_id: requestId, aborted: true, success: true }], [cancelled()]);
      } else {
        this.reply([answer(type, requestId)]);
      }
    }
    close() {
      if (this.readyState === 3) return;
      this.readyState = 3;
      subscribed.delete(this);
      setTimeout(() => this.emit("close", { code: 1000, reason: "" }), 0);
    }
  }
  server.WebSocket = ReplaySocket;
  return server;
}
