// Cloud sessions through the installed package in Node (`backend: "cloud"`, the `ws`
// constructor with header auth): real turns through the Cloud stand-in's status relay in front
// of the REAL app server with the scripted model (spec §4.3–4.6, §3.11), and each fault switch:
// duplicated idempotency keys, an event_seq gap, a sandbox 404 on refresh, an idle drop and a
// mid-turn drop. The API key must appear in no error message, warning or stand-in log line.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient, createTranscriptAccumulator } from "letta-agent-wasm/client";
import { startCloud } from "./support/cloud.mjs";

let cloud;
let client;
let agentId;
let session;
const stamp = Date.now().toString(36);
const approvals = [];
/** The first turn's messages, for the history test after it. */
let firstTurn = [];
const texts = [];
const warnings = [];
const realWarn = console.warn;

before(async () => {
  console.warn = (...args) => {
    warnings.push(args.map(String).join(" "));
    realWarn(...args);
  };
  cloud = await startCloud();
  client = new LettaAgentClient({ backend: "cloud", apiKey: cloud.apiKey, apiBaseUrl: cloud.standIn.url, WebSocket });
  agentId = await client.createAgent({ model: cloud.peer.model, memfs: false, name: `cloud-session-${stamp}` });
  session = client.createSession(agentId, {
    canUseTool: async (toolName, toolInput, context) => {
      approvals.push({ toolName, toolInput, context });
      return { behavior: "allow" };
    },
  });
});

after(async () => {
  console.warn = realWarn;
  session?.close();
  await client?.close();
  await cloud?.stop();
});

beforeEach(() => {
  Object.assign(cloud.standIn.faults, {
    duplicateIdempotencyKeys: false, eventSeqGap: false, streamDeltaOnControl: false,
    expireSandboxes: false, offlinePolls: 0, legacySandboxes: false, dropMidTurn: false,
  });
  for (const list of Object.values(cloud.standIn.records)) list.length = 0;
});

/** One turn's messages (stream() ends after the result); error texts are kept for the key check. */
async function turn(s, message) {
  await s.send(message);
  const messages = [];
  for await (const m of s.stream()) {
    messages.push(m);
    texts.push(JSON.stringify(m));
  }
  return messages;
}

const commands = (type) => cloud.standIn.records.commands.filter((c) => c.type === type);
const ofType = (messages, type) => messages.filter((m) => m.type === type);

async function rejection(promise) {
  const error = await promise.then(() => assert.fail("expected a rejection"), (e) => e);
  texts.push(`${error.name} ${error.message} ${error.stack}`);
  return error;
}

