#!/usr/bin/env node
// Session pipeline benchmark (not a test: it prints figures).
//
// Replays the frames the real app server sent during one recorded turn
// (tests/captures/real-app-server-turn.jsonl, received frames only, as the strings a socket
// delivers) through the public session API at full speed: each iteration is a fresh session,
// primed with the recorded runtime through a scripted socket, then every frame is decoded,
// normalized and coordinated in Rust and every SDKMessage is handed to JS by `stream()`.
// Side by side in the same process: plain `JSON.parse` of the same strings, the cost a plain-JS
// client pays before doing any work of its own. Prints µs per frame (median of the runs) and
// the ratio ours / JSON.parse.
//
//   node bench/session.mjs [capture.jsonl]
import { readFileSync } from "node:fs";
import { LettaAgentClient } from "letta-agent-wasm/client";

const capturePath = process.argv[2] ?? new URL("../../tests/captures/real-app-server-turn.jsonl", import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);

const lines = readFileSync(capturePath, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
const received = lines.filter((line) => line.dir === "recv").map((line) => JSON.stringify(line.frame));
const startIndex = received.findIndex((text) => text.includes('"runtime_start_response"'));
const startResponse = JSON.parse(received[startIndex]);
const frames = received.slice(startIndex + 1);

/** A socket that answers runtime_start with the recorded response, and replays on demand. */
class ReplaySocket {
  static last = null;
  constructor() {
    this.readyState = 0;
    this.listeners = new Map();
    ReplaySocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.emit("open", {});
    });
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
  send(text) {
    const frame = JSON.parse(text);
    if (frame.type === "runtime_start") {
      const response = JSON.stringify({ ...startResponse, request_id: frame.request_id });
      queueMicrotask(() => this.emit("message", { data: response }));
    }
  }
  close() {
    this.readyState = 3;
  }
}

async function primedSession() {
  const client = new LettaAgentClient({ backend: "remote", url: "ws://replay.invalid/ws", authToken: "replay", WebSocket: ReplaySocket });
  // The recorded turn asked for an approval, which the recording client allowed.
  // One socket: this measures its pipeline (bench/turn.mjs measures the standby's cost too).
  const session = client.createSession(startResponse.runtime.agent_id, { reconnect: false, canUseTool: () => ({ behavior: "allow" }) });
  await session.ready();
  await session.send("Please run `echo hello && touch probe.txt` and tell me what it printed.");
  return { client, session, socket: ReplaySocket.last };
}

/** One replay: every frame through the socket listener, then every message out of stream(). */
async function replayOnce() {
  const { client, session, socket } = await primedSession();
  const started = performance.now();
  for (const data of frames) socket.emit("message", { data });
  let messages = 0;
  for await (const message of session.stream()) {
    messages += message.type.length > 0 ? 1 : 0;
  }
  const elapsed = performance.now() - started;
  session.close();
  await client.close();
  return { elapsed, messages };
}

function parseOnce() {
  const started = performance.now();
  let keys = 0;
  for (const text of frames) keys += Object.keys(JSON.parse(text)).length;
  return { elapsed: performance.now() - started, keys };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bytes = frames.reduce((sum, text) => sum + text.length, 0);
console.log(
  `session pipeline benchmark: node ${process.version}; ${frames.length} received frames (${bytes.toLocaleString("en-US")} bytes), ` +
    `${ITERATIONS} iterations per run, median of ${RUNS} runs`,
);
for (let i = 0; i < 50; i++) {
  await replayOnce();
  parseOnce();
}
const ours = [];
const parse = [];
let messages = 0;
for (let run = 0; run < RUNS; run++) {
  let oursTotal = 0;
  let parseTotal = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const replay = await replayOnce();
    oursTotal += replay.elapsed;
    messages = replay.messages;
    parseTotal += parseOnce().elapsed;
  }
  ours.push((oursTotal * 1000) / (ITERATIONS * frames.length));
  parse.push((parseTotal * 1000) / (ITERATIONS * frames.length));
}
const oursUs = median(ours);
const parseUs = median(parse);
console.log(`pipeline (decode, normalize, coordinate, ${messages} SDKMessages to JS): ${oursUs.toFixed(3)} µs/frame`);
console.log(`JSON.parse of the same strings:                                  ${parseUs.toFixed(3)} µs/frame`);
console.log(`ratio pipeline / JSON.parse: ${(oursUs / parseUs).toFixed(2)} (target ≤ 1.00)`);
