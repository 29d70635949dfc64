// `backend: "cloud"` management through the installed package in Node: `client.agents`,
// `conversations`, `models`, `repositories`, `computers` and `agents.repositories` over REST
// (fetch) against the Cloud stand-in in front of the REAL app server (spec §4.2). The API key
// must appear in no error message and no stand-in log line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { startCloud } from "./support/cloud.mjs";

let cloud;
let client;
let agentId;
const errors = [];

/** Awaits `promise`, which must reject; returns the error (kept for the key check). */
async function rejection(promise) {
  const error = await promise.then(
    () => assert.fail("expected a rejection"),
    (e) => e,
  );
  errors.push(error);
  return error;
}

before(async () => {
  cloud = await startCloud();
  client = new LettaAgentClient({ backend: "cloud", apiKey: cloud.apiKey, apiBaseUrl: cloud.standIn.url });
  agentId = await client.createAgent({ model: cloud.peer.model, memfs: false, name: "cloud-management" });
});

after(async () => {
  await client?.close();
  await cloud?.stop();
});

test("agents: create, list, retrieve, update", async () => {
  assert.match(agentId, /\S/);
  assert.equal(client.backend, "cloud");
  const listed = await client.agents.list();
  assert.ok(listed.some((agent) => agent.id === agentId), "the new agent is listed");
  assert.equal((await client.agents.retrieve(agentId)).id, agentId);
  const updated = await client.agents.update(agentId, { description: "managed over REST" });
  assert.equal(updated.id, agentId);
  assert.equal((await client.agents.retrieve(agentId)).description, "managed over REST");
  const blank = await rejection(client.agents.retrieve(" "));
  assert.equal(blank.name, "LettaInvalidArgumentError");
  assert.equal(blank.message, "Invalid agent id. Expected a non-empty string.");
});

test("conversations: create, retrieve, list, update, listMessages", async () => {
  const created = await client.conversations.create({ agentId });
  assert.match(created.id, /\S/);
  assert.equal((await client.conversations.retrieve(created.id)).id, created.id);
  const listed = await client.conversations.list({ agentId });
  assert.ok(listed.some((c) => c.id === created.id), "the new conversation is listed");
  await client.conversations.update(created.id, { summary: "over REST" });
  assert.equal((await client.conversations.retrieve(created.id)).summary, "over REST");
  const { messages } = await client.conversations.listMessages(created.id, { limit: 10 });
  assert.ok(Array.isArray(messages));
});

test("models: normalized entries and the available handles", async () => {
  const models = await client.models.list();
  assert.ok(models.entries.length > 0, "at least one model");
  for (const entry of models.entries) {
    assert.equal(typeof entry.handle, "string");
    assert.equal(typeof entry.label, "string");
    assert.equal(entry.id, entry.id || entry.handle);
  }
  assert.deepEqual(models.availableHandles, models.entries.map((e) => e.handle));
  assert.ok(models.availableHandles.includes(cloud.peer.model), `${cloud.peer.model} is offered`);
});

test("repositories: create, files, versions, attach to an agent", async () => {
  const repository = await client.repositories.create({ name: `repo-${Date.now()}` });
  assert.match(repository.id, /\S/);
  assert.equal((await client.repositories.get(repository.id)).id, repository.id);
  const { repositories, hasNextPage } = await client.repositories.list({ limit: 50 });
  assert.equal(typeof hasNextPage, "boolean");
  assert.ok(repositories.some((r) => r.id === repository.id));
  await client.repositories.files.create(repository.id, { path: "notes/a.txt", content: "alpha" });
  const read = await client.repositories.files.read(repository.id, { path: "notes/a.txt" });
  assert.equal(read.content, "alpha");
  const files = await client.repositories.files.list(repository.id, {});
  assert.ok(files.files.some((f) => f.path === "notes/a.txt"));
  const versions = await client.repositories.versions.list(repository.id, { path: "notes/a.txt" });
  assert.ok(Array.isArray(versions) && versions.length >= 1);
  await client.repositories.files.create(repository.id, { path: "notes/b.txt", content: "beta" });
  const deleted = await client.repositories.files.delete(repository.id, { path: "notes/b.txt" });
  assert.equal(deleted.success, true, "files.delete resolves with the declared result");
  assert.match(deleted.commitSha, /\S/);

  const attached = await client.agents.repositories.attach(agentId, repository.id, { permissions: "read" });
  assert.equal(attached.id, repository.id);
  assert.equal(typeof attached.isPrimary, "boolean");
  assert.ok((await client.agents.repositories.list(agentId)).some((r) => r.id === repository.id));
  await client.agents.repositories.detach(agentId, repository.id, { recompile: false });
  assert.ok(!(await client.agents.repositories.list(agentId)).some((r) => r.id === repository.id));
  await client.repositories.delete(repository.id);
  const gone = await rejection(client.repositories.get(repository.id));
  assert.equal(gone.status, 404);
});