async function until(check, what, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("a tool turn in a managed sandbox, answered by canUseTool: tool_call, tool_result, one result, last", async () => {
  const marker = `cloud-${stamp}`;
  const messages = await turn(session, `Please run \`touch ${marker}.txt && echo ${marker}\``);
  firstTurn = messages;
  const start = commands("runtime_start");
  assert.equal(start.length, 1);
  assert.equal(start[0].agent_id, agentId);
  assert.equal(start[0].recover_approvals, false);
  assert.equal(start[0].force_device_status, true);
  assert.equal(start[0].mode, "standard");
  assert.equal(start[0].create_conversation, undefined, "conversations are created over REST");
  assert.equal(cloud.standIn.records.syncs.length, 1, "the un-correlated sync right after the start");
  assert.equal(cloud.standIn.records.syncs[0].recover_approvals, true);
  assert.ok(cloud.standIn.records.refreshes.length >= 2, "refreshed at creation and before the turn");
  const call = ofType(messages, "tool_call")[0];
  assert.ok(call, JSON.stringify(messages.map((m) => m.type)));
  assert.equal(approvals.length, 1);
  assert.equal(approvals[0].context.toolCallId, call.toolCallId);
  const results = messages.filter((m) => m.type === "tool_result" && m.toolCallId === call.toolCallId);
  assert.match(results.at(-1).content, new RegExp(marker));
  assert.equal(ofType(messages, "result").length, 1);
  assert.equal(messages.at(-1).type, "result");
  assert.equal(messages.at(-1).success, true);
  assert.ok(cloud.standIn.records.acks.length > 0, "every seq acked");
  assert.equal(session.agentId, agentId);
  assert.match(session.conversationId, /\S/);
});

test("the turn's streamed rows rebased onto listMessages() hold each row once; REST history gives the same rows", async () => {
  assert.ok(firstTurn.length > 0, "the tool turn ran first");
  const live = createTranscriptAccumulator();
  live.applyMany(firstTurn);
  const page = await session.listMessages({ limit: 200 });
  assert.ok(page.messages.length >= 3, `history: ${page.messages.length} messages`);
  const rebased = live.rebase(page);
  const keys = rebased.map((row) => row.key);
  assert.equal(new Set(keys).size, keys.length, "no duplicated row");
  const project = (rows) => rows.map((row) => ({ kind: row.kind, text: row.text, toolCallId: row.toolCallId }));
  const fresh = createTranscriptAccumulator().rebase(page);
  assert.deepEqual(project(rebased), project(fresh), "live + history = history alone");
  assert.ok(fresh.some((row) => row.kind === "tool_call"), "the tool call is in the history");
  const rest = await client.conversations.listMessages(session.conversationId, { order: "asc", limit: 200 });
  const restRows = createTranscriptAccumulator().rebase({ messages: rest.messages });
  assert.deepEqual(project(restRows), project(fresh), "REST conversations.listMessages gives the same rows");
});

test("inputs queued behind a running turn run as one batch: one result per send, in order (issue 36)", { timeout: 60_000 }, async () => {
  const s = client.createSession(agentId, {});
  try {
    await s.send("[slow] no tools, a long answer");
    for await (const m of s.stream()) if (m.type === "reasoning" || m.type === "assistant") break;
    await Promise.all([1, 2, 3].map((n) => s.send(`no tools, cloud batch ${n}`)));
    const results = [];
    while (results.length < 4) for await (const m of s.stream()) if (m.type === "result") results.push(m);
    assert.deepEqual(
      results.map((r) => [r.success, r.batch?.index, r.batch?.size]),
      [
        [true, undefined, undefined],
        [true, 0, 3],
        [true, 1, 3],
        [true, 2, 3],
      ],
      JSON.stringify(results),
    );
  } finally {
    s.close();
  }
});

test("duplicated idempotency keys: no message is duplicated", async () => {
  cloud.standIn.faults.duplicateIdempotencyKeys = true;
  const messages = await turn(session, `no tools, duplicates ${stamp}`);
  assert.ok(cloud.standIn.records.duplicates.length > 0, "the stand-in sent duplicates");
  // Each assistant delta once: together they are the result's text, not a doubled one.
  const assistant = ofType(messages, "assistant").map((m) => m.content).join("");
  assert.ok(assistant.length > 0);
  assert.equal(assistant, messages.at(-1).result);
  assert.equal(ofType(messages, "result").length, 1);
  assert.equal(messages.at(-1).success, true);
});

test("an event_seq gap: one sync, recorded by the stand-in", async () => {
  cloud.standIn.faults.eventSeqGap = true;
  const messages = await turn(session, `no tools, a gap ${stamp}`);
  assert.equal(cloud.standIn.records.gaps.length, 1);
  await until(() => cloud.standIn.records.syncs.length >= 1, "the gap sync");
  assert.equal(cloud.standIn.records.syncs.length, 1);
  assert.equal(cloud.standIn.records.syncs[0].request_id, undefined);
  assert.equal(messages.at(-1).type, "result");
});

test("an idle drop: the next send reopens, the input is written once", async () => {
  cloud.standIn.dropSockets("idle drop");
  await until(() => cloud.standIn.records.drops.length > 0 || cloud.standIn.records.connections.length === 0, "the drop");
  await new Promise((r) => setTimeout(r, 200));
  const messages = await turn(session, `no tools, after the drop ${stamp}`);
  assert.equal(messages.at(-1).type, "result");
  assert.equal(messages.at(-1).success, true, JSON.stringify(messages.at(-1)));
  assert.equal(commands("input").length, 1);
  assert.equal(commands("runtime_start").length, 1, "one new runtime_start after the drop");
  assert.equal(ofType(messages, "error").length, 0);
});

test("a mid-turn drop: error, then result with stream_closed; the session is closed", async () => {
  cloud.standIn.faults.dropMidTurn = true;
  const messages = await turn(session, `[slow] no tools, drop me ${stamp}`);
  const types = messages.map((m) => m.type);
  const error = messages.findIndex((m) => m.type === "error");
  assert.ok(error >= 0, types.join(","));
  assert.equal(messages[error].errorCode, "stream_closed");
  const result = messages.at(-1);
  assert.equal(result.type, "result");
  assert.equal(result.errorCode, "stream_closed");
  assert.equal(result.stopReason, "stream_closed");
  assert.equal(result.recoverable, true);
  assert.ok(error < messages.length - 1);
  assert.equal(commands("input").length, 1, "the input was never replayed");
  const closed = await rejection(session.send("again"));
  assert.equal(closed.message, "Session is closed");
});

test("sandbox 404 on the pre-turn refresh: send() rejects, no input reaches the app server", async () => {
  const s = client.createSession(agentId, {});
  try {
    await s.ready();
    cloud.standIn.faults.expireSandboxes = true;
    const error = await rejection(s.send("no tools, expired"));
    assert.equal(error.name, "CloudManagedSandboxExpiredError");
    assert.equal(error.code, "managed_sandbox_expired");
    assert.match(error.sandboxId, /^sbx-/);
    assert.equal(error.conversationId, s.conversationId);
    assert.equal(
      error.message,
      `Cloud managed sandbox ${error.sandboxId} expired. Resume conversation ${s.conversationId} with a new SDK session and retry the turn.`,
    );
    assert.equal(commands("input").length, 0);
  } finally {
    s.close();
  }
});

test("an explicit computer by name: resumeSession of the conversation runs a turn; no sandbox", async () => {
  const first = client.createSession(agentId, { computer: "stand-in-computer" });
  const { conversationId } = await first.ready();
  first.close();
  const s = client.resumeSession(conversationId, { computer: { connectionId: "conn-stand-in" } });
  try {
    const messages = await turn(s, `no tools, on the computer ${stamp}`);
    assert.equal(messages.at(-1).success, true);
    assert.equal(s.conversationId, conversationId);
    assert.ok(cloud.standIn.records.connections.every((c) => c.connectionId === "conn-stand-in"));
    assert.ok(cloud.standIn.records.connections.every((c) => c.auth === "header"));
  } finally {
    s.close();
  }
});

test("an unknown computer and query() without one fail with the spec's texts", async () => {
  const s = client.createSession(agentId, { computer: "no-such-computer" });
  const missing = await rejection(s.ready());
  assert.equal(missing.message, "Computer not found: no-such-computer");
  s.close();
  let error;
  try {
    const q = client.query({ prompt: "hi", options: { model: cloud.peer.model, system: "s" } });
    for await (const _ of q) break;
  } catch (e) {
    error = e;
  }
  assert.equal(error?.message, "Cloud query() requires an explicit computer; managed sandboxes are agent-scoped.");
});

test("query() with a computer creates its conversation over REST and starts without an agent", async () => {
  const q = client.query({ prompt: "hi", options: { model: cloud.peer.model, system: "Be brief.", computer: { connectionId: "conn-stand-in" } } });
  try {
    for await (const m of q) texts.push(JSON.stringify(m));
  } catch (e) {
    // The stand-in's agent-free conversations cannot run a turn on the offline app server.
    texts.push(`${e.name} ${e.message}`);
  }
  assert.equal(cloud.standIn.records.ephemeral.length, 1);
  assert.equal(cloud.standIn.records.ephemeral[0].system, "Be brief.");
  const start = commands("runtime_start");
  assert.equal(start.length, 1);
  assert.equal(start[0].agent_id, undefined);
  assert.equal(start[0].conversation_id, cloud.standIn.records.ephemeral[0].id);
});

test("session.sandbox: upload files, download one back (bytes), computers have none", async () => {
  const s = client.createSession(agentId, {});
  const c = client.createSession(agentId, { computer: { connectionId: "conn-stand-in" } });
  try {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const uploaded = await s.sandbox.uploadFiles([
      { name: "notes.txt", data: new Blob(["hello sandbox"], { type: "text/plain" }) },
      { name: "raw.bin", data: new Blob([bytes]) },
    ]);
    assert.deepEqual(uploaded.files.map((f) => f.name), ["notes.txt", "raw.bin"]);
    assert.equal(uploaded.files[0].size, 13);
    const back = await s.sandbox.downloadFile(uploaded.files[1].path);
    assert.ok(back instanceof Uint8Array);
    assert.deepEqual([...back], [...bytes]);
    assert.equal(new TextDecoder().decode(await s.sandbox.downloadFile(uploaded.files[0].path)), "hello sandbox");
    const none = await rejection(s.sandbox.uploadFiles([]));
    assert.equal(none.message, "Cloud sandbox file upload requires at least one file.");
    const blank = await rejection(s.sandbox.uploadFiles([{ name: " ", data: new Blob(["x"]) }]));
    assert.equal(blank.message, "Invalid Cloud sandbox upload file at index 0.");
    const computer = await rejection(c.sandbox.downloadFile("/root/downloads/x"));
    assert.equal(computer.message, "Sandbox file transfer requires an SDK-managed Cloud sandbox.");
  } finally {
    s.close();
    c.close();
  }
});

test("a relay that refuses the connection: two attempts, two warnings, the spec's error", async () => {
  const before = warnings.length;
  const s = client.createSession(agentId, { computer: { connectionId: "conn-nowhere" } });
  const error = await rejection(s.ready());
  s.close();
  assert.match(error.message, /^Cloud status WebSocket failed to open for connection conn-nowhere: /);
  const lines = warnings.slice(before).map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((l) => [l.event, l.attempt, l.maxAttempts, l.connectionId]), [
    ["cloud_status_transport_connection_failed", 1, 2, "conn-nowhere"],
    ["cloud_status_transport_connection_failed", 2, 2, "conn-nowhere"],
  ]);
  assert.equal(commands("runtime_start").length, 0);
});

