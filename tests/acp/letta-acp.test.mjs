// acpx (from npm) drives the installed package's `letta-acp` over stdio against the REAL
// Letta Code app server with the scripted offline model: a shell command granted and denied, a
// cancel mid-turn, session/load from a second process (each turn replayed once), session/list,
// `/model`, and the cloud backend through the Cloud stand-in.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { acpx, directClient, startAcpx, stopReasonOf, updatesOf } from "./support/acp.mjs";

const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const { startPeer } = await import(join(repoRoot, "tests", "support", "real-peer.mjs"));

let peer;
let env;
let scratch;
const stamp = Date.now().toString(36);

/** A fresh project directory (acpx scopes its sessions by directory). */
const project = (name) => {
  const dir = join(scratch, "projects", name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

before(async () => {
  peer = await startPeer("acp");
  const client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  const agentId = await client.createAgent({ model: peer.model, memfs: false, name: `acp-test-${stamp}` });
  await client.close();
  scratch = mkdtempSync(join(resolve("."), "scratch-"));
  env = {
    ...process.env,
    HOME: join(scratch, "home"), // acpx keeps its session records under ~/.acpx
    LETTA_ACP_STATE_DIR: join(scratch, "state"),
    LETTA_ACP_BACKEND: "remote",
    LETTA_APP_SERVER_URL: peer.url,
    LETTA_APP_SERVER_TOKEN: peer.token,
    LETTA_AGENT_ID: agentId,
  };
  mkdirSync(env.HOME, { recursive: true });
});

after(async () => {
  await peer?.stop();
});

const indexWhere = (messages, predicate) => messages.findIndex(predicate);
/** The model select of a `configOptions` list. */
const modelOption = (configOptions) => configOptions?.find((o) => o.id === "model");

test("a granted shell command: tool_call → request_permission → completed tool_call_update with the output → agent message → end_turn", async () => {
  const marker = `granted-${stamp}`;
  const { code, messages, stderr } = await acpx(["--approve-all", "exec", `Please run \`touch ${marker}.txt && echo ${marker}\``], { cwd: project("granted"), env });
  assert.equal(code, 0, stderr);
  const call = indexWhere(messages, (m) => m.params?.update?.sessionUpdate === "tool_call" && /touch/.test(m.params.update.title));
  assert.ok(call >= 0, "a tool_call");
  const toolCallId = messages[call].params.update.toolCallId;
  assert.equal(messages[call].params.update.kind, "execute");
  const ask = indexWhere(messages, (m) => m.method === "session/request_permission");
  assert.equal(messages[ask].params.toolCall.toolCallId, toolCallId);
  assert.deepEqual(messages[ask].params.options.map((o) => o.kind), ["allow_once", "allow_always", "reject_once"]);
  const granted = indexWhere(messages, (m) => m.result?.outcome?.optionId === "allow_once");
  const done = indexWhere(messages, (m) => {
    const u = m.params?.update;
    return u?.sessionUpdate === "tool_call_update" && u.toolCallId === toolCallId && u.status === "completed" && u.content?.[0]?.content?.text?.includes(marker);
  });
  const reply = messages.findLastIndex((m) => m.params?.update?.sessionUpdate === "agent_message_chunk");
  const end = indexWhere(messages, (m) => m.result?.stopReason === "end_turn");
  const order = [call, ask, granted, done, reply, end];
  assert.ok(order.every((i) => i >= 0), `all present: ${order}`);
  assert.deepEqual([...order].sort((a, b) => a - b), order, `in order: ${order}`);
  assert.equal(messages.filter((m) => m.method === "session/request_permission").length, 1, "asked once");
  assert.doesNotMatch(stderr, new RegExp(peer.token), "the token is never logged");
});

test("--deny-all: the tool call fails and the turn still ends", async () => {
  const marker = `denied-${stamp}`;
  const { code, messages, stderr } = await acpx(["--deny-all", "exec", `Please run \`touch ${marker}.txt && echo ${marker}\``], { cwd: project("denied"), env });
  assert.equal(code, 5, `acpx's exit code after a denied permission; ${stderr}`);
  assert.ok(messages.some((m) => m.result?.outcome?.optionId === "reject_once"), "acpx rejected");
  const updates = updatesOf(messages);
  const failed = updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
  assert.equal(failed.length, 1, JSON.stringify(updates.filter((u) => u.sessionUpdate.startsWith("tool"))));
  assert.ok(!updates.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed"), "nothing completed");
  assert.equal(stopReasonOf(messages), "end_turn");
});

test("a cancel mid-turn ends the prompt with `cancelled`", async () => {
  const cwd = project("cancel");
  assert.equal((await acpx(["sessions", "new"], { cwd, env })).code, 0);
  const turn = startAcpx(["prompt", "[slow] no tools, tell me a long story"], { cwd, env });
  await turn.waitFor((m) => /agent_(thought|message)_chunk/.test(m.params?.update?.sessionUpdate ?? ""));
  const cancel = await acpx(["cancel"], { cwd, env });
  assert.equal(cancel.code, 0, cancel.stderr);
  const { messages } = await turn.done;
  assert.equal(stopReasonOf(messages), "cancelled");
  assert.ok(messages.some((m) => m.method === "session/cancel"), "acpx sent session/cancel");
});

test("a second process session/loads the session: every turn replayed once; session/list shows it", async () => {
  const cwd = project("load");
  const created = await acpx(["sessions", "new"], { cwd, env });
  const sessionId = created.messages.find((m) => m.action === "session_ensured")?.acpxSessionId;
  assert.ok(sessionId, created.stderr);
  const marker = `loaded-${stamp}`;
  const first = await acpx(["--approve-all", "prompt", `Please run \`touch ${marker}.txt && echo ${marker}\``], { cwd, env });
  assert.equal(stopReasonOf(first.messages), "end_turn", first.stderr);
  const second = await acpx(["prompt", `no tools: second turn ${marker}`], { cwd, env });
  assert.equal(stopReasonOf(second.messages), "end_turn", second.stderr);

  const other = directClient({ cwd, env });
  try {
    const init = await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities.loadSession, true);
    const loaded = await other.request("session/load", { sessionId, cwd, mcpServers: [] });
    assert.equal(loaded.modes.currentModeId, "standard");
    const replay = other.notifications.filter((n) => n.params.sessionId === sessionId).map((n) => n.params.update);
    const users = replay.filter((u) => u.sessionUpdate === "user_message_chunk").map((u) => u.content.text);
    assert.deepEqual(users, [`Please run \`touch ${marker}.txt && echo ${marker}\``, `no tools: second turn ${marker}`]);
    const calls = replay.filter((u) => u.sessionUpdate === "tool_call");
    assert.equal(calls.length, 1, JSON.stringify(calls));
    assert.equal(calls[0].status, "completed");
    assert.match(calls[0].content[0].content.text, new RegExp(marker));
    const replies = replay.filter((u) => u.sessionUpdate === "agent_message_chunk");
    assert.equal(replies.length, 2, "one reply row per turn");
    const order = replay.map((u) => u.sessionUpdate).filter((k) => k !== "agent_thought_chunk");
    assert.deepEqual(order, ["user_message_chunk", "tool_call", "agent_message_chunk", "user_message_chunk", "agent_message_chunk"]);

    const listed = await other.request("session/list", { cwd });
    assert.deepEqual(listed.sessions.map((s) => s.sessionId), [sessionId]);
    assert.equal(listed.sessions[0].cwd, cwd);
    assert.ok(listed.sessions[0].title, "a title");
    const everywhere = await other.request("session/list", {});
    assert.ok(everywhere.sessions.some((s) => s.sessionId === sessionId));
  } finally {
    assert.equal(await other.close(), 0, other.stderr());
  }
});

test("/model lists both scripted models and switches between them (no model turn)", async () => {
  const cwd = project("model");
  assert.equal((await acpx(["sessions", "new"], { cwd, env })).code, 0);
  const text = (messages) => updatesOf(messages).filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");
  const listed = await acpx(["prompt", "/model"], { cwd, env });
  assert.equal(stopReasonOf(listed.messages), "end_turn", listed.stderr);
  assert.match(text(listed.messages), new RegExp(`${peer.model}\\b.*← current`));
  assert.ok(text(listed.messages).includes(peer.model2));

  const switched = await acpx(["prompt", `/model ${peer.model2}`], { cwd, env });
  assert.equal(stopReasonOf(switched.messages), "end_turn", switched.stderr);
  const option = updatesOf(switched.messages).find((u) => u.sessionUpdate === "config_option_update");
  assert.equal(modelOption(option?.configOptions)?.currentValue, peer.model2);
  assert.match(text(switched.messages), /switched/);
  assert.ok(!updatesOf(switched.messages).some((u) => u.sessionUpdate === "agent_thought_chunk"), "no model turn");

  const again = await acpx(["prompt", "/model"], { cwd, env });
  assert.match(text(again.messages), new RegExp(`${peer.model2}\\b.*← current`));
  const back = await acpx(["prompt", `/model ${peer.model}`], { cwd, env });
  assert.equal(modelOption(updatesOf(back.messages).find((u) => u.sessionUpdate === "config_option_update")?.configOptions)?.currentValue, peer.model);
});

test("available commands: /model and the app server's own, run with execute_command without a model turn", async () => {
  const { code, messages, stderr } = await acpx(["exec", "/context-limit"], { cwd: project("commands"), env });
  assert.equal(code, 0, stderr);
  const announced = updatesOf(messages).find((u) => u.sessionUpdate === "available_commands_update");
  const names = announced?.availableCommands.map((c) => c.name) ?? [];
  assert.equal(names[0], "model");
  assert.ok(names.includes("context-limit"), names.join(" "));
  assert.ok(!names.includes("upgrade-letta-code"));
  const reply = updatesOf(messages).filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");
  assert.ok(reply.length > 0 && !/failed/.test(reply), reply);
  assert.ok(!updatesOf(messages).some((u) => u.sessionUpdate === "agent_thought_chunk"), "no model turn");
  assert.equal(stopReasonOf(messages), "end_turn");
});

test("session/set_mode unrestricted: the shell command runs without asking, the mode survives a reload; set_config_option switches the model", async () => {
  const cwd = project("modes");
  assert.equal((await acpx(["sessions", "new"], { cwd, env })).code, 0);
  const mode = await acpx(["set-mode", "unrestricted"], { cwd, env });
  assert.equal(mode.code, 0, mode.stderr);
  const marker = `unasked-${stamp}`;
  const turn = await acpx(["--deny-all", "prompt", `Please run \`touch ${marker}.txt && echo ${marker}\``], { cwd, env });
  assert.equal(stopReasonOf(turn.messages), "end_turn", turn.stderr);
  assert.ok(!turn.messages.some((m) => m.method === "session/request_permission"), "not asked");
  const done = updatesOf(turn.messages).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
  assert.ok(done.some((u) => u.content[0].content.text.includes(marker)), "the command ran");
  // set_config_option from a direct client (acpx's `set` races its own exiting queue owner).
  const sessionId = turn.messages.find((m) => m.method === "session/prompt")?.params.sessionId;
  const other = directClient({ cwd, env });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const loaded = await other.request("session/load", { sessionId, cwd, mcpServers: [] });
    assert.equal(loaded.modes.currentModeId, "unrestricted", "the mode chosen by another process");
    const set = await other.request("session/set_config_option", { sessionId, configId: "model", value: peer.model2 });
    assert.equal(modelOption(set.configOptions).currentValue, peer.model2);
    await assert.rejects(other.request("session/set_config_option", { sessionId, configId: "nope", value: "x" }), /unknown config option/);
  } finally {
    assert.equal(await other.close(), 0, other.stderr());
  }
});

test("prompt content: text, an embedded resource and a resource link reach the model", async () => {
  const cwd = project("content");
  const other = directClient({ cwd, env });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await other.request("session/new", { cwd, mcpServers: [] });
    const marker = `resource-${stamp}`;
    const result = await other.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "no tools: please read this " },
        { type: "resource", resource: { uri: "file:///project/notes.txt", mimeType: "text/plain", text: `the note says ${marker}` } },
        { type: "resource_link", uri: "file:///project/link.md", name: "link.md" },
      ],
    });
    assert.equal(result.stopReason, "end_turn");
    const log = readFileSync(peer.llmLog, "utf8");
    assert.ok(log.includes(marker), "the resource text reached the model");
    assert.ok(log.includes("file:///project/link.md"), "the link reached the model");
  } finally {
    assert.equal(await other.close(), 0, other.stderr());
  }
});

