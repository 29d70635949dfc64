// Every error class the package exports is the class of what it throws (issue 36, item 3):
// `instanceof`, `name`, `code` and the class's own fields, for errors built in Rust and in
// JavaScript, on the remote backend (the REAL app server) and on Cloud (the stand-in in front
// of it). One test per class; each names where its error came from.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import WebSocket from "ws";
import * as pkg from "letta-agent-wasm/client";
import { freePort } from "./support/real-peer.mjs";
import { startCloud } from "./support/cloud.mjs";

const {
  APIError,
  CloudManagedSandboxExpiredError,
  ConversationForkHydrationError,
  LettaAgentClient,
  LettaClosedError,
  LettaConnectionError,
  LettaInvalidArgumentError,
  LettaNotInitializedError,
  LettaRequestError,
  LettaStateError,
  LettaTimeoutError,
  LettaUnsupportedError,
} = pkg;

let cloud;
let remote;
let agentId;
let cloudClient;
let cloudAgentId;
const stamp = Date.now().toString(36);

before(async () => {
  cloud = await startCloud();
  const { peer } = cloud;
  remote = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  agentId = await remote.createAgent({ model: peer.model, memfs: false, name: `errors-${stamp}` });
  cloudClient = new LettaAgentClient({ backend: "cloud", apiKey: cloud.apiKey, apiBaseUrl: cloud.standIn.url, WebSocket });
  cloudAgentId = await cloudClient.createAgent({ model: peer.model, memfs: false, name: `cloud-errors-${stamp}` });
});

after(async () => {
  await remote?.close();
  await cloudClient?.close();
  await cloud?.stop();
});

/** What `promise` rejected with (fails if it resolved). */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected a rejection");
}

/** `error` is an instance of `Class` with the class's name and `code`. */
function assertClass(error, Class, name, code) {
  assert.ok(error instanceof Class, `${error?.name}: ${error?.message} is a ${name}`);
  assert.ok(error instanceof Error);
  assert.equal(error.name, name);
  assert.equal(error.code, code);
  assert.equal(error.constructor, Class);
}

test("the classes are exported, each with its name and code", () => {
  const classes = [
    [LettaInvalidArgumentError, "LettaInvalidArgumentError", "invalid_argument"],
    [LettaTimeoutError, "LettaTimeoutError", "timeout"],
    [LettaClosedError, "LettaClosedError", "closed"],
    [LettaConnectionError, "LettaConnectionError", "connection"],
    [LettaRequestError, "LettaRequestError", "request_failed"],
    [LettaStateError, "LettaStateError", "invalid_state"],
    [LettaUnsupportedError, "LettaUnsupportedError", "unsupported"],
    [LettaNotInitializedError, "LettaNotInitializedError", "not_initialized"],
  ];
  for (const [Class, name, code] of classes) assertClass(new Class("made here"), Class, name, code);
  const api = new APIError(418, "418 teapot");
  assertClass(api, APIError, "APIError", "api_error");
  assert.equal(api.status, 418);
});

test("LettaInvalidArgumentError: from JavaScript (options) and from Rust (updateModel's argument)", async () => {
  assertClass(await rejection((async () => remote.createSession(agentId, 5))()), LettaInvalidArgumentError, "LettaInvalidArgumentError", "invalid_argument");
  const session = remote.createSession(agentId);
  try {
    await session.ready();
    const fromRust = await rejection(session.updateModel(42));
    assertClass(fromRust, LettaInvalidArgumentError, "LettaInvalidArgumentError", "invalid_argument");
    assert.match(fromRust.message, /^updateModel\(\) expects/);
  } finally {
    session.close();
  }
});

test("LettaTimeoutError and LettaClosedError from Rust: a command nobody answers, then one cut short by close()", async () => {
  const session = remote.createSession(agentId);
  await session.ready();
  const timedOut = await rejection(session.sendCommand({ type: "no_such_command" }, { responseType: "never", timeoutMs: 100 }));
  assertClass(timedOut, LettaTimeoutError, "LettaTimeoutError", "timeout");
  const pending = rejection(session.sendCommand({ type: "no_such_command" }, { responseType: "never", timeoutMs: 60_000 }));
  session.close();
  assertClass(await pending, LettaClosedError, "LettaClosedError", "closed");
  assertClass(await rejection(session.listMessages()), LettaClosedError, "LettaClosedError", "closed");
});

test("LettaConnectionError from Rust: nothing listens at the URL", async () => {
  const port = await freePort();
  const client = new LettaAgentClient({ backend: "remote", url: `ws://127.0.0.1:${port}/ws`, WebSocket });
  try {
    const error = await rejection(client.createSession("agent-nowhere", { reconnect: false }).ready());
    assertClass(error, LettaConnectionError, "LettaConnectionError", "connection");
  } finally {
    await client.close();
  }
});

