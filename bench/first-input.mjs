#!/usr/bin/env node
// Set-up to the first input, against the REAL app server (issue 36; not a test: it prints
// figures). A session's input waits until its standby socket is subscribed, so that one
// dropped socket cannot take the turn with it; this measures what that wait adds. Each
// iteration creates a session on the same agent and calls `send()` at once, and times, from
// `createSession()`: the `input` frame written on the socket, and the turn's `result`.
// With a baseline package (another install, given by its directory) both run alternately in
// one process, in both orders, with the default two sockets and with `reconnect: false`.
//
//   node bench/first-input.mjs [baseline dir with node_modules/letta-agent-wasm]
//   bench/run first-input [BASELINE.tgz]
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import WebSocket from "ws";
import { LettaAgentClient as ThisClient } from "letta-agent-wasm/client";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 15);
const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const baselineDir = process.argv[2];
const packages = [["this", ThisClient]];
if (baselineDir) {
  const entry = join(baselineDir, "node_modules", "letta-agent-wasm", "node", "client.js");
  packages.push(["baseline", (await import(pathToFileURL(entry).href)).LettaAgentClient]);
}
const { startAppServer } = await import(pathToFileURL(join(repoRoot, "scripts", "app-server.mjs")).href);
const server = await startAppServer({
  stateDir: join(repoRoot, "target", "real-peer", "first-input"),
  mode: "offline",
  appServerDir: join(repoRoot, "target", "app-server"),
  log: () => {},
});
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A `ws` class that notes when the first `input` frame of a command is written. */
function timedSocket(marks) {
  return class extends WebSocket {
    send(data, ...rest) {
      if (marks.input === undefined && String(data).startsWith('{"type":"input"')) marks.input = performance.now();
      return super.send(data, ...rest);
    }
  };
}

/** One session: ms from createSession() to the input written and to the result. */
async function once(Client, agentId, reconnect) {
  const marks = {};
  const client = new Client({ backend: "remote", url: server.url, authToken: server.token, WebSocket: timedSocket(marks) });
  const start = performance.now();
  const session = client.createSession(agentId, reconnect ? {} : { reconnect: false });
  try {
    await session.send("no tools, hello");
    for await (const message of session.stream()) if (message.type === "result") marks.result = performance.now();
  } finally {
    session.close();
    await client.close();
  }
  return { input: marks.input - start, result: marks.result - start };
}

try {
  const setup = new ThisClient({ backend: "remote", url: server.url, authToken: server.token, WebSocket });
  const agentId = await setup.createAgent({ model: server.models[0], memfs: false });
  await setup.close();
  const samples = new Map();
  for (let i = 0; i < ITERATIONS + 2; i++) {
    const order = i % 2 === 0 ? packages : [...packages].reverse();
    for (const reconnect of [true, false]) {
      for (const [name, Client] of order) {
        const sample = await once(Client, agentId, reconnect);
        if (i < 2) continue; // warm-up
        const key = `${name}/${reconnect ? "two sockets" : "one socket"}`;
        if (!samples.has(key)) samples.set(key, { input: [], result: [] });
        samples.get(key).input.push(sample.input);
        samples.get(key).result.push(sample.result);
      }
    }
  }
  console.log(`set-up to the first input against the real app server: node ${process.version}; median of ${ITERATIONS} sessions each`);
  for (const [key, { input, result }] of samples) {
    console.log(`${key.padEnd(24)} input written after ${median(input).toFixed(1)} ms, result after ${median(result).toFixed(1)} ms`);
  }
} finally {
  await server.stop();
}
