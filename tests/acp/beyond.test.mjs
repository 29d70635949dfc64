// What no ACP agent did before, against the REAL app server with the scripted model: `plan`
// updates from the agent's todo tools, client-side terminals (an ACP client on
// @agentclientprotocol/sdk's client side runs them), session/close and session/resume,
// `usage_update`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { acpx, directClient, stopReasonOf, updatesOf } from "./support/acp.mjs";
import { acpPeer, script } from "./support/peer.mjs";
import { sdkClient } from "./support/sdk-client.mjs";

let ctx;
before(async () => {
  ctx = await acpPeer("acp-beyond");
});
after(async () => {
  await ctx?.stop();
});

const TERMINAL_TOOL = "run_in_editor_terminal";

test("plan entries with status and priority for a todo-writing turn, updated as they change, and again on session/load", async () => {
  const cwd = ctx.project("plan");
  const steps = {
    calls: [
      { name: "TaskCreate", args: { subject: "Read the code", description: "find the bug", metadata: { priority: "high" } } },
      { name: "TaskCreate", args: { subject: "Fix it", description: "and test" } },
      { name: "TaskUpdate", args: { taskId: "$result:0.taskId", status: "in_progress" } },
    ],
    text: "planned",
  };
  assert.equal((await acpx(["sessions", "new"], { cwd, env: ctx.env })).code, 0);
  const turn = await acpx(["prompt", script(steps)], { cwd, env: ctx.env });
  assert.equal(stopReasonOf(turn.messages), "end_turn", turn.stderr);
  const plans = updatesOf(turn.messages).filter((u) => u.sessionUpdate === "plan").map((u) => u.entries);
  assert.deepEqual(plans, [
    [{ content: "Read the code", status: "pending", priority: "high" }],
    [
      { content: "Read the code", status: "pending", priority: "high" },
      { content: "Fix it", status: "pending", priority: "medium" },
    ],
    [
      { content: "Read the code", status: "in_progress", priority: "high" },
      { content: "Fix it", status: "pending", priority: "medium" },
    ],
  ]);
  assert.ok(!turn.messages.some((m) => m.method === "session/request_permission"), "bookkeeping never asks");
  const sessionId = turn.messages.find((m) => m.method === "session/prompt").params.sessionId;
  const other = directClient({ cwd, env: ctx.env });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    await other.request("session/load", { sessionId, cwd, mcpServers: [] });
    const replayed = other.notifications.map((n) => n.params.update).filter((u) => u.sessionUpdate === "plan");
    assert.deepEqual(replayed.map((u) => u.entries), [plans.at(-1)], "the final plan, once");
  } finally {
    await other.close();
  }
});