test("computers: list, get and resolve", async () => {
  const list = await client.computers.list();
  assert.equal(list.hasNextPage, false);
  const byName = Object.fromEntries(list.computers.map((c) => [c.name, c]));
  assert.equal(byName["stand-in-computer"]?.status, "online", JSON.stringify(list.computers));
  assert.equal(byName["stand-in-computer"].connectionId, "conn-stand-in");
  assert.equal(byName["offline-computer"]?.status, "offline");
  assert.equal(byName["offline-computer"].connectionId, null);
  const got = await client.computers.get("device-stand-in");
  assert.deepEqual([got.name, got.status, got.deviceId], ["stand-in-computer", "online", "device-stand-in"]);
  const byNameResolved = await client.computers.resolve({ name: "stand-in-computer" });
  assert.equal(byNameResolved.connectionId, "conn-stand-in");
  const offline = await rejection(client.computers.resolve("offline-computer"));
  assert.equal(offline.message, "Remote environment is offline: offline-computer");
  const missing = await rejection(client.computers.get("device-that-does-not-exist"));
  assert.equal(missing.status, 404);
  const resolved = await client.computers.resolve({ connectionId: "conn-direct" });
  assert.equal(resolved.connectionId, "conn-direct");
});

test("options of the wrong shape are a typed LettaInvalidArgumentError naming the call", async () => {
  const sent = [];
  const counted = new LettaAgentClient({
    backend: "cloud",
    apiKey: cloud.apiKey,
    apiBaseUrl: cloud.standIn.url,
    fetch: (url, init) => (sent.push(url), fetch(url, init)),
  });
  const cases = [
    [() => counted.computers.list({ limit: "five" }), /^Invalid computers\.list\(\) options\.$/],
    [() => counted.conversations.listMessages("conv-x", { order: 3 }), /^Invalid conversations\.listMessages\(\) options\.$/],
    [() => counted.repositories.files.update("repo-x", { content: "no path" }), /^Invalid repositories\.files\.update\(\) options\.$/],
    [() => counted.agents.repositories.attach(agentId, "repo-x", { permissions: "admin" }), /^Invalid agents\.repositories\.attach\(\) permissions\.$/],
  ];
  for (const [call, message] of cases) {
    const error = await rejection(call());
    assert.equal(error.name, "LettaInvalidArgumentError", error.message);
    assert.equal(error.code, "invalid_argument");
    assert.match(error.message, message);
  }
  assert.deepEqual(sent, [], "each failed before its request");
  // The same client still works.
  assert.equal((await counted.computers.list({ limit: 5 })).hasNextPage, false);
  assert.equal(sent.length, 1);
  await counted.close();
});

test("agents: createAgent sends the memory inputs and pinned tools in its REST body", async () => {
  await client.createAgent({
    model: cloud.peer.model,
    memfs: false,
    persona: "Cloud persona",
    memory: [{ label: "project", value: "p" }, { blockId: "block-1" }],
    baseTools: ["web_search"],
  });
  const body = cloud.standIn.records.agents.at(-1);
  assert.deepEqual(body.memory_blocks, [{ label: "project", value: "p" }, { label: "persona", value: "Cloud persona" }]);
  assert.deepEqual(body.block_ids, ["block-1"]);
  assert.deepEqual([body.tools, body.include_base_tools, body.include_base_tool_rules], [["web_search"], false, false]);
  assert.deepEqual(body.tags, ["origin:letta-code"]);
});

const questions = {
  mood: { type: "choice", instructions: "How does the user feel?", criteria: { happy: "pleased", upset: "annoyed" } },
  urgency: { type: "score", instructions: "How urgent is it?", criteria: ["low", "medium", "high"] },
  refund: { type: "noul", instructions: "Does the user want a refund?" },
};

test("alpha.decisions.evaluate sends the reference's request and returns the checked answers", async () => {
  const result = await client.alpha.decisions.evaluate({
    state: { messages: [{ role: "user", text: "My order is late again." }] },
    questions,
    sessionId: "s-1",
    trace: { source: "test" },
    user: "u-1",
    provider: { allowFallbacks: false },
  });
  const sent = cloud.standIn.records.decisions.at(-1);
  assert.deepEqual(sent, {
    state: { messages: [{ role: "user", text: "My order is late again." }] },
    questions,
    model: "~typesafe/jev-latest",
    session_id: "s-1",
    trace: { source: "test" },
    user: "u-1",
    provider: { allow_fallbacks: false },
  });
  assert.match(result.id, /^decision-/);
  assert.equal(result.model, "~typesafe/jev-latest");
  assert.deepEqual(result.answers.mood, { type: "choice", choice: "happy", probabilities: { happy: 0.9 }, confidence: 0.9 });
  assert.deepEqual(result.answers.urgency.legend, { 0: "low", 1: "medium", 2: "high" });
  assert.deepEqual(result.answers.refund, { type: "noul", noul: 0.25 });
  assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 3, cost: 0.0001 });
});

