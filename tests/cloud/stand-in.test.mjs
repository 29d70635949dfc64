// The Cloud stand-in, exercised with a raw client (fetch + two `ws` sockets) in front of the
// REAL app server with the scripted model: REST shapes, a relayed turn, each fault switch,
// 401 for a wrong key, and the key never in a log line or an error body.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startCloudStandIn, testApiKey } from "./stand-in.mjs";
import { openRelay, openSocket, relayUrl, rest, runTurn, startRuntime, until } from "./client.mjs";

process.env.LETTA_REPO_ROOT ??= resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { startPeer } = await import("../support/real-peer.mjs");

const logLines = [];
let peer;
let standIn;
let apiKey;

before(async () => {
  peer = await startPeer("cloud-stand-in");
  apiKey = testApiKey();
  standIn = await startCloudStandIn({
    appServer: { url: peer.url, token: peer.token },
    apiKey,
    defaultModel: peer.model,
    timeLimitMs: 900_000,
    log: (line) => logLines.push(line),
  });
});

after(async () => {
  await standIn?.stop();
  await peer?.stop();
});

beforeEach(() => {
  Object.assign(standIn.faults, {
    duplicateIdempotencyKeys: false, eventSeqGap: false, streamDeltaOnControl: false,
    expireSandboxes: false, offlinePolls: 0, legacySandboxes: false, dropMidTurn: false,
    malformedDecisions: false, decisionsDelayMs: 0,
  });
  for (const list of Object.values(standIn.records)) list.length = 0;
});

async function agentAndConversation() {
  const agent = await rest(standIn, "POST", "/v1/agents/", { body: { model: "letta/auto", tags: ["origin:letta-code"] } });
  assert.equal(agent.status, 200, agent.text);
  const conversation = await rest(standIn, "POST", "/v1/conversations/", { query: { agent_id: agent.body.id }, body: {} });
  assert.equal(conversation.status, 200, conversation.text);
  return { agent_id: agent.body.id, conversation_id: conversation.body.id };
}

const CONNECTION = "conn-stand-in";

