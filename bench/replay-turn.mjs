// The replayed app server of the whole-turn benchmarks (bench/turn.mjs, bench/ab.mjs): a
// WebSocket class that plays the recorded turn (tests/captures/real-app-server-turn.jsonl) to a
// session through the public API. Every command is answered with its recorded response (request
// id patched; a bare `{type}_response` success for one the recording lacks), the turn's frames
// are streamed after the user `input`, the rest after the approval, which `canUseTool` answers.
// A session may run the turn several times: each later turn is the recording with its own ids.
import { readFileSync } from "node:fs";

/**
 * `turnOnce(LettaAgentClient, reconnect)` for the recording at `capturePath`; `history`: the
 * messages `listMessages()` answers with (the recording's answer otherwise). For a long-lived
 * session of one's own: `ReplaySocket`, `agentId`, and `nextTurn()`, which makes the next
 * `input` play the turn with fresh ids and returns the array the received frames go into.
 */
export function replayTurns(capturePath, { history } = {}) {
  const lines = readFileSync(capturePath, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const responses = new Map(); // command type → recorded response (frame object)
  const segments = { create_message: [], approval_response: [] }; // frames (strings) after each input
  let inputAccepted = null;
  let segment = null;
  for (const { dir, frame } of lines) {
    if (dir === "send") {
      segment = frame.type === "input" ? segments[frame.payload?.kind] ?? null : null;
      const answer = frame.request_id && lines.find((l) => l.dir === "recv" && l.frame.request_id === frame.request_id);
      if (answer && frame.type === "input") inputAccepted = answer.frame;
      else if (answer) responses.set(frame.type, answer.frame);
    } else if (dir === "recv" && segment !== null && frame.type !== "input_accepted") {
      segment.push(JSON.stringify(frame));
      if (frame.type === "turn_finished") segment = null;
    }
  }
  const agentId = responses.get("runtime_start").runtime.agent_id;

  /**
   * The turn's frames for the session's turn number `turn` (0: as recorded). A later turn is
   * the same turn with its own run, message and tool-call ids, event numbers and idempotency
   * keys, as the server would send it: the session drops a repeated event, ignores frames of a
   * run that finished, and the standby's copies are told apart by content.
   */
  const turnSegments = [segments];
  const recordedRuns = new Set(
    Object.values(segments).flatMap((texts) => texts.flatMap((text) => [...text.matchAll(/"run_id":"([^"]+)"/g)].map((m) => m[1]))),
  );
  function segmentsOf(turn) {
    if (turnSegments[turn] === undefined) {
      turnSegments[turn] = rewriteIds(turn);
      // A run id left as recorded would make the later turn's frames those of a finished run,
      // which the session ignores: the turn would never end.
      const kept = Object.values(turnSegments[turn]).flat().find((text) => [...recordedRuns].some((run) => text.includes(`"${run}"`)));
      if (kept) throw new Error(`turn ${turn} still carries a recorded run id: ${kept.slice(0, 200)}`);
    }
    return turnSegments[turn];
  }
  function rewriteIds(turn) {
    return Object.fromEntries(
      Object.entries(segments).map(([kind, texts]) => [
        kind,
        texts.map((text) =>
          text
            .replace(/(local-run-|ui-msg-|letta-msg-|call_fake_|batch-direct-|lifecycle-|synthetic-tool-return-)/g, `$1t${turn}-`)
            .replace(/"event_seq":(\d+)/g, (_, seq) => `"event_seq":${Number(seq) + turn * 1000}`)
            .replace(/"idempotency_key":"([^"]*)"/g, `"idempotency_key":"$1-t${turn}"`),
        ),
      ]),
    );
  }
  /** The session's turn number (which ids its frames carry). */
  let turnIndex = 0;

  /**
   * A recorded answer as a function of the request id: the text around the id is made once, so
   * that the replay costs the measured client next to nothing (a parse and a stringify of the
   * 1 KB start answer per command were 3 % of a turn).
   */
  function answerTemplate(frame) {
    const [head, tail] = JSON.stringify({ ...frame, request_id: "\u0000" }).split('"\\u0000"');
    // `null` for a command without one (the reference SDK's `input`).
    return (requestId) => head + JSON.stringify(requestId ?? null) + tail;
  }
  const answers = { input: answerTemplate(inputAccepted) };
  for (const [type, frame] of responses) answers[type] = answerTemplate(frame);
  const bareAnswer = (type) => (answers[type] = answerTemplate({ type: `${type}_response`, success: true }));
  if (history) {
    answers.conversation_messages_list = answerTemplate({ type: "conversation_messages_list_response", success: true, messages: history, has_more: false });
  }

  /** A command's type, request id and input kind: read from its head (the client writes `type` and `request_id` first). */
  function readCommand(text) {
    const head = /^\{"type":"([a-z_]+)"(?:,"request_id":"([^"]*)")?/.exec(text);
    const kind = /"kind":"([a-z_]+)"/.exec(text)?.[1];
    if (head) return { type: head[1], requestId: head[2], kind };
    const command = JSON.parse(text);
    return { type: command.type, requestId: command.request_id, kind: command.payload?.kind };
  }

  /** Every received frame of one turn, as the socket delivers them (for the JSON.parse side). */
  const received = [];

  /**
   * The sockets of this iteration whose `runtime_start` was answered: the app server broadcasts
   * to each socket of a runtime. Each iteration stands for a session on its own conversation, so
   * the sockets of earlier iterations, which a closed session keeps open for up to 3 s while the
   * server may still pump its queue through them (`CLOSE_DRAIN_MS`), hear nothing more: with one
   * conversation for all, 200 back-to-back sessions would each pay for the dozens still draining.
   */
  let subscribed = new Set();
  /** Resolves once two sockets of this iteration are subscribed (the primary and the standby). */
  let bothSubscribed = null;
  let onBothSubscribed = () => {};

  /** A WebSocket class that plays the app server of the recording. */
  class ReplaySocket {
    constructor() {
      this.readyState = 0;
      this.listeners = new Map();
      queueMicrotask(() => {
        this.readyState = 1;
        this.#emit("open", {});
      });
    }
    addEventListener(name, listener) {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
    }
    removeEventListener(name, listener) {
      this.listeners.set(name, (this.listeners.get(name) ?? []).filter((l) => l !== listener));
    }
    #emit(name, event) {
      for (const listener of this.listeners.get(name) ?? []) listener(event);
    }
    /** `texts` to this socket (counted as received frames), and `broadcast` to it and every other subscribed one. */
    #deliver(texts, broadcast = []) {
      queueMicrotask(() => {
        for (const data of [...texts, ...broadcast]) {
          received.push(data);
          this.#emit("message", { data });
        }
        for (const other of subscribed) {
          if (other === this) continue;
          for (const data of broadcast) other.#emit("message", { data });
        }
      });
    }
    send(text) {
      const { type, requestId, kind } = readCommand(text);
      if (type === "runtime_start") subscribed.add(this);
      if (type === "input") {
        this.#deliver(kind === "create_message" ? [answers.input(requestId)] : [], segmentsOf(turnIndex)[kind] ?? []);
        return;
      }
      this.#deliver([(answers[type] ?? bareAnswer(type))(requestId)]);
      // After the answer is delivered (the microtask queued first runs first).
      if (type === "runtime_start" && subscribed.size === 2) queueMicrotask(onBothSubscribed);
    }
    close() {
      this.readyState = 3;
      subscribed.delete(this);
    }
  }

  /**
   * One whole turn, set-up included (or `turns` of them on one session). `reconnect`: the
   * session's default second socket on the runtime, which receives every broadcast frame too
   * (`false`: one socket, as the reference). `reference`: `LettaAgentClient` is the reference
   * SDK's (one socket, no `reconnect` option; `initialize()` for `ready()`, no `client.close()`).
   */
  async function turnOnce(LettaAgentClient, reconnect = true, turns = 1, reference = false) {
    received.length = 0;
    subscribed = new Set();
    bothSubscribed = new Promise((resolve) => (onBothSubscribed = resolve));
    const started = performance.now();
    const client = new LettaAgentClient({ backend: "remote", url: "ws://replay.invalid/ws", authToken: "replay", WebSocket: ReplaySocket });
    const allow = () => ({ behavior: "allow" });
    const session = client.createSession(agentId, reference ? { canUseTool: allow } : { reconnect, canUseTool: allow });
    await (reference ? session.initialize() : session.ready());
    // The standby subscribes right after the start; wait for it so that it sees the whole turn.
    if (reconnect) await bothSubscribed;
    let messages = 0;
    for (turnIndex = 0; turnIndex < turns; turnIndex++) {
      // Made here, not in the socket's `send` (whose errors the client takes for a failed write).
      segmentsOf(turnIndex);
      await session.send("Please run `echo hello && touch probe.txt` and tell me what it printed.");
      let result = null;
      for await (const message of session.stream()) {
        messages += 1;
        if (message.type === "result") result = message;
      }
      if (result?.success !== true) throw new Error(`the replayed turn did not succeed: ${JSON.stringify(result)}`);
    }
    session.close();
    if (!reference) await client.close();
    const elapsed = performance.now() - started;
    return { elapsed, messages, frames: [...received] };
  }

  /** The next turn of a long-lived session (see above). */
  function nextTurn() {
    turnIndex += 1;
    segmentsOf(turnIndex);
    received.length = 0;
    return received;
  }

  return { turnOnce, ReplaySocket, agentId, nextTurn };
}

/** `JSON.parse` of every frame (the reference a plain-JS client pays before any work). */
export function parseOnce(frames) {
  const started = performance.now();
  let keys = 0;
  for (const text of frames) keys += Object.keys(JSON.parse(text)).length;
  return { elapsed: performance.now() - started, keys };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
