// The remote backend against the REAL Letta Code app server (tests/support/real-peer.mjs), through the
// installed package and the `ws` package. The tests share one conversation and run in order:
// approval allowed, approval denied, abort, queued turns, transcript rebase, models, resume,
// an unanswered command.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient, createTranscriptAccumulator } from "letta-agent-wasm/client";
import { lastUserText, modelRequests, startPeer } from "./support/real-peer.mjs";

let peer;
let client;
let agentId;
let session;
let decision = "allow";
const approvals = [];
const streamed = []; // every message stream() yielded, in order
const abortedKeys = new Set();
const stamp = Date.now().toString(36);

before(async () => {
  peer = await startPeer();
  client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  agentId = await client.createAgent({ model: peer.model, memfs: false, name: `wasm-test-${stamp}` });
  session = client.createSession(agentId, {
    canUseTool: async (toolName, toolInput, context) => {
      approvals.push({ toolName, toolInput, context });
      return decision === "allow" ? { behavior: "allow" } : { behavior: "deny", message: "Denied by the test" };
    },
  });
});

after(async () => {
  session?.close();
  await client?.close();
  await peer?.stop();
});

/** Collects one turn's messages (stream() ends after the result). */
async function collect(onMessage) {
  const messages = [];
  for await (const message of session.stream()) {
    messages.push(message);
    streamed.push(message);
    await onMessage?.(message, messages);
  }
  return messages;
}

const ofType = (messages, type) => messages.filter((m) => m.type === type);
const indexOf = (messages, predicate) => messages.findIndex(predicate);

test("an approved shell command: reasoning, tool call, results, text, one successful result last", async () => {
  assert.ok(agentId.startsWith("agent-"), agentId);
  const marker = `allowed-${stamp}`;
  await session.send(`Please run \`touch ${marker}.txt && echo ${marker}\``);
  const messages = await collect();
  const call = ofType(messages, "tool_call").find((m) => m.toolName === "Bash");
  assert.ok(call, "a Bash tool call");
  assert.match(call.toolInput.command, /touch/);
  assert.equal(approvals.length, 1);
  assert.equal(approvals[0].toolName, "Bash");
  assert.equal(approvals[0].context.toolCallId, call.toolCallId);
  const results = messages.filter((m) => m.type === "tool_result" && m.toolCallId === call.toolCallId);
  assert.ok(results.length >= 1, "tool_result message(s) joined by toolCallId");
  assert.match(results.at(-1).content, new RegExp(marker), "the last result carries the command's output");
  assert.equal(results.at(-1).isError, false);
  const order = [
    indexOf(messages, (m) => m.type === "reasoning"),
    indexOf(messages, (m) => m === call),
    indexOf(messages, (m) => m === results[0]),
    indexOf(messages, (m) => m.type === "assistant"),
    messages.length - 1,
  ];
  assert.ok(order.every((i) => i >= 0), `all parts present: ${order}`);
  assert.deepEqual([...order].sort((a, b) => a - b), order, `in order: ${order}`);
  assert.equal(ofType(messages, "result").length, 1);
  const result = messages.at(-1);
  assert.equal(result.type, "result");
  assert.equal(result.success, true);
  assert.match(result.result, new RegExp(marker));
});

test("a denied shell command gives an error tool result and the turn still ends", async () => {
  decision = "deny";
  await session.send(`Please run \`touch denied-${stamp}.txt\``);
  const messages = await collect();
  decision = "allow";
  const call = ofType(messages, "tool_call")[0];
  assert.ok(call);
  const denied = messages.filter((m) => m.type === "tool_result" && m.toolCallId === call.toolCallId);
  assert.ok(denied.some((m) => m.isError === true), JSON.stringify(denied));
  assert.equal(messages.at(-1).type, "result");
  assert.equal(ofType(messages, "result").length, 1);
});

test("abort() during a slow turn ends it within 2 s as interrupted", async () => {
  await session.send("[slow] Please run `echo slowly`");
  let abortedAt = 0;
  const messages = await collect(async (message) => {
    if (abortedAt === 0 && message.type === "reasoning") {
      abortedAt = performance.now();
      await session.abort();
    }
  });
  const elapsed = performance.now() - abortedAt;
  for (const m of messages) if (m.uuid) abortedKeys.add(m.uuid);
  const result = messages.at(-1);
  assert.equal(result.type, "result");
  assert.equal(result.success, false);
  assert.ok(
    ["interrupted", "cancelled"].includes(result.stopReason) || ["interrupted", "cancelled"].includes(result.errorCode),
    JSON.stringify(result),
  );
  assert.ok(elapsed < 2000, `result ${Math.round(elapsed)} ms after abort()`);
});

