// What the reference SDK's newer session options put on the wire, against the REAL app server:
// `allowedTools` loads the bundled tools it names (client_toolset.include), and `query()` with
// `disableMemoryGuard` says so in the start of its conversation. Frames are recorded by the
// WebSocket class the client is given.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { modelRequests, startPeer } from "./support/real-peer.mjs";
import { recordingSocket, turnInputs } from "./support/recording-socket.mjs";

let peer;
let client;
const { Socket, sent } = recordingSocket();

before(async () => {
  peer = await startPeer();
  client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket: Socket });
});

after(async () => {
  await client?.close();
  await peer?.stop();
});

test("allowedTools loads the bundled tools it names, and a Bash call runs without a toolset", async () => {
  const agentId = await client.createAgent({ model: peer.model, memfs: false });
  // Glob, Grep and LS are not in this model's default toolset: only loading them shows them.
  const session = client.createSession(agentId, { allowedTools: ["Bash", "Glob", "Grep", "LS", "mcp__other__tool"], permissionMode: "unrestricted" });
  try {
    await session.send("Please run `echo allowed-tools`");
    const messages = [];
    for await (const message of session.stream()) messages.push(message);
    const input = turnInputs(sent).at(-1);
    assert.deepEqual(input.payload.client_toolset, { include: ["Bash", "Glob", "Grep", "LS"] });
    const offered = (modelRequests(peer).at(-1)?.body?.tools ?? []).map((t) => t.function?.name ?? t.name).sort();
    assert.deepEqual(offered, ["Bash", "Glob", "Grep", "LS"]);
    const call = messages.find((m) => m.type === "tool_call");
    assert.equal(call?.toolName, "Bash", JSON.stringify(messages.map((m) => m.type)));
    const result = messages.find((m) => m.type === "tool_result" && m.toolCallId === call.toolCallId);
    assert.match(result.content, /allowed-tools/);
    assert.equal(messages.at(-1).success, true);
  } finally {
    session.close();
  }
  // An explicit toolset wins: it is sent as given.
  const explicit = client.createSession(agentId, { allowedTools: ["Bash", "Grep"], toolset: { base: "default" } });
  try {
    await explicit.send("hello");
    for await (const message of explicit.stream()) if (message.type === "result") break;
    assert.deepEqual(turnInputs(sent).at(-1).payload.client_toolset, { base: "default" });
  } finally {
    explicit.close();
  }
});

test("query() with disableMemoryGuard turns the guard off in the start that creates its conversation", async () => {
  assert.throws(
    () => client.query({ prompt: "hi", options: { model: peer.model, system: "s", conversationId: " " } }),
    { message: "query() conversationId must be a non-empty string." },
  );
  // The reference requires model and system to resume too.
  assert.throws(() => client.query({ prompt: "hi", options: { conversationId: "conv-1", system: "s" } }), { message: "query() requires a non-empty model." });
  const run = async (options) => {
    const before = sent.length;
    const query = client.query({ prompt: "hello", options: { model: peer.model, system: "Be brief.", ...options } });
    // The offline app server cannot create agent-free conversations (it would ask Letta Cloud).
    await assert.rejects(async () => {
      for await (const message of query) assert.fail(`unexpected ${message.type}`);
    }, { code: "request_failed" });
    return sent.slice(before).find((f) => f.type === "runtime_start");
  };
  const guarded = await run({});
  assert.equal("execution_settings" in guarded, false);
  const unguarded = await run({ disableMemoryGuard: true });
  assert.deepEqual(unguarded.create_conversation, { body: { model: peer.model, system: "Be brief." } });
  assert.deepEqual(unguarded.execution_settings, { allowed_tools: [], disallowed_tools: [], disable_memory_guard: true });
  // The same settings in a start the offline server can run: it takes them and echoes them.
  const agentId = await client.createAgent({ model: peer.model, memfs: false });
  const socket = new WebSocket(peer.url, { headers: { Authorization: `Bearer ${peer.token}` } });
  await new Promise((open, fail) => socket.once("open", open).once("error", fail));
  try {
    const reply = new Promise((done) => socket.on("message", (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type === "runtime_start_response") done(frame);
    }));
    const { create_conversation: _, ...start } = unguarded;
    socket.send(JSON.stringify({ ...start, request_id: "probe-1", agent_id: agentId, create_conversation: { body: {} } }));
    const response = await reply;
    assert.equal(response.success, true, JSON.stringify(response));
    assert.deepEqual(response.execution_settings, unguarded.execution_settings);
  } finally {
    socket.close();
  }
});

test("query() disableMemoryGuard is refused by the Cloud backend from the first iteration", async () => {
  const cloud = new LettaAgentClient({ backend: "cloud", apiKey: "k", computer: "c", fetch: () => assert.fail("no request") });
  const query = cloud.query({ prompt: "hi", options: { model: "m", system: "s", disableMemoryGuard: true } });
  await assert.rejects(query.next(), { message: 'query() disableMemoryGuard is only supported with backend: "local" or "remote".' });
  await cloud.close();
});
