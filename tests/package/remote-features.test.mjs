// More of the session API against the REAL app server: SDK-hosted tools (the model calls a tool
// that runs in this process), device status (get, subscribe, change), prompt(), bootstrapState(),
// recoverPendingApprovals() and disposal.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient, createTranscriptAccumulator } from "letta-agent-wasm/client";
import { startPeer } from "./support/real-peer.mjs";

let peer;
let client;
let agentId;

before(async () => {
  peer = await startPeer();
  client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  agentId = await client.createAgent({ model: peer.model, memfs: false });
});

after(async () => {
  await client?.close();
  await peer?.stop();
});

test("an SDK-hosted tool runs in the caller when the model calls it", async () => {
  const calls = [];
  const session = client.createSession(agentId, {
    // No built-in tools: the scripted model then picks our tool, named like a shell.
    toolset: { base: "none" },
    tools: [
      {
        name: "shell",
        label: "Shell (SDK-hosted)",
        description: "Runs a command in the SDK process",
        parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
        execute: async (toolCallId, args) => {
          calls.push({ toolCallId, args });
          return { content: [{ type: "text", text: `ran ${args.command} in the SDK` }] };
        },
      },
    ],
  });
  try {
    await session.send("Please run `echo sdk-hosted`");
    const messages = [];
    for await (const message of session.stream()) messages.push(message);
    assert.equal(calls.length, 1, JSON.stringify(messages.filter((m) => m.type === "tool_call")));
    assert.equal(calls[0].args.command, "echo sdk-hosted");
    const result = messages.filter((m) => m.type === "tool_result").at(-1);
    assert.equal(result.toolCallId, calls[0].toolCallId);
    assert.match(result.content, /ran echo sdk-hosted in the SDK/);
    assert.equal(messages.at(-1).type, "result");
    assert.equal(messages.at(-1).success, true);
  } finally {
    session.close();
  }
});

test("device status: getDeviceStatus, onDeviceStatus and changeDeviceState", async () => {
  const session = client.createSession(agentId);
  try {
    const status = await session.getDeviceStatus({ timeoutMs: 5000 });
    assert.equal(typeof status.isOnline, "boolean");
    assert.equal(status.permissionMode, "standard");
    const seen = [];
    const unsubscribe = session.onDeviceStatus((s) => seen.push(s));
    await session.changeDeviceState({ permissionMode: "acceptEdits" });
    const deadline = Date.now() + 5000;
    while (!seen.some((s) => s.permissionMode === "acceptEdits") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    unsubscribe();
    assert.ok(seen.some((s) => s.permissionMode === "acceptEdits"), JSON.stringify(seen.map((s) => s.permissionMode)));
    assert.equal((await session.getDeviceStatus()).permissionMode, "acceptEdits");
    assert.deepEqual(await session.recoverPendingApprovals(), { recovered: true, unsupported: false });
    await assert.rejects(session.changeDeviceState({}), (e) => e.message === "Invalid device state update. Expected cwd or permissionMode.");
    assert.throws(() => session.onDeviceStatus("nope"), (e) => e.code === "invalid_argument");
  } finally {
    session.close();
  }
});

test("prompt() returns one result; bootstrapState() rebuilds the transcript", async () => {
  const result = await client.prompt("no tools, hello there", agentId);
  assert.equal(result.type, "result");
  assert.equal(result.success, true);
  assert.match(result.result, /hello there/);

  const session = client.resumeSession(result.conversationId);
  const state = await session.bootstrapState({ limit: 20 });
  await session[Symbol.asyncDispose]();
  await assert.rejects(session.ready(), (e) => e.code === "closed", "disposed");
  assert.equal(state.conversationId, result.conversationId);
  assert.equal(state.agentId, agentId);
  const rows = createTranscriptAccumulator().rebase(state);
  assert.deepEqual(rows.filter((r) => r.kind === "assistant").map((r) => r.text), [result.result]);
});

test("a closed session refuses work with typed errors; close() and dispose are idempotent", async () => {
  const session = client.createSession(agentId);
  await session.ready();
  session.close();
  session.close();
  await assert.rejects(session.send("x"), (e) => e.code === "closed" && e.message === "Session is closed");
  await assert.rejects(session.listMessages(), (e) => e.code === "closed");
  const other = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  await other.close();
  await other.close();
  assert.throws(() => other.createSession(agentId), (e) => e.message === "LettaAgentClient is closed");
});

test("query() asks for an agent-free conversation; an offline server refuses it with a typed error", async () => {
  assert.throws(() => client.query({ prompt: "hi", options: { system: "s" } }), (e) => e.message === "query() requires a non-empty model.");
  assert.throws(() => client.query({ prompt: "hi", options: { model: peer.model } }), (e) => e.message === "query() requires a system prompt.");
  const query = client.query({ prompt: "hello", options: { model: peer.model, system: "Be brief." } });
  assert.equal(query.agentId, null);
  // Agent-free conversations are created through Letta Cloud, unreachable here.
  await assert.rejects(
    (async () => {
      for await (const message of query) assert.fail(`unexpected ${message.type}`);
    })(),
    (e) => e instanceof Error && e.code === "request_failed",
  );
});

test("session getters, updateToolset, and use after close", async () => {
  const session = client.createSession(agentId);
  assert.equal(session.conversationId, null, "not started yet");
  await session.ready();
  assert.match(session.conversationId, /conv-/);
  assert.equal(session.sessionId, `${agentId}:${session.conversationId}`);
  const updated = await session.updateToolset("default");
  assert.equal(updated.success, true);
  session.close();
  assert.throws(() => session.onDeviceStatus(() => {}), (e) => e.code === "closed");
  await assert.rejects(session.abort(), (e) => e.code === "closed");
});
