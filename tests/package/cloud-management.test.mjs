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
    [() => counted.computers.list({ limit: "five" }), /^Invalid computers\.list\(\) options: /],
    [() => counted.conversations.listMessages("conv-x", { order: 3 }), /^Invalid conversations\.listMessages\(\) options: /],
    [() => counted.repositories.files.update("repo-x", { content: "no path" }), /^Invalid repositories\.files\.update\(\) options: /],
    [() => counted.agents.repositories.attach(agentId, "repo-x", { permissions: "admin" }), /^Invalid agents\.repositories\.attach\(\) permissions: /],
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