test("LETTA_ACP_BACKEND=cloud: a granted shell command through the Cloud stand-in (REST, managed sandbox, status relay) in front of the app server", async () => {
  const { standInFor } = await import(join(repoRoot, "tests", "cloud", "stand-in.mjs"));
  const { standIn, apiKey, lines } = await standInFor(peer, { timeLimitMs: 300_000 });
  try {
    const cloud = new LettaAgentClient({ backend: "cloud", apiKey, apiBaseUrl: standIn.url });
    const agentId = await cloud.createAgent({ model: peer.model, memfs: false, name: `acp-cloud-${stamp}` });
    await cloud.close();
    const cloudEnv = { ...env, LETTA_ACP_BACKEND: "cloud", LETTA_API_KEY: apiKey, LETTA_BASE_URL: standIn.url, LETTA_AGENT_ID: agentId };
    delete cloudEnv.LETTA_APP_SERVER_URL;
    delete cloudEnv.LETTA_APP_SERVER_TOKEN;
    const marker = `cloud-${stamp}`;
    const { code, messages, stderr } = await acpx(["--approve-all", "exec", `Please run \`touch ${marker}.txt && echo ${marker}\``], { cwd: project("cloud"), env: cloudEnv });
    assert.equal(code, 0, stderr);
    const done = messages.find((m) => {
      const u = m.params?.update;
      return u?.sessionUpdate === "tool_call_update" && u.status === "completed" && u.content?.[0]?.content?.text?.includes(marker);
    });
    assert.ok(done, "the tool ran and its output came back");
    assert.equal(messages.filter((m) => m.method === "session/request_permission").length, 1, "asked once");
    assert.ok(messages.some((m) => m.result?.stopReason === "end_turn"), "the turn ended");
    const sandboxCreated = standIn.records.requests.some((r) => r.method === "POST" && /^\/v1\/agents\/[^/]+\/sandboxes$/.test(r.path));
    assert.ok(sandboxCreated, "the session ran on a managed sandbox");
    assert.doesNotMatch(stderr, new RegExp(apiKey), "the key is never logged");
    for (const line of lines) assert.doesNotMatch(line, new RegExp(apiKey));
  } finally {
    await standIn.stop();
  }
});

