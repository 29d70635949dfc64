#!/usr/bin/env node
// A/B of the whole-turn benchmark (bench/turn.mjs) in one process (not a test: it prints
// figures). This machine kind drifts by ±10 % within an hour, more than most single changes
// gain, so two packages measured in separate runs cannot be told apart; here the installed
// package ("this") and a baseline package (another install, given by its directory) replay the
// same recorded turn alternately, each iteration in both orders (the second of a pair ran about
// 0.06 × faster with two sockets when both were the same package). Prints, per package, µs per
// received frame and the ratio to `JSON.parse` of the same frames, with and without the standby
// socket, and this package's time over the baseline's.
//
//   node bench/ab.mjs <capture.jsonl> <baseline dir with node_modules/letta-agent-wasm>
//   bench/run ab <baseline.tgz>
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { LettaAgentClient as ThisClient } from "letta-agent-wasm/client";
import { median, parseOnce, replayTurns } from "./replay-turn.mjs";

const [capturePath, baselineDir] = process.argv.slice(2);
if (!capturePath || !baselineDir) {
  console.error("usage: node bench/ab.mjs <capture.jsonl> <baseline dir>");
  process.exit(2);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);

const baselineEntry = join(baselineDir, "node_modules", "letta-agent-wasm", "node", "client.js");
const { LettaAgentClient: BaselineClient } = await import(pathToFileURL(baselineEntry).href);
const { turnOnce } = replayTurns(capturePath);

const packages = [
  ["this", ThisClient],
  ["baseline", BaselineClient],
];
const modes = [
  ["two sockets", true],
  ["one socket", false],
];

const { frames } = await turnOnce(ThisClient, false);
console.log(
  `whole-turn A/B (public API, one process, alternating): node ${process.version}; ` +
    `${frames.length} received frames, ${ITERATIONS} iterations per run, median of ${RUNS} runs`,
);
for (let i = 0; i < 20; i++) {
  for (const [, Client] of packages) await turnOnce(Client, i % 2 === 0);
}
const perFrame = new Map(); // "package/mode" → µs per frame of each run
const parse = [];
for (let run = 0; run < RUNS; run++) {
  const totals = new Map();
  let parseTotal = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    for (const [mode, reconnect] of modes) {
      const order = i % 2 === 0 ? packages : [...packages].reverse();
      for (const [name, Client] of order) {
        const key = `${name}/${mode}`;
        totals.set(key, (totals.get(key) ?? 0) + (await turnOnce(Client, reconnect)).elapsed);
      }
    }
    parseTotal += parseOnce(frames).elapsed;
  }
  for (const [key, total] of totals) {
    perFrame.set(key, [...(perFrame.get(key) ?? []), (total * 1000) / (ITERATIONS * frames.length)]);
  }
  parse.push((parseTotal * 1000) / (ITERATIONS * frames.length));
}
const parseUs = median(parse);
console.log(`JSON.parse of the same frames: ${parseUs.toFixed(3)} µs/frame`);
for (const [mode] of modes) {
  const [ours, base] = packages.map(([name]) => median(perFrame.get(`${name}/${mode}`)));
  console.log(
    `${mode.padEnd(11)}  this ${ours.toFixed(3)} µs/frame (${(ours / parseUs).toFixed(2)} × JSON.parse)  ` +
      `baseline ${base.toFixed(3)} µs/frame (${(base / parseUs).toFixed(2)} ×)  this / baseline ${(ours / base).toFixed(3)}`,
  );
}