test("client-side terminals: the command runs in the client's terminal, the card embeds it and gets the output; a denied command never runs", async () => {
  const cwd = ctx.project("terminal");
  const ran = join(cwd, `ran-${ctx.stamp}.txt`);
  const decisions = [];
  const editor = await sdkClient({ cwd, env: ctx.env, permission: (params) => decisions.shift() ?? "reject_once" });
  try {
    const init = await editor.request("initialize", { protocolVersion: 1, clientCapabilities: { terminal: true } });
    assert.equal(init.protocolVersion, 1);
    const { sessionId } = await editor.request("session/new", { cwd, mcpServers: [] });
    const command = `echo term-output-${ctx.stamp} && touch ${ran}`;
    decisions.push("allow_once");
    const done = await editor.request("session/prompt", { sessionId, prompt: [{ type: "text", text: script({ calls: [{ name: TERMINAL_TOOL, args: { command } }], text: "ran it" }) }] });
    assert.equal(done.stopReason, "end_turn");
    const asked = editor.seen.requests.filter((r) => r.method === "session/request_permission");
    assert.equal(asked.length, 1, "the permission flow of any tool");
    assert.equal(asked[0].params.toolCall.kind, "execute");
    const created = editor.seen.requests.filter((r) => r.method === "terminal/create");
    assert.equal(created.length, 1);
    assert.deepEqual([created[0].params.command, created[0].params.args, created[0].params.cwd], ["/bin/sh", ["-c", command], cwd]);
    assert.ok(existsSync(ran), "the command ran in the client's terminal");
    const [terminalId] = editor.seen.terminals.keys();
    const updates = editor.updatesOf(sessionId).filter((u) => u.toolCallId === asked[0].params.toolCall.toolCallId);
    const embedded = updates.findIndex((u) => u.content?.some((c) => c.type === "terminal" && c.terminalId === terminalId));
    assert.ok(embedded >= 0 && updates[embedded].status === "in_progress", "the terminal is in the card while it runs");
    const final = updates.at(-1);
    assert.equal(final.status, "completed");
    assert.deepEqual(final.content[0], { type: "terminal", terminalId });
    assert.match(final.content[1].content.text, new RegExp(`term-output-${ctx.stamp}\\n[\\s\\S]*\\[exit code 0\\]`));
    const methods = editor.seen.requests.map((r) => r.method).filter((m) => m.startsWith("terminal/"));
    assert.deepEqual(methods, ["terminal/create", "terminal/wait_for_exit", "terminal/output", "terminal/release"]);
    assert.ok(readFileSync(ctx.peer.llmLog, "utf8").includes(`term-output-${ctx.stamp}`), "the output reached the model");

    // Denied: no terminal is created and nothing runs.
    const denied = join(cwd, `denied-${ctx.stamp}.txt`);
    const { sessionId: second } = await editor.request("session/new", { cwd, mcpServers: [] });
    decisions.push("reject_once");
    const refused = await editor.request("session/prompt", { sessionId: second, prompt: [{ type: "text", text: script({ calls: [{ name: TERMINAL_TOOL, args: { command: `touch ${denied}` } }], text: "not run" }) }] });
    assert.equal(refused.stopReason, "end_turn");
    assert.equal(editor.seen.requests.filter((r) => r.method === "terminal/create").length, 1, "no second terminal");
    assert.ok(!existsSync(denied), "the denied command never ran");
    assert.ok(editor.updatesOf(second).some((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed"), "its card failed");
  } finally {
    assert.equal(await editor.close(), 0, editor.stderr());
  }
});

test("no terminal tool for a client that offers no terminals: the call fails as an unknown tool", async () => {
  const cwd = ctx.project("no-terminal");
  const editor = await sdkClient({ cwd, env: ctx.env });
  try {
    await editor.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await editor.request("session/new", { cwd, mcpServers: [] });
    const done = await editor.request("session/prompt", { sessionId, prompt: [{ type: "text", text: script({ calls: [{ name: TERMINAL_TOOL, args: { command: "true" } }], text: "x" }) }] });
    assert.equal(done.stopReason, "end_turn");
    const failed = editor.updatesOf(sessionId).find((u) => u.status === "failed");
    assert.match(failed?.content?.[0]?.content?.text ?? "", /not found|unknown|no such tool/i);
    assert.equal(editor.seen.requests.filter((r) => r.method === "terminal/create").length, 0);
  } finally {
    await editor.close();
  }
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

test("session/close ends the session's MCP child (checked in /proc) and keeps the connection; closing again is harmless", async () => {
  const cwd = ctx.project("close");
  const files = mkdtempSync(join(ctx.scratch, "mcp-close-"));
  writeFileSync(join(files, "note.txt"), "x\n");
  const server = createRequire(join(resolve("."), "package.json")).resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
  const editor = await sdkClient({ cwd, env: ctx.env });
  try {
    const init = await editor.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.deepEqual(init.agentCapabilities.sessionCapabilities, { list: {}, resume: {}, close: {} });
    const mcpServers = [{ name: "files", command: process.execPath, args: [server, files], env: [] }];
    const { sessionId } = await editor.request("session/new", { cwd, mcpServers });
    assert.equal(pidsMentioning(files).length, 1, "the stdio server runs");
    assert.deepEqual(await editor.request("session/close", { sessionId }), {});
    assert.deepEqual(pidsMentioning(files), [], "the session's MCP child ended");
    const gone = await editor.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }).catch((e) => e);
    assert.equal(gone.code, -32002, "a closed session is gone");
    assert.deepEqual(await editor.request("session/close", { sessionId }), {}, "idempotent");
    const { sessionId: next } = await editor.request("session/new", { cwd, mcpServers: [] });
    const reply = await editor.request("session/prompt", { sessionId: next, prompt: [{ type: "text", text: "no tools: still connected" }] });
    assert.equal(reply.stopReason, "end_turn", "the connection goes on");
  } finally {
    assert.equal(await editor.close(), 0, editor.stderr());
  }
});

test("session/resume: acpx resumes a session in its next process without a replay; a direct resume answers modes and options", async () => {
  const cwd = ctx.project("resume");
  assert.equal((await acpx(["sessions", "new"], { cwd, env: ctx.env })).code, 0);
  const first = await acpx(["prompt", `no tools: first ${ctx.stamp}`], { cwd, env: ctx.env });
  assert.equal(stopReasonOf(first.messages), "end_turn", first.stderr);
  const sessionId = first.messages.find((m) => m.method === "session/prompt").params.sessionId;
  const resumed = first.messages.find((m) => m.method === "session/resume");
  assert.equal(resumed?.params.sessionId, sessionId, "acpx resumed the session it made");
  assert.ok(!first.messages.some((m) => m.method === "session/load"));
  const other = directClient({ cwd, env: ctx.env });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const answer = await other.request("session/resume", { sessionId, cwd, mcpServers: [] });
    assert.equal(answer.modes.currentModeId, "standard");
    assert.deepEqual(answer.configOptions.map((o) => o.id), ["permissions", "model"]);
    const reply = await other.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "no tools: second" }] });
    assert.equal(reply.stopReason, "end_turn");
    const replayed = other.notifications.map((n) => n.params.update).filter((u) => u.sessionUpdate === "user_message_chunk");
    assert.deepEqual(replayed, [], "no history replay");
    const missing = await other.request("session/resume", { sessionId: "conv-does-not-exist", cwd, mcpServers: [] }).catch((e) => e);
    assert.equal(missing.rpc?.code, -32002, `an unknown conversation is not found: ${missing.message}`);
    const agentAsSession = await other.request("session/resume", { sessionId: ctx.agentId, cwd, mcpServers: [] }).catch((e) => e);
    assert.equal(agentAsSession.rpc?.code, -32602, "an agent id is no session id");
  } finally {
    await other.close();
  }
});

test("usage_update from the run's usage: tokens in context and the window's size", async () => {
  const cwd = ctx.project("usage");
  const run = await acpx(["exec", `no tools: usage ${ctx.stamp}`], { cwd, env: ctx.env });
  assert.equal(stopReasonOf(run.messages), "end_turn", run.stderr);
  const usage = updatesOf(run.messages).filter((u) => u.sessionUpdate === "usage_update");
  assert.ok(usage.length >= 1, "a usage_update");
  // The scripted model reports 120 + 40 tokens per step; the agent's window is 128,000.
  assert.deepEqual(usage.at(-1), { sessionUpdate: "usage_update", used: 160, size: 128000 });
});