test("LETTA_ACP_BACKEND=local without an installed app server: initialize is still answered; session/new fails with a clear error; nothing but JSON-RPC on stdout", async () => {
  const cwd = project("no-letta");
  const direct = directClient({ cwd, env: { ...env, LETTA_ACP_BACKEND: "local", LETTA_CODE_BIN: join(scratch, "no-such-letta") } });
  try {
    const init = await direct.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.protocolVersion, 1);
    const error = await direct.request("session/new", { cwd, mcpServers: [] }).catch((e) => e);
    assert.match(error.message, /could not start .*no-such-letta.*LETTA_CODE_BIN/);
  } finally {
    assert.equal(await direct.close(), 0, direct.stderr());
  }
  assert.match(direct.stderr(), /could not start the backend: could not start .*no-such-letta/);
});

test("LETTA_ACP_BACKEND=local: starts the installed app server on loopback, creates the agent \"Letta\" and answers", async () => {
  // The peer's installed Letta Code, with a copy of its HOME (the provider pointing at the
  // scripted model): the same as a user's machine with `letta` installed and connected.
  const home = join(scratch, "local-home");
  cpSync(join(peer.dir, "home"), home, { recursive: true });
  const entry = join("node_modules", "@letta-ai", "letta-code", "letta.js");
  const lettaBin = join(repoRoot, "target", "app-server", entry); // where tests/support/real-peer.mjs installs it
  assert.ok(existsSync(lettaBin), `the peer's installed Letta Code (${lettaBin})`);
  const localEnv = { ...env, HOME: home, LETTA_ACP_BACKEND: "local", LETTA_CODE_BIN: lettaBin, LETTA_ACP_MODEL: peer.model };
  for (const name of ["LETTA_AGENT_ID", "LETTA_APP_SERVER_URL", "LETTA_APP_SERVER_TOKEN"]) delete localEnv[name];
  const cwd = project("local");
  // A direct client first (acpx does not pass the agent's stderr on).
  const direct = directClient({ cwd, env: localEnv });
  try {
    await direct.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await direct.request("session/new", { cwd, mcpServers: [] });
    assert.match(sessionId, /conv-/);
  } finally {
    assert.equal(await direct.close(), 0, direct.stderr());
  }
  assert.match(direct.stderr(), /app server listening on ws:\/\/127\.0\.0\.1:\d+/);
  // Created when the server has none yet, else reused (the local backend keeps its agents).
  assert.match(direct.stderr(), /(created|using) agent "Letta" agent-/);
  assert.doesNotMatch(direct.stderr(), /[0-9a-f]{64}/, "the capability token is never logged");
  // Then acpx: a second process finds the agent "Letta" and completes a turn.
  const { messages, stderr } = await acpx(["exec", `no tools: hello local ${stamp}`], { cwd, env: localEnv });
  assert.equal(stopReasonOf(messages), "end_turn", stderr.slice(-3000));
  assert.ok(updatesOf(messages).some((u) => u.sessionUpdate === "agent_message_chunk"), "a reply");
});

