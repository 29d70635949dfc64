// SDK-hosted MCP servers (`mcpServers`, spec §1.4) through the installed package in Node, against
// the REAL app server and real MCP servers from npm: server-filesystem over stdio (a child
// process the session starts) and server-everything over Streamable HTTP. The scripted model
// (scripts/offline-model.mjs rule 0) calls the `mcp__<server>__<tool>` tools by name.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import { join } from "node:path";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { modelRequests, startPeer } from "./support/real-peer.mjs";
import { childPids, filesystemServer, isRunning, startEverythingHttp, waitFor } from "./support/mcp-servers.mjs";

let peer;
let client;
let agentId;
let everything;
let dir;

before(async () => {
  peer = await startPeer();
  everything = await startEverythingHttp();
  dir = mkdtempSync(join(tmpdir(), "letta-mcp-"));
  writeFileSync(join(dir, "hello.txt"), "greetings from the filesystem server\n");
  client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  agentId = await client.createAgent({ model: peer.model, memfs: false });
});

after(async () => {
  await client?.close();
  await everything?.close();
  await peer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const script = (value) => `[[script ${JSON.stringify(value)}]]`;

async function turn(session, message) {
  await session.send(message);
  const messages = [];
  for await (const m of session.stream()) messages.push(m);
  return messages;
}

/** The tool_result of each tool_call, by tool name (the last call of each name). */
function resultsByTool(messages) {
  const out = {};
  for (const call of messages.filter((m) => m.type === "tool_call")) {
    const result = messages.filter((m) => m.type === "tool_result" && m.toolCallId === call.toolCallId).at(-1);
    out[call.toolName] = result;
  }
  return out;
}

function mcpSession(extra = {}) {
  return client.createSession(agentId, {
    toolset: { base: "none" },
    // MCP tools are SDK-hosted tools: they go through the approval callback like any tool.
    canUseTool: async () => ({ behavior: "allow" }),
    mcpServers: {
      fs: filesystemServer(dir),
      everything: { type: "http", url: everything.url },
      ...extra,
    },
  });
}

test("a turn calls a tool of a stdio server and of an HTTP server; both results reach the stream", async () => {
  const session = mcpSession();
  try {
    const ready = await session.ready();
    assert.ok(ready.tools.includes("mcp__fs__read_text_file"), JSON.stringify(ready.tools));
    assert.ok(ready.tools.includes("mcp__everything__echo"));
    const file = join(dir, "hello.txt");
    const messages = await turn(
      session,
      script({
        calls: [
          { name: "mcp__fs__read_text_file", args: { path: file } },
          { name: "mcp__everything__echo", args: { message: "hello over http" } },
          { name: "mcp__everything__get-tiny-image", args: {} },
        ],
        text: "Both servers answered.",
      }),
    );
    const results = resultsByTool(messages);
    assert.match(results.mcp__fs__read_text_file?.content ?? "", /greetings from the filesystem server/, JSON.stringify(messages));
    assert.equal(results.mcp__fs__read_text_file.isError, false);
    assert.match(results["mcp__everything__echo"]?.content ?? "", /hello over http/);
    assert.equal(results["mcp__everything__get-tiny-image"]?.isError, false);
    const last = messages.at(-1);
    assert.equal(last.type, "result");
    assert.equal(last.success, true, JSON.stringify(last));
    assert.match(last.result, /Both servers answered/);
    // The model was offered the MCP tools with their JSON Schemas.
    const lastRequest = modelRequests(peer).at(-1);
    const echo = lastRequest.body.tools.find((t) => (t.function?.name ?? t.name) === "mcp__everything__echo");
    assert.ok(echo, "mcp__everything__echo offered");
    assert.equal((echo.function ?? echo).parameters.properties.message.type, "string");
  } finally {
    await session[Symbol.asyncDispose]();
  }
});

test("a server killed mid-session gives isError tool results; the next turn completes", async () => {
  const before = new Set(childPids());
  const session = mcpSession();
  try {
    await session.ready();
    const started = childPids().filter((pid) => !before.has(pid));
    assert.equal(started.length, 1, `one stdio server child, got ${started}`);
    assert.deepEqual((await session.mcpServerStatus()).map((s) => [s.name, s.status]), [["fs", "connected"], ["everything", "connected"]]);
    process.kill(started[0], "SIGKILL");
    assert.ok(await waitFor(() => !isRunning(started[0])), "the server died");
    const messages = await turn(
      session,
      script({ calls: [{ name: "mcp__fs__read_text_file", args: { path: join(dir, "hello.txt") } }], text: "The file server is gone." }),
    );
    const results = resultsByTool(messages);
    assert.equal(results.mcp__fs__read_text_file?.isError, true, JSON.stringify(messages));
    const [fs, http] = await session.mcpServerStatus();
    assert.equal(fs.status, "failed");
    assert.equal(fs.error, 'MCP server "fs" is no longer connected.');
    assert.equal(http.status, "connected");
    assert.match(results.mcp__fs__read_text_file.content, /fs/);
    assert.equal(messages.at(-1).success, true);
    // The other server still works in the next turn.
    const next = await turn(session, script({ calls: [{ name: "mcp__everything__echo", args: { message: "still here" } }], text: "ok" }));
    assert.match(resultsByTool(next).mcp__everything__echo?.content ?? "", /still here/);
    assert.equal(next.at(-1).success, true);
  } finally {
    await session[Symbol.asyncDispose]();
  }
});

test("a server that fails to start only loses its own tools", async () => {
  const session = mcpSession({ broken: { command: join(dir, "no-such-server") } });
  try {
    const ready = await session.ready();
    assert.ok(ready.tools.includes("mcp__everything__echo"));
    assert.ok(!ready.tools.some((name) => name.startsWith("mcp__broken__")));
    const messages = await turn(session, script({ calls: [{ name: "mcp__everything__echo", args: { message: "despite broken" } }], text: "ok" }));
    assert.match(resultsByTool(messages).mcp__everything__echo?.content ?? "", /despite broken/);
    // Each server's status, in configuration order: the broken one says why.
    const statuses = await session.mcpServerStatus();
    assert.deepEqual(statuses.map((s) => [s.name, s.status]), [["fs", "connected"], ["everything", "connected"], ["broken", "failed"]]);
    assert.ok(statuses[0].tools.includes("mcp__fs__read_text_file"), JSON.stringify(statuses[0]));
    assert.ok(statuses[1].tools.includes("mcp__everything__echo"));
    assert.deepEqual(statuses[2].tools, []);
    assert.match(statuses[2].error, /^MCP server "broken" failed to start: /);
    assert.equal("error" in statuses[0], false);
  } finally {
    await session[Symbol.asyncDispose]();
  }
});

test("a server that answers with an authorization challenge needs auth; a session without servers has none", async () => {
  const challenge = createServer((request, response) => {
    response.writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer error="invalid_token"' });
    response.end(JSON.stringify({ error: "authorization_required" }));
  });
  await new Promise((ready) => challenge.listen(0, "127.0.0.1", ready));
  const url = `http://127.0.0.1:${challenge.address().port}/mcp`;
  const session = client.createSession(agentId, { toolset: { base: "none" }, mcpServers: { locked: { type: "http", url } } });
  const plain = client.createSession(agentId);
  try {
    const [locked] = await session.mcpServerStatus();
    assert.equal(locked.status, "needs-auth", JSON.stringify(locked));
    assert.deepEqual(locked.tools, []);
    assert.deepEqual(await plain.mcpServerStatus(), []);
  } finally {
    plain.close();
    await session[Symbol.asyncDispose]();
    challenge.closeAllConnections();
    await new Promise((done) => challenge.close(done));
  }
});

test("close() ends the stdio child process and the HTTP session", async () => {
  const before = new Set(childPids());
  const session = mcpSession();
  await session.ready();
  const started = childPids().filter((pid) => !before.has(pid));
  assert.equal(started.length, 1, `one stdio server child, got ${started}`);
  assert.ok(isRunning(started[0]));
  const httpSession = everything.opened.at(-1);
  session.close();
  assert.ok(await waitFor(() => !isRunning(started[0])), `pid ${started[0]} still runs after close()`);
  assert.ok(await waitFor(() => everything.terminated.includes(httpSession)), "the HTTP session was terminated");
  assert.deepEqual(childPids().filter((pid) => !before.has(pid)), []);
});

test("mcpServers validation uses typed errors (entries are checked when the session starts)", async () => {
  const rejects = async (mcpServers, message) => {
    const session = client.createSession(agentId, { mcpServers });
    await assert.rejects(session.ready(), (e) => e.name === "LettaInvalidArgumentError" && e.message === message);
    session.close();
  };
  await rejects([], "Invalid mcpServers. Expected an object keyed by server name.");
  await rejects({ a: { type: "stdio" } }, "Invalid mcpServers.a.command. Expected a non-empty string.");
  await rejects({ a: { type: "http", url: "ftp://x" } }, "Invalid mcpServers.a.url. Expected an http(s) URL.");
  await rejects({ a: { type: "ws", url: "http://x" } }, "Invalid mcpServers.a.type 'ws'. Valid values: stdio, http, sse.");
  await rejects({ a: { command: "x", env: { N: 1 } } }, "Invalid mcpServers.a.env. Expected a string record.");
});