describe("REST routes", () => {
  it("agents, conversations and models have the letta-client shapes", async () => {
    const runtime = await agentAndConversation();
    const agent = await rest(standIn, "GET", `/v1/agents/${runtime.agent_id}`);
    assert.equal(agent.body.id, runtime.agent_id);
    assert.equal(agent.body.model, peer.model, "letta/auto runs on the scripted model");
    const agents = await rest(standIn, "GET", "/v1/agents/");
    assert.ok(agents.body.some((a) => a.id === runtime.agent_id));
    const conversation = await rest(standIn, "GET", `/v1/conversations/${runtime.conversation_id}`);
    assert.equal(conversation.body.agent_id, runtime.agent_id);
    const conversations = await rest(standIn, "GET", "/v1/conversations/", { query: { agent_id: runtime.agent_id } });
    assert.ok(conversations.body.some((c) => c.id === runtime.conversation_id));
    const models = await rest(standIn, "GET", "/v1/models/");
    assert.ok(models.body.some((m) => m.handle === peer.model && typeof m.display_name === "string" && typeof m.context_window === "number"));
    assert.ok(models.body.some((m) => m.handle === null), "one entry without a handle");
    const renamed = await rest(standIn, "PATCH", `/v1/agents/${runtime.agent_id}`, { body: { name: "renamed" } });
    assert.equal(renamed.body.name, "renamed");
    const summarized = await rest(standIn, "PATCH", `/v1/conversations/${runtime.conversation_id}`, { body: { summary: "s" } });
    assert.equal(summarized.status, 200, summarized.text);
    const fork = await rest(standIn, "POST", `/v1/conversations/${runtime.conversation_id}/fork`);
    assert.equal(fork.status, 200, fork.text);
    assert.ok(fork.body.id && fork.body.id !== runtime.conversation_id);
    const ephemeral = await rest(standIn, "POST", "/v1/conversations/ephemeral", { body: { model: "letta/auto", system: "Be terse.", context_window_limit: 8000 } });
    assert.deepEqual(Object.keys(ephemeral.body).sort(), ["agent_id", "context_window_limit", "id", "model"]);
    assert.deepEqual([ephemeral.body.agent_id, ephemeral.body.model, standIn.records.ephemeral[0].system], [null, peer.model, "Be terse."]);
    assert.equal((await rest(standIn, "POST", "/v1/conversations/ephemeral", { body: { model: "m" } })).status, 422);
    const create = standIn.records.requests.find((r) => r.method === "POST" && r.path === "/v1/conversations/");
    assert.deepEqual([create.query.agent_id, create.source], [runtime.agent_id, "letta-agent-sdk"]);
  });

  it("computers: the list, one by device id, offline ones without a connection id", async () => {
    const list = await rest(standIn, "GET", "/v1/environments");
    assert.equal(list.body.hasNextPage, false);
    const online = list.body.connections.find((c) => c.connectionName === "stand-in-computer");
    for (const key of ["id", "connectedAt", "connectionId", "connectionName", "deviceId", "firstSeenAt", "lastHeartbeat", "lastSeenAt", "organizationId", "podId"]) {
      assert.ok(key in online, key);
    }
    assert.equal(online.connectionId, CONNECTION);
    const page = await rest(standIn, "GET", "/v1/environments", { query: { limit: 1 } });
    assert.deepEqual([page.body.connections.length, page.body.hasNextPage], [1, true]);
    const onlineOnly = await rest(standIn, "GET", "/v1/environments", { query: { onlineOnly: true } });
    assert.ok(onlineOnly.body.connections.every((c) => c.connectionId !== null));
    const offline = await rest(standIn, "GET", "/v1/environments/device-offline");
    assert.equal(offline.body.connectionId, null);
    assert.equal((await rest(standIn, "GET", "/v1/environments/device-none")).status, 404);
  });

  it("a managed sandbox: create (with the conversationId echo), refresh, poll, files, terminate", async () => {
    const runtime = await agentAndConversation();
    const created = await rest(standIn, "POST", `/v1/agents/${runtime.agent_id}/sandboxes`, { body: { conversationId: runtime.conversation_id } });
    const { sandboxId, deviceId, connectionName, conversationId, resumed } = created.body;
    assert.ok(sandboxId && deviceId && connectionName);
    assert.deepEqual([conversationId, resumed], [runtime.conversation_id, false]);
    const refreshed = await rest(standIn, "POST", `/v1/sandboxes/${sandboxId}/refresh`, { body: { ttlMinutes: 5 } });
    assert.deepEqual(refreshed.body, { success: true, sandboxId, ttlMinutes: 5 });
    const env = await rest(standIn, "GET", `/v1/environments/${deviceId}`);
    assert.equal(env.body.connectionId, `conn-${sandboxId}`);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([0, 1, 2, 255])]), "bytes.bin");
    form.append("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    const uploaded = await rest(standIn, "POST", `/v1/sandboxes/${sandboxId}/files`, { form });
    assert.deepEqual(uploaded.body.files.map((f) => [f.path, f.size]), [["/root/downloads/bytes.bin", 4], ["/root/downloads/hello.txt", 5]]);
    assert.equal(uploaded.body.files[1].mimeType, "text/plain");
    const downloaded = await rest(standIn, "GET", `/v1/sandboxes/${sandboxId}/files`, { query: { path: "/root/downloads/bytes.bin" } });
    assert.deepEqual([...downloaded.bytes], [0, 1, 2, 255]);
    assert.equal((await rest(standIn, "POST", `/v1/sandboxes/${sandboxId}/terminate`, { body: {} })).status, 200);
    assert.equal((await rest(standIn, "POST", `/v1/sandboxes/${sandboxId}/terminate`, { body: {} })).status, 404);
    assert.deepEqual(standIn.records.terminated, [sandboxId]);
  });

  it("repositories: files, versions, agent attachments and recompiles", async () => {
    const runtime = await agentAndConversation();
    const repo = (await rest(standIn, "POST", "/v1/repositories", { body: { name: "notes" } })).body;
    assert.ok(repo.id && repo.created_at);
    const id = repo.id;
    const created = await rest(standIn, "POST", `/v1/repositories/${id}/files`, { body: { path: "docs/a.md", content: "one" } });
    assert.ok(created.body.commit_sha && created.body.content_sha256);
    const read = await rest(standIn, "GET", `/v1/repositories/${id}/files/content`, { query: { path: "docs/a.md" } });
    assert.equal(read.body.content, "one");
    const stale = await rest(standIn, "POST", `/v1/repositories/${id}/files/content`, {
      body: { path: "docs/a.md", content: "two", precondition: { type: "content_sha256", content_sha256: "0".repeat(64) } },
    });
    assert.equal(stale.status, 412);
    const updated = await rest(standIn, "POST", `/v1/repositories/${id}/files/content`, {
      body: { path: "docs/a.md", content: "two", precondition: { type: "content_sha256", content_sha256: read.body.content_sha256 } },
    });
    assert.equal(updated.status, 200);
    const files = await rest(standIn, "GET", `/v1/repositories/${id}/files`, { query: { path_prefix: "docs/", depth: 1 } });
    assert.deepEqual(files.body.files, [{ path: "docs/a.md", type: "file" }]);
    const versions = await rest(standIn, "GET", `/v1/repositories/${id}/versions`, { query: { path: "docs/a.md" } });
    assert.equal(versions.body.commits.length, 2);
    const first = await rest(standIn, "GET", `/v1/repositories/${id}/versions/${created.body.commit_sha}`, { query: { path: "docs/a.md" } });
    assert.equal(first.body.content, "one");
    const list = await rest(standIn, "GET", "/v1/repositories", { query: { limit: 10, offset: 0 } });
    assert.deepEqual([list.body.repositories.some((r) => r.id === id), list.body.has_next_page], [true, false]);
    const attached = await rest(standIn, "POST", `/v1/agents/${runtime.agent_id}/repositories`, { body: { repository_id: id } });
    assert.deepEqual(attached.body, { success: true, repository: { id, name: "notes", is_primary: true, permissions: "read_write" } });
    assert.deepEqual((await rest(standIn, "GET", `/v1/agents/${runtime.agent_id}/repositories`)).body.map((r) => r.id), [id]);
    await rest(standIn, "POST", `/v1/conversations/${runtime.conversation_id}/recompile`, { body: { agent_id: runtime.agent_id } });
    await rest(standIn, "POST", `/v1/agents/${runtime.agent_id}/recompile`);
    assert.equal(standIn.records.recompiles.length, 2);
    assert.equal((await rest(standIn, "DELETE", `/v1/agents/${runtime.agent_id}/repositories/${id}`)).status, 200);
    assert.equal((await rest(standIn, "DELETE", `/v1/repositories/${id}`)).status, 200);
    assert.equal((await rest(standIn, "GET", `/v1/repositories/${id}`)).status, 404);
  });

  it("alpha decisions: the request checked against the API's types, one well-formed answer per question", async () => {
    const questions = {
      pick: { type: "choice", instructions: "Which?", criteria: { a: "first", b: "second" } },
      rate: { type: "score", instructions: "How much?", criteria: ["none", "some"] },
      yes: { type: "noul", instructions: "Yes?" },
    };
    const body = { state: ["evidence"], questions, model: "~typesafe/jev-latest", session_id: "s", provider: { allow_fallbacks: true } };
    const ok = await rest(standIn, "POST", "/v1/alpha/decisions", { body });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.answers, {
      pick: { type: "choice", choice: "a", probabilities: { a: 0.9 }, confidence: 0.9 },
      rate: { type: "score", score: 0, legend: { 0: "none", 1: "some" }, probabilities: { 0: 0.9 }, confidence: 0.9 },
      yes: { type: "noul", noul: 0.25 },
    });
    assert.deepEqual(Object.keys(ok.body.usage), ["input_tokens", "output_tokens", "cost"]);
    assert.deepEqual(standIn.records.decisions, [body]);
    for (const bad of [{ ...body, state: 3 }, { ...body, questions: {} }, { ...body, sessionId: "camel" }, { ...body, questions: { q: { type: "noul", instructions: "i", criteria: [] } } }]) {
      assert.equal((await rest(standIn, "POST", "/v1/alpha/decisions", { body: bad })).status, 422, JSON.stringify(bad));
    }
    standIn.faults.malformedDecisions = true;
    const malformed = await rest(standIn, "POST", "/v1/alpha/decisions", { body });
    assert.equal(malformed.body.answers.pick.choice, "not-a-criterion");
    assert.equal(standIn.faults.malformedDecisions, false, "once");
  });

  it("401 for a wrong or missing key, REST and relay, without echoing any key", async () => {
    const wrong = `${apiKey}-wrong`;
    for (const key of [wrong, null]) {
      const response = await rest(standIn, "GET", "/v1/models/", { key });
      assert.equal(response.status, 401);
      assert.ok(!response.text.includes(apiKey));
    }
    const runtime = { agent_id: "agent-x", conversation_id: "conv-x" };
    const header = openSocket(relayUrl(standIn, CONNECTION, runtime, "control"), { headers: { Authorization: `Bearer ${wrong}` } });
    await assert.rejects(header, (error) => error.status === 401);
    await assert.rejects(openSocket(relayUrl(standIn, CONNECTION, runtime, "stream", wrong)), (error) => error.status === 401);
    await assert.rejects(openSocket(relayUrl(standIn, CONNECTION, runtime, "stream")), (error) => error.status === 401);
    assert.equal(standIn.records.unauthorized.length, 5);
  });
});

