// Option validation through the installed package: client options, session options and
// targets fail with the reference SDK's typed errors and texts; the app-server URL is
// normalized (spec §3.1) and the token travels only in the Authorization header.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LettaAgentClient } from "letta-agent-wasm/client";

const remote = { backend: "remote", url: "ws://127.0.0.1:9/ws" };

/** Asserts that `f` throws a LettaInvalidArgumentError (or `name`) whose message matches `message`. */
function throwsTyped(f, message, name = "LettaInvalidArgumentError") {
  assert.throws(f, (error) => {
    assert.ok(error instanceof Error, "an Error instance");
    assert.equal(error.name, name);
    assert.equal(error.code, name === "LettaInvalidArgumentError" ? "invalid_argument" : "unsupported");
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

test("client options fail with the reference texts", () => {
  const portable = /supports backend: "remote" and backend: "cloud" only/;
  throwsTyped(() => new LettaAgentClient({}), portable);
  throwsTyped(() => new LettaAgentClient({ backend: "local" }), portable);
  throwsTyped(() => new LettaAgentClient({ backend: "nope" }), "Invalid Letta Code backend 'nope'. Valid values: local, remote, cloud.");
  // Cloud options are validated in Rust (crates/core/src/cloud/config.rs) when the client is made.
  assert.equal(new LettaAgentClient({ backend: "cloud", apiKey: "k" }).backend, "cloud");
  throwsTyped(() => new LettaAgentClient({ backend: "cloud", webSocketAuth: "x" }), "Invalid webSocketAuth. Valid values: header, query.");
  throwsTyped(() => new LettaAgentClient({ backend: "remote" }), "LettaAgentClient remote backend requires a non-empty url.");
  throwsTyped(() => new LettaAgentClient({ backend: "remote", url: "  " }), "LettaAgentClient remote backend requires a non-empty url.");
  throwsTyped(() => new LettaAgentClient({ ...remote, authToken: " " }), "app-server auth token must not be empty");
  for (const bad of [0, -1, 1.5, "10"]) {
    throwsTyped(() => new LettaAgentClient({ ...remote, requestTimeoutMs: bad }), "Invalid requestTimeoutMs. Expected a positive integer.");
  }
  throwsTyped(() => new LettaAgentClient({ ...remote, computer: "c" }), /^LettaAgentClient computer is only valid/);
  throwsTyped(
    () => new LettaAgentClient({ ...remote, sandbox: {} }),
    'LettaAgentClient sandbox options are only valid with backend: "cloud".',
  );
  throwsTyped(() => new LettaAgentClient({ backend: "remote", url: "ftp://h" }), "Unsupported app-server URL protocol: ftp:");
  assert.equal(new LettaAgentClient({ ...remote, requestTimeoutMs: 500, pinGlobalAgent: false }).backend, "remote");
});

test("URL errors never show credentials", () => {
  for (const url of ["nonsense?token=secret", "ws://user:secret@/x"]) {
    assert.throws(
      () => new LettaAgentClient({ backend: "remote", url }),
      (error) => error.code === "invalid_argument" && error.message.startsWith("Invalid app-server URL") && !error.message.includes("secret"),
    );
  }
});

/** The URL and constructor options a session's socket is opened with. */
async function opened(url, authToken) {
  const seen = [];
  class RecordingSocket {
    constructor(...args) {
      seen.push(args);
      throw new Error("no network in this test");
    }
  }
  const client = new LettaAgentClient({ backend: "remote", url, authToken, WebSocket: RecordingSocket });
  const session = client.resumeSession("conv-1");
  await assert.rejects(session.ready(), (error) => {
    assert.equal(error.code, "connection");
    assert.ok(!error.message.includes("tok-secret"), error.message);
    return true;
  });
  session.close();
  return seen[0];
}

test("the socket opens on the normalized URL; the token goes only in the Authorization header", async () => {
  assert.deepEqual(await opened("https://h/", "tok-secret"), ["wss://h/ws", { headers: { Authorization: "Bearer tok-secret" } }]);
  assert.deepEqual(await opened("ws://h:1/custom?a=1&channel=x&b=2#f"), ["ws://h:1/custom?a=1&b=2#f"]);
  assert.deepEqual(await opened("HTTP://h?channel=control"), ["ws://h/ws"]);
});

test("session options fail with the reference texts, synchronously", () => {
  const client = new LettaAgentClient(remote);
  const create = (options) => () => client.createSession("agent-1", options);
  throwsTyped(create({ skillSources: ["bundled", "web"] }), /^Invalid skill source 'web'/);
  throwsTyped(create({ reasoningEffort: "extreme" }), /^Invalid reasoningEffort 'extreme'/);
  throwsTyped(create({ dreaming: { trigger: "never" } }), /^Invalid dreaming.trigger/);
  throwsTyped(create({ dreaming: { behavior: "x" } }), /^Invalid dreaming.behavior/);
  throwsTyped(create({ dreaming: { stepCount: 0 } }), "Invalid dreaming.stepCount. Expected a positive integer.");
  throwsTyped(create({ stateless: "yes" }), "Invalid stateless. Expected a boolean.");
  throwsTyped(create({ stateless: true, model: "m" }), /changes persisted agent configuration/);
  throwsTyped(create({ stateless: true, resources: [] }), /changes persisted agent configuration/);
  throwsTyped(create({ toolset: { base: "weird" } }), /^Invalid toolset.base/);
  throwsTyped(create({ toolset: { include: [""] } }), /^Invalid toolset.include/);
  throwsTyped(create({ systemPrompt: "x" }), /is not supported/);
  throwsTyped(create({ computer: "x" }), /only valid with backend: "cloud"/);
  throwsTyped(create({ filesystemConfinement: "memory" }), /filesystemConfinement/);
  throwsTyped(create({ cwd: "" }), "Invalid cwd. Expected a non-empty string.");
  throwsTyped(create({ tools: [{ name: "t", execute() {} }] }), "Invalid tools[0]. Expected {name, description, parameters, execute}.");
  // Valid options (legacy permission mode names, duplicates) are accepted.
  const session = client.createSession("agent-1", {
    permissionMode: "default",
    skillSources: [],
    dreaming: {},
    toolset: { base: "codex", include: ["a", "a"] },
    canUseTool: () => ({ behavior: "allow" }),
  });
  session.close();
});

test("createAgent() options fail with the reference texts", async () => {
  const client = new LettaAgentClient(remote);
  await assert.rejects(client.createAgent({ environment: "e" }), /does not accept environment/);
  await assert.rejects(client.createAgent({ model: "" }), { message: "Invalid createAgent() model. Expected a non-empty string." });
  await assert.rejects(client.createAgent({ tags: ["a", 1] }), { message: "Invalid createAgent() tags. Expected an array of strings." });
  await assert.rejects(client.createAgent({ systemPrompt: { preset: "x" } }), { name: "LettaUnsupportedError" });
  await client.close();
});