test("a second send() while a turn runs is queued; both complete in order; a removed third never runs", async () => {
  await session.send(`[slow] no tools, first ${stamp}`);
  let queuedSecond = null;
  let removedThird = null;
  const first = await collect(async (message) => {
    if (message.type === "reasoning" && queuedSecond === null) {
      queuedSecond = "sent";
      await session.send(`no tools, second ${stamp}`);
      await session.send(`no tools, third ${stamp}`);
    }
    if (message.type === "queue_update") {
      const texts = message.queue.map((item) => JSON.stringify(item.content));
      if (texts.some((t) => t.includes(`second ${stamp}`))) queuedSecond = "queued";
      const third = message.queue.find((item) => JSON.stringify(item.content).includes(`third ${stamp}`));
      if (third && removedThird === null) {
        removedThird = await session.removeQueuedMessage(third.id);
      }
    }
  });
  assert.equal(queuedSecond, "queued", "a queue_update showed the second message queued");
  assert.deepEqual(removedThird?.removed, true, JSON.stringify(removedThird));
  assert.equal(ofType(first, "result").length, 1);
  assert.match(first.at(-1).result, new RegExp(`first ${stamp}`));
  const second = await collect();
  assert.equal(ofType(second, "result").length, 1);
  assert.match(second.at(-1).result, new RegExp(`second ${stamp}`));
  await new Promise((r) => setTimeout(r, 1500));
  const asked = modelRequests(peer).map(lastUserText);
  assert.ok(asked.some((t) => t.includes(`second ${stamp}`)));
  assert.ok(!asked.some((t) => t.includes(`third ${stamp}`)), "the removed message never reached the model");
});

test("streamed rows rebased onto listMessages() hold each row once and equal the history's rows", async () => {
  const live = createTranscriptAccumulator();
  live.applyMany(streamed);
  const page = await session.listMessages({ limit: 200 });
  assert.ok(page.messages.length > 10);
  const rebased = live.rebase(page);
  const fresh = createTranscriptAccumulator().rebase(page);
  const keys = rebased.map((row) => row.key);
  assert.equal(new Set(keys).size, keys.length, "no duplicated row");
  const project = (rows) =>
    rows
      .filter((row) => row.kind !== "user" && !abortedKeys.has(row.uuid))
      .map((row) => ({
        kind: row.kind,
        text: row.text,
        toolCallId: row.toolCallId,
        result: row.result?.content,
        isError: row.result?.isError,
      }));
  assert.deepEqual(project(rebased), project(fresh));
  assert.ok(project(fresh).some((row) => row.kind === "tool_call" && row.result !== undefined));
});

test("listModels() lists both scripted models and updateModel() switches the next turn's model", async () => {
  const models = await session.listModels();
  const handles = models.entries.map((entry) => entry.handle);
  assert.ok(handles.includes(peer.model), handles.join(","));
  assert.ok(handles.includes(peer.model2), handles.join(","));
  const updated = await session.updateModel(peer.model2);
  assert.equal(updated.modelHandle, peer.model2);
  await session.send(`no tools, which model ${stamp}`);
  const messages = await collect();
  assert.equal(messages.at(-1).success, true);
  const request = modelRequests(peer).filter((r) => lastUserText(r).includes(`which model ${stamp}`)).at(-1);
  assert.equal(request.body.model, peer.model2.split("/").pop());
});

test("resumeSession(conversationId) from a new client continues the same conversation", async () => {
  const conversationId = session.conversationId;
  assert.match(conversationId, /conv-/);
  const other = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  const resumed = other.resumeSession(conversationId);
  try {
    const ready = await resumed.ready();
    assert.equal(ready.conversationId, conversationId);
    assert.equal(ready.agentId, agentId);
    await resumed.send(`no tools, resumed ${stamp}`);
    let result;
    for await (const message of resumed.stream()) if (message.type === "result") result = message;
    assert.equal(result.success, true);
    const page = await resumed.listMessages({ limit: 200, order: "asc" });
    const texts = page.messages.map((m) => JSON.stringify(m.content ?? ""));
    assert.ok(texts.some((t) => t.includes(`first ${stamp}`)), "the earlier turns are in the same conversation");
    assert.ok(texts.some((t) => t.includes(`resumed ${stamp}`)));
  } finally {
    resumed.close();
    await other.close();
  }
});

test("sendCommand() for a command the server never answers times out with a typed error", async () => {
  const started = performance.now();
  await assert.rejects(
    session.sendCommand({ type: "no_such_command" }, { responseType: "no_such_command_response", timeoutMs: 500 }),
    (error) => error instanceof Error && error.name === "LettaTimeoutError" && error.code === "timeout",
  );
  assert.ok(performance.now() - started < 1000);
});

test("management facades: agents, conversations, fork and models over the pooled connection", async () => {
  const agents = await client.agents.list({ limit: 50 });
  assert.ok(agents.some((agent) => agent.id === agentId));
  const retrieved = await client.agents.retrieve(agentId);
  assert.equal(retrieved.id, agentId);
  const conversations = await client.conversations.list({ agentId });
  assert.ok(conversations.some((c) => c.id === session.conversationId));
  const forked = await client.conversations.fork(session.conversationId);
  assert.ok(forked.id && forked.id !== session.conversationId);
  const { messages } = await client.conversations.listMessages(session.conversationId, { limit: 5 });
  assert.ok(messages.length > 0);
  const models = await client.models.list();
  assert.ok(models.entries.length >= 2);
  await assert.rejects(client.agents.retrieve(" "), (e) => e.code === "invalid_argument");
});