describe("status relay in front of the real app server", () => {
  it("a turn: runtime_start on control, deltas on stream, every seq acked, messages listed", async () => {
    const runtime = await agentAndConversation();
    const relay = await openRelay(standIn, CONNECTION, runtime);
    const started = await startRuntime(relay, runtime);
    assert.equal(started.success, true, JSON.stringify(started.error));
    assert.deepEqual(started.runtime, runtime);
    const finished = await runTurn(relay, runtime, "Say hello in one line, no tools.");
    assert.equal(finished.stop_reason, "end_turn");
    assert.ok(relay.frames.every(({ frame }) => typeof frame.seq === "number"));
    const deltas = relay.of("stream_delta");
    assert.ok(deltas.length > 0 && deltas.every((f) => f.channel === "stream"));
    assert.ok(relay.frames.filter((f) => f.frame.type !== "stream_delta").every((f) => f.channel === "control"));
    for (const channel of ["control", "stream"]) {
      const seqs = relay.frames.filter((f) => f.channel === channel).map((f) => f.frame.seq);
      assert.deepEqual(seqs, seqs.map((_, i) => i + 1), `${channel} seq counts from 1`);
    }
    await until(() => standIn.records.acks.length === standIn.records.sent.length, "acks for every seq");
    relay.control.send(JSON.stringify({ type: "ping" }));
    relay.stream.send(JSON.stringify({ type: "ping" }));
    await until(() => standIn.records.pings.length === 2, "both pings");
    assert.equal(standIn.records.commands.filter((c) => c.type === "input").length, 1);
    const messages = await rest(standIn, "GET", `/v1/conversations/${runtime.conversation_id}/messages`, { query: { limit: 50 } });
    const types = messages.body.map((m) => m.message_type);
    assert.ok(types.includes("user_message") && types.includes("assistant_message"), types.join(","));
    // REST cursors are order-relative: with the default (desc) order, `after` pages to older.
    const [newest] = (await rest(standIn, "GET", `/v1/conversations/${runtime.conversation_id}/messages`, { query: { limit: 1 } })).body;
    const older = (await rest(standIn, "GET", `/v1/conversations/${runtime.conversation_id}/messages`, { query: { limit: 50, after: newest.id } })).body;
    assert.ok(older.length > 0 && older.every((m) => m.id !== newest.id), "older messages only");
    relay.close();
    await until(() => standIn.openSessions() === 0, "the relayed session to close");
  });

  it("a tool turn: the approval request comes on control and its answer goes upstream", async () => {
    const runtime = await agentAndConversation();
    const relay = await openRelay(standIn, CONNECTION, runtime);
    await startRuntime(relay, runtime);
    relay.send({ type: "input", runtime, payload: { kind: "create_message", messages: [{ role: "user", content: "Please run `touch cloud-probe.txt` and report.", client_message_id: "cm-tool" }] } });
    const request = await until(() => relay.of("control_request")[0], "the approval request", 90_000);
    assert.equal(request.channel, "control");
    relay.send({ type: "input", runtime, payload: { kind: "approval_response", request_id: request.frame.request_id, decision: { behavior: "allow", updated_input: null, selected_permission_suggestion_ids: [] } } });
    const finished = await until(() => relay.of("turn_finished")[0], "turn_finished", 90_000);
    assert.equal(finished.frame.stop_reason, "end_turn");
    const results = relay.of("stream_delta").filter((f) => f.frame.delta?.message_type === "tool_return_message");
    assert.ok(results.length > 0, "a tool result");
    relay.close();
  });

  it("query auth: the token in both URLs, no constructor options", async () => {
    const runtime = await agentAndConversation();
    const relay = await openRelay(standIn, CONNECTION, runtime, { auth: "query" });
    assert.equal((await startRuntime(relay, runtime)).success, true);
    assert.deepEqual(standIn.records.connections.map((c) => [c.channel, c.auth]), [["control", "query"], ["stream", "query"]]);
    relay.close();
  });

  it("duplicated idempotency keys: each frame twice under one key, both seqs acked", async () => {
    const runtime = await agentAndConversation();
    const relay = await openRelay(standIn, CONNECTION, runtime);
    await startRuntime(relay, runtime);
    await until(() => standIn.records.sent.length === relay.frames.length, "the start replay");
    const from = relay.frames.length;
    standIn.faults.duplicateIdempotencyKeys = true;
    await runTurn(relay, runtime, "Duplicates please, no tools.");
    await until(() => standIn.records.sent.length === relay.frames.length, "every frame");
    const byKey = new Map();
    for (const f of relay.frames.slice(from).filter((f) => f.frame.idempotency_key)) {
      byKey.set(f.frame.idempotency_key, [...(byKey.get(f.frame.idempotency_key) ?? []), f]);
    }
    assert.ok(byKey.size > 0);
    for (const copies of byKey.values()) {
      assert.equal(copies.length, 2);
      assert.notEqual(copies[0].frame.seq, copies[1].frame.seq);
    }
    await until(() => standIn.records.acks.length === standIn.records.sent.length, "acks for duplicates too");
    relay.close();
  });

  it("an event_seq gap once, and the client's sync is recorded", async () => {
    const runtime = await agentAndConversation();
    const relay = await openRelay(standIn, CONNECTION, runtime);
    await startRuntime(relay, runtime);
    standIn.faults.eventSeqGap = true;
    await runTurn(relay, runtime, "Gap please, no tools.");
    const seqs = relay.frames.map((f) => f.frame.event_seq).filter((n) => typeof n === "number");
    const jumps = seqs.filter((n, i) => i > 0 && n > Math.max(...seqs.slice(0, i)) + 1);
    assert.equal(jumps.length, 1, `one gap in ${seqs.join(",")}`);
    assert.equal(standIn.records.gaps.length, 1);
    relay.send({ type: "sync", runtime, recover_approvals: true, force_device_status: true });
    await until(() => standIn.records.syncs.length === 1, "the sync");
    relay.close();
  });

  it("stream deltas mirrored on control when asked", async () => {
    const runtime = await agentAndConversation();
    const relay = await openRelay(standIn, CONNECTION, runtime);
    await startRuntime(relay, runtime);
    standIn.faults.streamDeltaOnControl = true;
    await runTurn(relay, runtime, "Mirror, no tools.");
    const deltas = relay.of("stream_delta");
    assert.ok(deltas.some((f) => f.channel === "control") && deltas.some((f) => f.channel === "stream"));
    relay.close();
  });

  it("an idle drop closes both sockets; a new pair then runs a turn with one input", async () => {
    const runtime = await agentAndConversation();
    const first = await openRelay(standIn, CONNECTION, runtime);
    await startRuntime(first, runtime);
    standIn.dropSockets("idle drop");
    await until(() => first.closed.control && first.closed.stream, "both sockets to close");
    const second = await openRelay(standIn, CONNECTION, runtime);
    await startRuntime(second, runtime);
    assert.equal((await runTurn(second, runtime, "After the drop, no tools.")).stop_reason, "end_turn");
    assert.equal(standIn.records.commands.filter((c) => c.type === "input").length, 1);
    assert.equal(standIn.records.commands.filter((c) => c.type === "runtime_start").length, 2);
    second.close();
  });

  it("a mid-turn drop closes both sockets after the first delta", async () => {
    const runtime = await agentAndConversation();
    const relay = await openRelay(standIn, CONNECTION, runtime);
    await startRuntime(relay, runtime);
    standIn.faults.dropMidTurn = true;
    relay.send({ type: "input", runtime, payload: { kind: "create_message", messages: [{ role: "user", content: "[slow] Drop me, no tools.", client_message_id: "cm-drop" }] } });
    await until(() => relay.closed.control && relay.closed.stream, "both sockets to close");
    assert.equal(relay.of("stream_delta").length, 1);
    assert.equal(relay.of("turn_finished").length, 0);
    assert.deepEqual(standIn.records.drops.map((d) => d.reason), ["mid-turn"]);
  });
});