/** Pids whose command line mentions `text` (from /proc: Linux). */
function pidsMentioning(text) {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false; // ended meanwhile
      }
    });
}

test("the editor's MCP servers (session/new mcpServers): the agent calls an MCP tool; the server ends with letta-acp", async () => {
  const cwd = project("mcp");
  const files = mkdtempSync(join(scratch, "mcp-files-"));
  writeFileSync(join(files, "note.txt"), `mcp note ${stamp}\n`);
  const server = createRequire(join(resolve("."), "package.json")).resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
  const direct = directClient({ cwd, env: { ...env, LETTA_ACP_PERMISSION_MODE: "unrestricted" } });
  try {
    const init = await direct.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.deepEqual(init.agentCapabilities.mcpCapabilities, { http: true, sse: true });
    const mcpServers = [{ name: "files", command: process.execPath, args: [server, files], env: [] }];
    const { sessionId } = await direct.request("session/new", { cwd, mcpServers });
    assert.equal(pidsMentioning(files).length, 1, "the stdio server runs");
    const script = { calls: [{ name: "mcp__files__read_text_file", args: { path: join(files, "note.txt") } }], text: "read it" };
    const done = await direct.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `[[script ${JSON.stringify(script)}]]` }] });
    assert.equal(done.stopReason, "end_turn");
    const updates = direct.notifications.map((m) => m.params.update);
    const completed = updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    assert.ok(
      completed.some((u) => JSON.stringify(u.content ?? []).includes(`mcp note ${stamp}`)),
      JSON.stringify(updates.filter((u) => u.sessionUpdate?.startsWith("tool_call"))),
    );
  } finally {
    assert.equal(await direct.close(), 0, direct.stderr());
  }
  assert.deepEqual(pidsMentioning(files), [], "the stdio server ended with letta-acp");
});
