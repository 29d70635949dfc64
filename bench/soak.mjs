#!/usr/bin/env node
// Soak benchmark (issue 11, item 6; not a test: it prints figures). Many turns through the
// installed package against the REAL Letta Code app server and its offline scripted model, and
// the module's WebAssembly memory along the way, which must plateau: after 10,000 turns it must
// be within 1 MB of its value after 1,000.
//
// One client for the whole run. Turns run in sessions of SOAK_TURNS_PER_SESSION turns, each on a
// new conversation of the same agent, so that the app server's context (which the scripted
// model is sent in full) does not grow without bound; within a session every turn goes through
// the same coordinator, so a per-turn leak there shows too. Every 10th turn runs a shell command
// the model asks for, approved by `canUseTool`. The scripted model streams without pauses here
// (LETTA_OFFLINE_MODEL_QUICK_MS=0, set by bench/run).
//
//   bench/run soak            (SOAK_TURNS=10000 by default; SOAK_TURNS=2000 for a quick look)
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";

const TURNS = Number(process.env.SOAK_TURNS ?? 10_000);
const PER_SESSION = Number(process.env.SOAK_TURNS_PER_SESSION ?? 1_000);
const REPORT_EVERY = Number(process.env.SOAK_REPORT_EVERY ?? 1_000);
const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");

const require = createRequire(import.meta.url);
const packageDir = require.resolve("letta-agent-wasm/package.json").replace(/package\.json$/, "");
// The package's internal runtime module (not a public entry) reports the linear memory size.
const { memoryBytes } = await import(pathToFileURL(`${packageDir}lib/runtime.js`).href);
const { startAppServer } = await import(pathToFileURL(join(repoRoot, "scripts", "app-server.mjs")).href);

const server = await startAppServer({
  stateDir: join(repoRoot, "target", "real-peer", "soak"),
  mode: "offline",
  appServerDir: join(repoRoot, "target", "app-server"),
  log: () => {},
});
const mb = (bytes) => (bytes / 1_048_576).toFixed(2);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let failures = 0;
let approvals = 0;
const memoryAt = new Map();
try {
  const client = new LettaAgentClient({ backend: "remote", url: server.url, authToken: server.token, WebSocket });
  const agentId = await client.createAgent({ model: server.models[0], memfs: false, name: "soak" });
  const canUseTool = () => ((approvals += 1), { behavior: "allow" });
  console.log(`soak: ${TURNS.toLocaleString("en-US")} turns, ${PER_SESSION} per session, node ${process.version}`);
  console.log(`${"turns".padStart(7)}  ${"wasm memory".padStart(12)}  ${"ms/turn (median)".padStart(16)}  failures`);
  let session = null;
  let window = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    if (turn % PER_SESSION === 1 || PER_SESSION === 1) {
      session?.close();
      session = client.createSession(agentId, { canUseTool });
      await session.ready();
    }
    const started = performance.now();
    const text = turn % 10 === 0 ? `Turn ${turn}: please run \`touch soak-${turn}.txt && echo soak-${turn}\`` : `Turn ${turn}: hello`;
    await session.send(text);
    let result = null;
    for await (const message of session.stream()) if (message.type === "result") result = message;
    if (result?.success !== true) failures += 1;
    window.push(performance.now() - started);
    if (turn % REPORT_EVERY === 0 || turn === TURNS) {
      await new Promise((done) => setTimeout(done, 20));
      memoryAt.set(turn, memoryBytes());
      console.log(`${String(turn).padStart(7)}  ${`${mb(memoryBytes())} MB`.padStart(12)}  ${median(window).toFixed(1).padStart(16)}  ${failures}`);
      window = [];
    }
  }
  session?.close();
  await client.close();
} finally {
  await server.stop();
}
console.log(`approvals asked: ${approvals}; failed turns: ${failures}`);
const first = memoryAt.get(Math.min(1_000, TURNS));
const last = memoryAt.get(TURNS);
if (first !== undefined && last !== undefined) {
  const growth = last - first;
  console.log(`wasm memory growth from turn ${Math.min(1_000, TURNS)} to ${TURNS}: ${(growth / 1024).toFixed(0)} KB (ceiling 1,024 KB): ${growth <= 1_048_576 ? "plateau" : "GROWS"}`);
}