test("LettaRequestError from Rust: the server refuses to resume a conversation that does not exist", async () => {
  const error = await rejection(remote.resumeSession(`conv-missing-${stamp}`).ready());
  assertClass(error, LettaRequestError, "LettaRequestError", "request_failed");
});

test("LettaStateError: from Rust (updateModel on a stateless session) and from JavaScript (initialize twice)", async () => {
  const stateless = remote.createSession(agentId, { stateless: true });
  try {
    await stateless.ready();
    assertClass(await rejection(stateless.updateModel("openai-compatible/x")), LettaStateError, "LettaStateError", "invalid_state");
    assertClass(await rejection(stateless.initialize()), LettaStateError, "LettaStateError", "invalid_state");
  } finally {
    stateless.close();
  }
});

test("LettaUnsupportedError: a Cloud-only API on the remote backend", () => {
  assert.throws(() => remote.repositories.list(), (error) => {
    assertClass(error, LettaUnsupportedError, "LettaUnsupportedError", "unsupported");
    return true;
  });
});

test("LettaNotInitializedError: the browser build used before init()", async () => {
  // The browser entry (the `browser` export condition) in a Node process: nothing is loaded
  // until `init()`, so the first call throws.
  const script = `
    const pkg = await import("letta-agent-wasm/client");
    try { pkg.createTranscriptAccumulator(); console.log("no error"); }
    catch (e) { console.log(JSON.stringify({ instance: e instanceof pkg.LettaNotInitializedError, name: e.name, code: e.code })); }`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--conditions=browser", "--input-type=module", "-e", script]);
  assert.deepEqual(JSON.parse(stdout.trim()), { instance: true, name: "LettaNotInitializedError", code: "not_initialized" });
});

test("APIError from Rust on Cloud: a 404 with its status", async () => {
  const error = await rejection(cloudClient.computers.get(`device-missing-${stamp}`));
  assertClass(error, APIError, "APIError", "api_error");
  assert.equal(error.status, 404);
});

test("CloudManagedSandboxExpiredError from Rust on Cloud: the pre-turn refresh answers 404", async () => {
  const session = cloudClient.createSession(cloudAgentId, {});
  try {
    await session.ready();
    cloud.standIn.faults.expireSandboxes = true;
    const error = await rejection(session.send("no tools, expired"));
    assertClass(error, CloudManagedSandboxExpiredError, "CloudManagedSandboxExpiredError", "managed_sandbox_expired");
    assert.match(error.sandboxId, /^sbx-/);
    assert.equal(error.conversationId, session.conversationId);
  } finally {
    cloud.standIn.faults.expireSandboxes = false;
    session.close();
  }
});

test("ConversationForkHydrationError on both backends: the fork cannot be read back", async () => {
  // Remote: a socket that misnames the fork, so reading it back fails (a LettaRequestError from Rust).
  const Misnaming = class extends WebSocket {
    constructor(...args) {
      super(...args);
      const emit = this.emit.bind(this);
      this.emit = (event, data, ...rest) => {
        if (event === "message" && String(data).includes('"conversation_fork_response"')) {
          const frame = JSON.parse(String(data));
          frame.conversation = { ...frame.conversation, id: `conv-gone-${stamp}` };
          return emit(event, Buffer.from(JSON.stringify(frame)), ...rest);
        }
        return emit(event, data, ...rest);
      };
    }
  };
  const { peer } = cloud;
  const misnamed = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket: Misnaming });
  try {
    const session = misnamed.createSession(agentId);
    const { conversationId } = await session.ready();
    session.close();
    const error = await rejection(misnamed.conversations.fork(conversationId));
    assertClass(error, ConversationForkHydrationError, "ConversationForkHydrationError", "conversation_fork_hydration");
    assert.equal(error.conversationId, `conv-gone-${stamp}`);
    assert.ok(error.cause instanceof LettaRequestError, `cause: ${error.cause?.name}`);
  } finally {
    await misnamed.close();
  }
  // Cloud: a fetch that misnames the fork, so the REST read-back fails (an APIError).
  const misnamingFetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input.url ?? input).includes("/fork")) return response;
    const body = await response.json();
    return Response.json({ ...body, id: `conv-gone-${stamp}` }, { status: response.status });
  };
  const cloudMisnamed = new LettaAgentClient({ backend: "cloud", apiKey: cloud.apiKey, apiBaseUrl: cloud.standIn.url, WebSocket, fetch: misnamingFetch });
  try {
    const session = cloudMisnamed.createSession(cloudAgentId, {});
    const { conversationId } = await session.ready();
    session.close();
    const error = await rejection(cloudMisnamed.conversations.fork(conversationId));
    assertClass(error, ConversationForkHydrationError, "ConversationForkHydrationError", "conversation_fork_hydration");
    assert.ok(error.cause instanceof APIError, `cause: ${error.cause?.name} ${error.cause?.status}`);
  } finally {
    await cloudMisnamed.close();
  }
});
