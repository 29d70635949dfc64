#!/usr/bin/env node
// Frame → row through the public API, on a long transcript (issue 38; not a test: it prints
// figures). One session on the replayed app server (bench/replay-turn.mjs: the recorded real
// turn, with fresh ids each time) whose transcript already holds BENCH_ROWS rows (a history page
// of that many messages). Per turn, from `send()` until the rows hold the turn:
//   chat     createChat({session, throttle: 0}): the session feeds its own transcript in Rust and
//            only row patches cross (one snapshot per batch of messages);
//   stream   `stream()` + the accumulator's `apply` per message, as an app without the chat does;
//   ref      (with LETTA_REF_CLIENT) the reference SDK's `stream()` + its accumulator's `apply`;
// and `JSON.parse` of the same received frames, side by side, alternating. Prints µs per
// received frame (median of the runs) and the ratios.
//
//   node bench/chat.mjs [capture.jsonl]          bench/run chat
import { pathToFileURL } from "node:url";
import { LettaAgentClient, createChat, createTranscriptAccumulator } from "letta-agent-wasm/client";
import { median, parseOnce, replayTurns } from "./replay-turn.mjs";

const capturePath = process.argv[2] ?? new URL("../../tests/captures/real-app-server-turn.jsonl", import.meta.url);
const ROWS = Number(process.env.BENCH_ROWS ?? 6_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TURNS = Number(process.env.BENCH_ITERATIONS ?? 40);

/** `count` history messages, alternating user and assistant, newest first (as `listMessages` gives them). */
function history(count) {
  const messages = [];
  for (let i = 0; i < count; i++) {
    const user = i % 2 === 0;
    messages.push({
      id: `message-${i}`,
      message_type: user ? "user_message" : "assistant_message",
      otid: `otid-${i}`,
      date: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      content: user ? `question ${i}` : `an answer of a few words, number ${i}`,
    });
  }
  return messages.reverse();
}

const page = history(ROWS);
const replay = replayTurns(capturePath, { history: page });
const { ReplaySocket, agentId } = replay;
const allow = () => ({ behavior: "allow" });
const TEXT = "Please run `echo hello && touch probe.txt` and tell me what it printed.";

/** A chat on a session of the replay, its history loaded: `turn()` resolves once the rows hold one more turn. */
async function chatPath() {
  const client = new LettaAgentClient({ backend: "remote", url: "ws://replay.invalid/ws", authToken: "replay", WebSocket: ReplaySocket });
  const session = client.createSession(agentId, { reconnect: false, canUseTool: allow });
  const chat = createChat({ session, historyLimit: ROWS, throttle: 0 });
  const idle = () =>
    new Promise((resolve) => {
      const check = () => {
        const s = chat.getSnapshot();
        if (s.status === "ready" && s.lastResult !== last) {
          unsubscribe();
          last = s.lastResult;
          resolve(s.rows.length);
        }
      };
      const unsubscribe = chat.subscribe(check);
    });
  let last = null;
  await new Promise((resolve) => {
    const unsubscribe = chat.subscribe(() => chat.getSnapshot().status === "ready" && (unsubscribe(), resolve()));
  });
  if (chat.getSnapshot().rows.length < ROWS) throw new Error(`the chat holds ${chat.getSnapshot().rows.length} rows`);
  return {
    async turn() {
      const done = idle();
      await chat.send(TEXT);
      return done;
    },
  };
}

/** `stream()` + `apply` on a session of the replay (`Client`, `accumulator` from the package or the reference). */
async function streamPath(Client, createAccumulator, reference) {
  const client = new Client({ backend: "remote", url: "ws://replay.invalid/ws", authToken: "replay", WebSocket: ReplaySocket });
  const options = reference ? { canUseTool: allow } : { reconnect: false, canUseTool: allow };
  const session = client.createSession(agentId, options);
  await (reference ? session.initialize() : session.ready());
  const transcript = createAccumulator();
  let rows = transcript.rebase({ messages: page }, { order: "desc" });
  if (rows.length < ROWS) throw new Error(`the accumulator holds ${rows.length} rows`);
  return {
    async turn() {
      await session.send(TEXT);
      for await (const message of session.stream()) rows = transcript.apply(message);
      return rows.length;
    },
  };
}

const paths = [
  ["chat", await chatPath()],
  ["stream", await streamPath(LettaAgentClient, createTranscriptAccumulator, false)],
];
if (process.env.LETTA_REF_CLIENT) {
  const ref = await import(pathToFileURL(process.env.LETTA_REF_CLIENT).href);
  paths.push(["ref", await streamPath(ref.LettaAgentClient, ref.createTranscriptAccumulator, true)]);
}

// One turn per path per iteration, each on the same next recorded turn.
async function round(samples) {
  for (const [name, path] of paths) {
    const received = replay.nextTurn();
    const started = performance.now();
    await path.turn();
    const elapsed = performance.now() - started;
    const frames = [...received];
    samples[name].push((elapsed * 1000) / frames.length);
    samples.parse.push((parseOnce(frames).elapsed * 1000) / frames.length);
  }
  paths.push(paths.shift()); // rotate the order
}

for (let i = 0; i < 10; i++) await round(Object.fromEntries([...paths.map(([n]) => [n, []]), ["parse", []]]));
const perRun = Object.fromEntries([...paths.map(([n]) => [n, []]), ["parse", []]]);
for (let run = 0; run < RUNS; run++) {
  const samples = Object.fromEntries([...paths.map(([n]) => [n, []]), ["parse", []]]);
  for (let i = 0; i < TURNS; i++) await round(samples);
  for (const [name, values] of Object.entries(samples)) perRun[name].push(median(values));
}
const parse = median(perRun.parse);
console.log(`frame → row on a ${ROWS.toLocaleString("en-US")}-row transcript: node ${process.version}; ${TURNS} turns per path per run, median of ${RUNS} runs`);
console.log(`JSON.parse of the same frames: ${parse.toFixed(3)} µs/frame`);
for (const [name] of paths) {
  const us = median(perRun[name]);
  console.log(`${name.padEnd(7)} ${us.toFixed(3)} µs/frame (${(us / parse).toFixed(2)} × JSON.parse)`);
}
const chat = median(perRun.chat);
console.log(`chat / stream+apply: ${(chat / median(perRun.stream)).toFixed(3)}` + (perRun.ref ? `; chat / reference stream+apply: ${(chat / median(perRun.ref)).toFixed(3)}` : ""));
process.exit(0);
