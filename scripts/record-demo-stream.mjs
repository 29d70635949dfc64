#!/usr/bin/env node
// Records the demo's stream from the REAL Letta Code app server through this package:
// two turns (a shell command approved by canUseTool, then a plain answer), every SDKMessage
// `stream()` yielded, and the history page `listMessages()` returned afterwards. Writes
// www/recorded/session.json, which the demo page replays without any server.
//
//   scripts/build-package
//   mkdir -p target/record && (cd target/record && echo '{"private":true}' > package.json &&
//     npm install --no-save ../letta-agent-wasm-*.tgz ws@8)
//   node scripts/record-demo-stream.mjs target/record
// It starts the real app server (scripts/app-server.mjs, offline model) itself and stops it afterwards.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startAppServer } from "./app-server.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = resolve(process.argv[2] ?? join(repo, "target", "record"));
const require = createRequire(join(scratch, "package.json"));
const { LettaAgentClient } = await import(pathToFileURL(require.resolve("letta-agent-wasm/client")).href);
const { default: WebSocket } = await import(pathToFileURL(require.resolve("ws")).href);

// Outside the repository: the server describes the working directory (and its git state) to the model.
const peerDir = join(tmpdir(), "letta-agent-wasm-record");
const server = await startAppServer({ stateDir: peerDir, mode: "offline", appServerDir: join(repo, "target", "app-server"), log: console.log });
try {
  const [model] = server.models;
  const token = server.token;
  const client = new LettaAgentClient({ backend: "remote", url: server.url, authToken: token, WebSocket });
  const agentId = await client.createAgent({ model, memfs: false, name: "demo-recording" });
  // A neutral working directory: the server describes it to the model in the history.
  const cwd = join(peerDir, "work");
  mkdirSync(cwd, { recursive: true });
  const session = client.createSession(agentId, { cwd, canUseTool: async () => ({ behavior: "allow" }) });
  const messages = [];
  for (const prompt of ["Please run `echo hello from the shell && touch demo.txt` and tell me what it printed.", "Thanks! no tools, just say goodbye."]) {
    await session.send(prompt);
    for await (const message of session.stream()) messages.push(message);
  }
  const history = await session.listMessages({ limit: 100, order: "desc" });
  session.close();
  await client.close();
  const out = join(repo, "www", "recorded", "session.json");
  mkdirSync(dirname(out), { recursive: true });
  const recording = {
    recordedWith: "letta-agent-wasm against @letta-ai/letta-code 0.32.18 (local backend, scripted offline model)",
    recordedAt: new Date().toISOString(),
    messages,
    history,
    historyOrder: "desc",
  };
  // Local paths of the recording machine are not part of the demo.
  const text = JSON.stringify(recording, null, 1).replaceAll(peerDir, "$PEER_DIR");
  writeFileSync(out, text + "\n");
  console.log(`recorded ${messages.length} messages and ${history.messages.length} history messages → ${out}`);
} finally {
  await server.stop();
}
