// The installed package from a CommonJS script: `require()` of both entries (Node >= 20.19 loads
// the package's ES modules synchronously), then one session turn against the REAL app server.
const { after, before, test } = require("node:test");
const assert = require("node:assert/strict");
const WebSocket = require("ws");
const client = require("letta-agent-wasm/client");
const root = require("letta-agent-wasm");

let peer;

before(async () => {
  const { startPeer } = await import("./support/peer.mjs");
  peer = await startPeer();
});

after(async () => {
  await peer?.stop();
});

test("require: both entries expose the same API, usable without init()", () => {
  assert.equal(typeof client.LettaAgentClient, "function");
  assert.equal(root.LettaAgentClient, client.LettaAgentClient);
  assert.equal(root.createTranscriptAccumulator, client.createTranscriptAccumulator);
  const transcript = root.createTranscriptAccumulator();
  const rows = transcript.apply({ type: "assistant", content: "hi", uuid: "m-1" });
  assert.deepEqual(rows.map((row) => [row.kind, row.text]), [["assistant", "hi"]]);
  transcript.free();
});

test("a session turn against the real app server", async () => {
  const lettaClient = new client.LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  try {
    const agentId = await lettaClient.createAgent({ model: peer.model, memfs: false, name: "packaging-cjs" });
    const session = lettaClient.createSession(agentId);
    await session.send("no tools, hello from CommonJS");
    let result;
    const types = [];
    for await (const message of session.stream()) {
      types.push(message.type);
      result = message;
    }
    assert.equal(result.type, "result", types.join());
    assert.equal(result.success, true, JSON.stringify(result));
    assert.match(result.result, /hello from CommonJS/);
    assert.ok(types.includes("assistant"), types.join());
    session.close();
  } finally {
    await lettaClient.close();
  }
});