describe("sandbox fault switches", () => {
  it("404 on refresh once sandboxes expire", async () => {
    const runtime = await agentAndConversation();
    const { sandboxId } = (await rest(standIn, "POST", `/v1/agents/${runtime.agent_id}/sandboxes`, { body: { conversationId: runtime.conversation_id } })).body;
    assert.equal((await rest(standIn, "POST", `/v1/sandboxes/${sandboxId}/refresh`, { body: { ttlMinutes: 5 } })).status, 200);
    standIn.faults.expireSandboxes = true;
    const expired = await rest(standIn, "POST", `/v1/sandboxes/${sandboxId}/refresh`, { body: { ttlMinutes: 5 } });
    assert.equal(expired.status, 404);
    assert.match(expired.body.message, /not found/i);
    assert.equal(standIn.records.commands.filter((c) => c.type === "input").length, 0);
  });

  it("an environment offline for its first polls, and the relay refuses it meanwhile", async () => {
    const runtime = await agentAndConversation();
    standIn.faults.offlinePolls = 2;
    const { sandboxId, deviceId } = (await rest(standIn, "POST", `/v1/agents/${runtime.agent_id}/sandboxes`, { body: { conversationId: runtime.conversation_id } })).body;
    const connectionId = `conn-${sandboxId}`;
    await assert.rejects(openSocket(relayUrl(standIn, connectionId, runtime, "control", apiKey)), (error) => error.status === 404);
    const polls = [];
    for (let i = 0; i < 3; i++) polls.push((await rest(standIn, "GET", `/v1/environments/${deviceId}`)).body.connectionId);
    assert.deepEqual(polls, [null, null, connectionId]);
    const relay = await openRelay(standIn, connectionId, runtime);
    assert.equal((await startRuntime(relay, runtime)).success, true);
    relay.close();
  });

  it("legacy sandboxes: no conversationId echo, refreshed and terminated through the agent", async () => {
    const runtime = await agentAndConversation();
    standIn.faults.legacySandboxes = true;
    const created = (await rest(standIn, "POST", `/v1/agents/${runtime.agent_id}/sandboxes`, { body: {} })).body;
    assert.equal("conversationId" in created, false);
    const refreshed = await rest(standIn, "POST", `/v1/agents/${runtime.agent_id}/sandboxes/refresh`, { body: { ttlMinutes: 5 } });
    assert.equal(refreshed.body.sandboxId, created.sandboxId);
    assert.equal((await rest(standIn, "DELETE", `/v1/agents/${runtime.agent_id}/sandboxes`)).status, 200);
    assert.deepEqual(standIn.records.terminated, [created.sandboxId]);
  });
});

describe("secrets", () => {
  it("the API key is in no log line", () => {
    assert.ok(logLines.length > 0);
    assert.ok(logLines.every((line) => !line.includes(apiKey)));
  });
});
