#!/usr/bin/env node
// Records one turn against the REAL Letta Code app server (offline scripted model) in the
// format of tests/captures/*.jsonl: one `{t_ms, dir, frame}` line per frame, both directions,
// from the session's one socket (`reconnect: false`), the state directory written `$PEER_DIR`
// and the app server's install directory `$APP_SERVER_DIR`.
//
//   scripts/build-package
//   mkdir -p target/record && (cd target/record && echo '{"private":true}' > package.json &&
//     npm install --no-save ../letta-agent-wasm-*.tgz ws@8)
//   node scripts/record-capture.mjs target/record sdk-tool > tests/captures/real-app-server-sdk-tool-turn.jsonl
//
// Turns: `sdk-tool`, a shell command the model calls on the SDK-hosted tool `shell`, the
// session's only tool (its `execute` answers `ran <command> in the SDK`). It starts the app server itself and stops it.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startAppServer } from "./app-server.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = resolve(process.argv[2] ?? join(repo, "target", "record"));
const turn = process.argv[3] ?? "sdk-tool";
if (turn !== "sdk-tool") throw new Error(`unknown turn ${turn}`);
const require = createRequire(join(scratch, "package.json"));
const { LettaAgentClient } = await import(pathToFileURL(require.resolve("letta-agent-wasm/client")).href);
const { default: WebSocket } = await import(pathToFileURL(require.resolve("ws")).href);

const peerDir = join(tmpdir(), "letta-agent-wasm-capture");
const lines = [];
let started = null;
const record = (dir, frame) => {
  started ??= Date.now();
  lines.push({ t_ms: Date.now() - started, dir, frame });
};

/** The `ws` WebSocket, recording what it sends and receives. */
class RecordingWebSocket extends WebSocket {
  constructor(url, options) {
    super(url, options);
    this.on("open", () => record("note", { event: "open", url: String(url).replace(/\?.*/, "") }));
    this.on("message", (data) => record("recv", JSON.parse(String(data))));
  }
  send(text, ...rest) {
    record("send", JSON.parse(text));
    return super.send(text, ...rest);
  }
}

const appServerDir = join(repo, "target", "app-server");
const server = await startAppServer({ stateDir: peerDir, mode: "offline", appServerDir, log: (line) => console.error(line) });
try {
  const [model] = server.models;
  const setup = new LettaAgentClient({ backend: "remote", url: server.url, authToken: server.token, WebSocket });
  const agentId = await setup.createAgent({ model, memfs: false, name: "capture" });
  await setup.close();
  const cwd = join(peerDir, "work");
  mkdirSync(cwd, { recursive: true });
  const client = new LettaAgentClient({ backend: "remote", url: server.url, authToken: server.token, WebSocket: RecordingWebSocket });
  const session = client.createSession(agentId, {
    cwd,
    reconnect: false,
    // No built-in tools: the scripted model then calls ours, named like a shell.
    toolset: { base: "none" },
    tools: [
      {
        name: "shell",
        label: "Shell (SDK-hosted)",
        description: "Runs a command in the SDK process",
        parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
        execute: async (toolCallId, args) => ({ content: [{ type: "text", text: `ran ${args.command} in the SDK` }] }),
      },
    ],
  });
  await session.send("Please run `echo sdk-hosted` and tell me what it printed.");
  let result = null;
  for await (const message of session.stream()) if (message.type === "result") result = message;
  session.close();
  await client.close();
  if (result?.success !== true) throw new Error(`the turn did not succeed: ${JSON.stringify(result)}`);
  const text = lines
    .map((line) => JSON.stringify(line))
    .join("\n")
    .replaceAll(peerDir, "$PEER_DIR")
    .replaceAll(appServerDir, "$APP_SERVER_DIR");
  process.stdout.write(`${text}\n`);
} finally {
  await server.stop();
}
