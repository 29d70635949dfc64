#!/usr/bin/env node
// Whole-turn benchmark through the public API (not a test: it prints figures).
//
// A session on an injected WebSocket (a fake class) that replays the recorded turn
// (tests/captures/real-app-server-turn.jsonl): every command is answered with its recorded
// response (request id patched; a bare `{type}_response` success for one the recording lacks),
// the turn's frames are streamed after the user `input`, the rest after the approval, which
// `canUseTool` answers. Each iteration includes the set-up: client, session, `ready()`,
// `send()`, `stream()` drained, close. Side by side in the same process: `JSON.parse` of the
// same received frames. Prints µs per received frame (median of the runs) and the ratio; then
// the same for sessions of several turns (BENCH_SESSION_TURNS, 5), whose set-up (the standby
// socket's included) is paid once per session. With LETTA_REF_CLIENT (the reference SDK's
// `/client` entry: the ref-client.mjs of the reference build; optional), the reference's session on
// the same replay is measured in the same rounds, and the ratios reference / ours printed.
//
//   node bench/turn.mjs [capture.jsonl]
import { pathToFileURL } from "node:url";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { median, parseOnce, replayTurns } from "./replay-turn.mjs";

const reference = process.env.LETTA_REF_CLIENT ? await import(pathToFileURL(process.env.LETTA_REF_CLIENT).href) : null;

const capturePath = process.argv[2] ?? new URL("../../tests/captures/real-app-server-turn.jsonl", import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const SESSION_TURNS = Number(process.env.BENCH_SESSION_TURNS ?? 5);

const { turnOnce: replay } = replayTurns(capturePath);
const turnOnce = (reconnect, turns = 1) => replay(LettaAgentClient, reconnect, turns);
const referenceTurn = (turns = 1) => replay(reference.LettaAgentClient, false, turns, true);

const sample = await turnOnce(false);
const frames = sample.frames;
const bytes = frames.reduce((sum, text) => sum + text.length, 0);
console.log(
  `whole-turn benchmark (public API, injected WebSocket, set-up included): node ${process.version}; ` +
    `${frames.length} received frames (${bytes.toLocaleString("en-US")} bytes), ${ITERATIONS} iterations per run (rounded up to whole rounds of the orders), median of ${RUNS} runs`,
);
for (let i = 0; i < 30; i++) {
  await turnOnce(i % 2 === 0);
  if (reference) await referenceTurn();
  parseOnce(frames);
}

/** Every order of `items`. */
const permutations = (items) =>
  items.length <= 1 ? [items] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));

/**
 * The orders the measured things run in, one per iteration in turn (iterations are rounded up
 * to whole rounds): each runs in each place equally often. In one fixed order, the first after
 * the others' garbage paid for part of it (bench/RESULTS.md).
 */
const ORDERS = permutations(reference ? ["two", "one", "parse", "ref"] : ["two", "one", "parse"]);

/** µs per received frame (medians of the runs) of each measured thing. */
async function measure(turns, frames, atLeast) {
  const iterations = Math.ceil(atLeast / ORDERS.length) * ORDERS.length;
  const perRun = { two: [], one: [], parse: [], ref: [] };
  for (let run = 0; run < RUNS; run++) {
    const total = { two: 0, one: 0, parse: 0, ref: 0 };
    for (let i = 0; i < iterations; i++) {
      for (const which of ORDERS[i % ORDERS.length]) {
        if (which === "parse") total.parse += parseOnce(frames).elapsed;
        else if (which === "ref") total.ref += (await referenceTurn(turns)).elapsed;
        else total[which] += (await turnOnce(which === "two", turns)).elapsed;
      }
    }
    for (const which of Object.keys(total)) perRun[which].push((total[which] * 1000) / (iterations * frames.length));
  }
  return Object.fromEntries(Object.entries(perRun).map(([which, values]) => [which, values.length ? median(values) : NaN]));
}

/** The reference's time over ours (above 1: ours is faster). */
function versusReference(us) {
  if (!reference) return;
  console.log(`  reference ${us.ref.toFixed(3)} µs/received frame; reference / ours: ${(us.ref / us.two).toFixed(2)} × with two sockets, ${(us.ref / us.one).toFixed(2)} × with one`);
}

const one = await measure(1, frames, ITERATIONS);
console.log(`whole turn, two sockets (the default; ${sample.messages} SDKMessages): ${one.two.toFixed(3)} µs/received frame`);
console.log(`whole turn, one socket (reconnect: false):          ${one.one.toFixed(3)} µs/received frame`);
console.log(`JSON.parse of the same frames:                      ${one.parse.toFixed(3)} µs/frame`);
console.log(`ratio turn / JSON.parse: ${(one.two / one.parse).toFixed(2)} with the second socket, ${(one.one / one.parse).toFixed(2)} without (target ≤ 1.50)`);
versusReference(one);

if (SESSION_TURNS > 1) {
  const session = (await turnOnce(false, SESSION_TURNS)).frames;
  const many = await measure(SESSION_TURNS, session, Math.ceil(ITERATIONS / SESSION_TURNS));
  console.log(`${SESSION_TURNS} turns per session (${session.length} received frames), set-up once per session:`);
  console.log(`  two sockets ${many.two.toFixed(3)} µs/received frame, one socket ${many.one.toFixed(3)}, JSON.parse ${many.parse.toFixed(3)}`);
  console.log(`  ratio turn / JSON.parse: ${(many.two / many.parse).toFixed(2)} with the second socket, ${(many.one / many.parse).toFixed(2)} without`);
  versusReference(many);
}