test("concurrent ready() and send() share one start; an offline environment is polled until online", async () => {
  cloud.standIn.faults.offlinePolls = 2;
  const s = client.createSession(agentId, { sandbox: { readyPollIntervalMs: 20, terminateOnClose: true } });
  try {
    const [info] = await Promise.all([s.ready(), s.send("no tools, concurrent start")]);
    for await (const m of s.stream()) texts.push(JSON.stringify(m));
    assert.equal(info.agentId, agentId);
    assert.equal(commands("runtime_start").length, 1, "one start for both callers");
    assert.equal(commands("input").length, 1);
    assert.ok(cloud.standIn.records.polls.length >= 3, `polled ${cloud.standIn.records.polls.length} times`);
    const connections = cloud.standIn.records.connections;
    assert.equal(connections.length, 2, "one relay pair");
  } finally {
    s.close();
  }
  await until(() => cloud.standIn.records.terminated.length === 1, "terminateOnClose");
});

test("ready() after an idle drop reopens the transport without a turn", async () => {
  const s = client.createSession(agentId, {});
  try {
    const first = await s.ready();
    cloud.standIn.dropSockets("idle drop");
    await new Promise((r) => setTimeout(r, 200));
    const again = await s.ready();
    assert.deepEqual(again, first);
    assert.equal(commands("runtime_start").length, 2);
    assert.equal(commands("input").length, 0);
  } finally {
    s.close();
  }
});

