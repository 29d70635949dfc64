// Memory: objects that own WebAssembly memory give it back when closed or freed. Creating and
// closing 1,000 sessions (each connected to a loopback server and started) and 1,000 used
// accumulators must grow the module's linear memory by less than 1 MB.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import WebSocket, { WebSocketServer } from "ws";
import { LettaAgentClient, createTranscriptAccumulator } from "letta-agent-wasm/client";

// The package's internal runtime module (not a public entry) reports the memory size.
const require = createRequire(import.meta.url);
const packageDir = require.resolve("letta-agent-wasm/package.json").replace(/package\.json$/, "");
const { memoryBytes } = await import(pathToFileURL(`${packageDir}lib/runtime.js`).href);

const runtime = { agent_id: "agent-mem", conversation_id: "conv-mem" };
let server;
let url;

before(async () => {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  url = `ws://127.0.0.1:${server.address().port}/ws`;
  server.on("connection", (socket) => {
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === "runtime_start") {
        socket.send(JSON.stringify({ type: "runtime_start_response", request_id: frame.request_id, success: true, runtime, agent: { id: runtime.agent_id, model: "m/x" }, conversation: { id: runtime.conversation_id } }));
        socket.send(JSON.stringify({ type: "update_loop_status", runtime, loop_status: { status: "WAITING_ON_INPUT", active_run_ids: [] } }));
      }
    });
  });
});

after(() => new Promise((resolve) => server.close(resolve)));

async function openAndClose(client) {
  const session = client.createSession(runtime.agent_id, { canUseTool: () => ({ behavior: "allow" }) });
  await session.ready();
  session.close();
}

test("1,000 started-and-closed sessions grow wasm memory by less than 1 MB", async () => {
  const client = new LettaAgentClient({ backend: "remote", url, authToken: "t", WebSocket });
  for (let i = 0; i < 50; i++) await openAndClose(client); // warm-up: allocator steady state
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = memoryBytes();
  assert.ok(before > 0, "the memory size is readable");
  for (let i = 0; i < 1000; i++) await openAndClose(client);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const grown = memoryBytes() - before;
  await client.close();
  assert.ok(grown < 1024 * 1024, `grew by ${grown} bytes`);
});

test("1,000 used and freed accumulators grow wasm memory by less than 1 MB", () => {
  const use = () => {
    const acc = createTranscriptAccumulator();
    for (let i = 0; i < 20; i++) {
      acc.apply({ type: "assistant", content: `word ${i} `, uuid: "m", otid: "o", runId: "r", seqId: i + 1 });
    }
    acc.apply({ type: "tool_call", toolCallId: "t", toolName: "Bash", toolInput: { command: "ls" }, uuid: "u" });
    acc.rebase({ messages: [{ id: "h", message_type: "user_message", content: "hi" }] });
    acc.free();
  };
  for (let i = 0; i < 50; i++) use();
  const before = memoryBytes();
  for (let i = 0; i < 1000; i++) use();
  const grown = memoryBytes() - before;
  assert.ok(grown < 1024 * 1024, `grew by ${grown} bytes`);
});
