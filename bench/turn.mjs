#!/usr/bin/env node
// Whole-turn benchmark through the public API (not a test: it prints figures).
//
// A session on an injected WebSocket (a fake class) that replays the recorded turn
// (tests/captures/real-app-server-turn.jsonl): every command is answered with its recorded
// response (request id patched; a bare `{type}_response` success for one the recording lacks),
// the turn's frames are streamed after the user `input`, the rest after the approval, which
// `canUseTool` answers. Each iteration includes the set-up: client, session, `ready()`,
// `send()`, `stream()` drained, close. Side by side in the same process: `JSON.parse` of the
// same received frames. Prints µs per received frame (median of the runs) and the ratio.
//
//   node bench/turn.mjs [capture.jsonl]
import { readFileSync } from "node:fs";
import { LettaAgentClient } from "letta-agent-wasm/client";

const capturePath = process.argv[2] ?? new URL("../../tests/captures/real-app-server-turn.jsonl", import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);

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
 * A recorded answer as a function of the request id: the text around the id is made once, so
 * that the replay costs the measured client next to nothing (a parse and a stringify of the
 * 1 KB start answer per command were 3 % of a turn).
 */
function answerTemplate(frame) {
  const [head, tail] = JSON.stringify({ ...frame, request_id: "\u0000" }).split('"\\u0000"');
  return (requestId) => head + JSON.stringify(requestId) + tail;
}
const answers = { input: answerTemplate(inputAccepted) };
for (const [type, frame] of responses) answers[type] = answerTemplate(frame);
const bareAnswer = (type) => (answers[type] = answerTemplate({ type: `${type}_response`, success: true }));

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
      this.#deliver(kind === "create_message" ? [answers.input(requestId)] : [], segments[kind] ?? []);
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
 * One whole turn, set-up included. `reconnect`: the session's default second socket on the
 * runtime, which receives every broadcast frame too (`false`: one socket, as the reference).
 */
async function turnOnce(reconnect = true) {
  received.length = 0;
  subscribed = new Set();
  bothSubscribed = new Promise((resolve) => (onBothSubscribed = resolve));
  const started = performance.now();
  const client = new LettaAgentClient({ backend: "remote", url: "ws://replay.invalid/ws", authToken: "replay", WebSocket: ReplaySocket });
  const session = client.createSession(agentId, { reconnect, canUseTool: () => ({ behavior: "allow" }) });
  await session.ready();
  // The standby subscribes right after the start; wait for it so that it sees the whole turn.
  if (reconnect) await bothSubscribed;
  await session.send("Please run `echo hello && touch probe.txt` and tell me what it printed.");
  let messages = 0;
  let result = null;
  for await (const message of session.stream()) {
    messages += 1;
    if (message.type === "result") result = message;
  }
  session.close();
  await client.close();
  const elapsed = performance.now() - started;
  if (result?.success !== true) throw new Error(`the replayed turn did not succeed: ${JSON.stringify(result)}`);
  return { elapsed, messages, frames: [...received] };
}

function parseOnce(frames) {
  const started = performance.now();
  let keys = 0;
  for (const text of frames) keys += Object.keys(JSON.parse(text)).length;
  return { elapsed: performance.now() - started, keys };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sample = await turnOnce(false);
const frames = sample.frames;
const bytes = frames.reduce((sum, text) => sum + text.length, 0);
console.log(
  `whole-turn benchmark (public API, injected WebSocket, set-up included): node ${process.version}; ` +
    `${frames.length} received frames (${bytes.toLocaleString("en-US")} bytes), ${ITERATIONS} iterations per run, median of ${RUNS} runs`,
);
for (let i = 0; i < 30; i++) {
  await turnOnce(i % 2 === 0);
  parseOnce(frames);
}
const ours = [];
const single = [];
const parse = [];
for (let run = 0; run < RUNS; run++) {
  let oursTotal = 0;
  let singleTotal = 0;
  let parseTotal = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    oursTotal += (await turnOnce(true)).elapsed;
    singleTotal += (await turnOnce(false)).elapsed;
    parseTotal += parseOnce(frames).elapsed;
  }
  ours.push((oursTotal * 1000) / (ITERATIONS * frames.length));
  single.push((singleTotal * 1000) / (ITERATIONS * frames.length));
  parse.push((parseTotal * 1000) / (ITERATIONS * frames.length));
}
const oursUs = median(ours);
const singleUs = median(single);
const parseUs = median(parse);
console.log(`whole turn, two sockets (the default; ${sample.messages} SDKMessages): ${oursUs.toFixed(3)} µs/received frame`);
console.log(`whole turn, one socket (reconnect: false):          ${singleUs.toFixed(3)} µs/received frame`);
console.log(`JSON.parse of the same frames:                      ${parseUs.toFixed(3)} µs/frame`);
console.log(`ratio turn / JSON.parse: ${(oursUs / parseUs).toFixed(2)} with the second socket, ${(singleUs / parseUs).toFixed(2)} without (target ≤ 1.50)`);