test("session resources: attached with a recompile, detached on close", async () => {
  const repository = await client.repositories.create({ name: `session-repo-${stamp}` });
  const s = client.createSession(agentId, { resources: [{ type: "repository", repositoryId: repository.id }] });
  await s.ready();
  const attached = await client.agents.repositories.list(agentId);
  assert.ok(attached.some((r) => r.id === repository.id), "attached for the session");
  assert.ok(cloud.standIn.records.recompiles.length >= 1, "recompiled once for the batch");
  s.close();
  const end = Date.now() + 5_000;
  let still = true;
  while (still && Date.now() < end) {
    still = (await client.agents.repositories.list(agentId)).some((r) => r.id === repository.id);
    if (still) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(still, false, "detached on close");
});

test("pings on both sockets every pingIntervalMs; query auth in Node passes no constructor options", async () => {
  const seen = [];
  class Recording extends WebSocket {
    constructor(...args) {
      seen.push(args.length);
      super(...args);
    }
  }
  const pinging = new LettaAgentClient({
    backend: "cloud", apiKey: cloud.apiKey, apiBaseUrl: cloud.standIn.url, WebSocket: Recording,
    pingIntervalMs: 50, webSocketAuth: "query",
  });
  const s = pinging.createSession(agentId, { computer: { connectionId: "conn-stand-in" } });
  try {
    await s.ready();
    await until(() => cloud.standIn.records.pings.length >= 4, "pings");
    const channels = new Set(cloud.standIn.records.pings.map((p) => p.channel));
    assert.deepEqual([...channels].sort(), ["control", "stream"]);
    assert.deepEqual(seen, [1, 1], "new WebSocket(url) with no second argument");
    assert.ok(cloud.standIn.records.connections.every((c) => c.auth === "query"));
  } finally {
    s.close();
    await pinging.close();
  }
});

test("the API key is in no message, error, warning or stand-in log line", () => {
  assert.ok(texts.length > 0 && cloud.lines.length > 0);
  for (const line of [...texts, ...warnings, ...cloud.lines]) {
    assert.ok(!line.includes(cloud.apiKey), `the key leaked: ${line.slice(0, 200)}`);
  }
});