test("alpha.decisions rejects a malformed response and a malformed request with the reference's texts", async () => {
  cloud.standIn.faults.malformedDecisions = true;
  const malformed = await rejection(client.alpha.decisions.evaluate({ state: "late order", questions }));
  assert.equal(malformed.name, "LettaRequestError");
  assert.equal(malformed.message, "Decisions API returned an invalid response: a choice answer selected an unknown criterion.");
  const count = cloud.standIn.records.decisions.length;
  const cyclic = {};
  cyclic.self = cyclic;
  const invalid = [
    [{ state: 1, questions }, "state must be a string, object, or array"],
    [{ state: cyclic, questions }, "state contains a cycle"],
    [{ state: { n: Number.NaN }, questions }, "state contains a non-finite number"],
    [{ state: [1, , 3], questions }, "state contains an array value that JSON would replace"],
    [{ state: { f: undefined }, questions }, "state contains a value that JSON would omit"],
    [{ state: "s", questions: {} }, "questions must be a non-empty object"],
    [{ state: "s", questions: { q: { type: "choice", instructions: "i", criteria: {} } } }, 'choice question "q" must have 1 to 255 criteria'],
    [{ state: "s", questions: { q: { type: "noul", instructions: "i", criteria: [] } } }, 'noul question "q" must not have criteria'],
    [{ state: "s", questions: { q: { type: "rank", instructions: "i" } } }, 'question "q" has an unsupported type'],
    [{ state: "s", questions, model: "gpt-4" }, "model must be a supported typesafe/jev identifier"],
    [{ state: "s", questions, sessionId: "x".repeat(257) }, "sessionId must be a string of at most 256 characters"],
    [{ state: "s", questions, provider: { allowFallbacks: "yes" } }, "provider.allowFallbacks must be a boolean"],
  ];
  for (const [params, detail] of invalid) {
    const error = await rejection(client.alpha.decisions.evaluate(params));
    assert.equal(error.name, "LettaInvalidArgumentError");
    assert.equal(error.message, `Invalid decision request: ${detail}.`);
  }
  const timeout = await rejection(client.alpha.decisions.evaluate({ state: "s", questions }, { timeoutMs: 0 }));
  assert.equal(timeout.message, "Invalid decision request: timeoutMs must be a positive finite number.");
  assert.equal(cloud.standIn.records.decisions.length, count, "nothing was sent for a bad request");
  const aborted = await rejection(client.alpha.decisions.evaluate({ state: "s", questions }, { signal: AbortSignal.abort() }));
  assert.deepEqual([aborted.name, aborted.message], ["LettaConnectionError", "Request was aborted."]);
  cloud.standIn.faults.decisionsDelayMs = 2_000;
  try {
    const late = await rejection(client.alpha.decisions.evaluate({ state: "s", questions }, { timeoutMs: 50 }));
    assert.deepEqual([late.name, late.message], ["LettaTimeoutError", "Request timed out."]);
  } finally {
    cloud.standIn.faults.decisionsDelayMs = 0;
  }
});

test("client.alpha is Cloud only and closes with the client", async () => {
  const remote = new LettaAgentClient({ backend: "remote", url: "ws://127.0.0.1:9/ws" });
  assert.throws(() => remote.alpha, { name: "LettaUnsupportedError", message: 'client.alpha is only available with backend: "cloud".' });
  const other = new LettaAgentClient({ backend: "cloud", apiKey: cloud.apiKey, apiBaseUrl: cloud.standIn.url });
  const { decisions } = other.alpha;
  await other.close();
  assert.throws(() => other.alpha, { message: "LettaAgentClient is closed" });
  await assert.rejects(decisions.evaluate({ state: "s", questions }), { message: "LettaAgentClient is closed" });
});

test("a wrong key is a 401 APIError that does not contain the key", async () => {
  const wrongKey = `${cloud.apiKey}-wrong`;
  const wrong = new LettaAgentClient({ backend: "cloud", apiKey: wrongKey, apiBaseUrl: cloud.standIn.url });
  const error = await rejection(wrong.agents.list());
  assert.equal(error.name, "APIError");
  assert.equal(error.status, 401);
  assert.match(error.message, /^401 /);
  assert.ok(!error.message.includes(wrongKey));
});

test("the API key appears in no error and no stand-in log line", () => {
  assert.ok(errors.length >= 4, "errors were collected");
  for (const error of errors) {
    assert.ok(!String(error.message).includes(cloud.apiKey), `key in: ${error.message}`);
    assert.ok(!JSON.stringify(error).includes(cloud.apiKey));
  }
  assert.ok(cloud.lines.length > 0, "the stand-in logged its requests");
  for (const line of cloud.lines) assert.ok(!line.includes(cloud.apiKey), `key in log: ${line}`);
});
