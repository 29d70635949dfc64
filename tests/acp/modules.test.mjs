// letta-acp's modules on their own (no app server), for what a real editor seldom provokes:
// requests to the client that are never answered (permissions outside a turn, fs), a
// question withdrawn by a cancel, the workspace check of read_editor_buffer against `..`,
// prefixes and symlinks, and the todo tools letta-code 0.32's default toolset does not offer.
// The modules are the installed package's; the client is @agentclientprotocol/sdk's, in process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { agent as acpAgent, client as acpClient, methods } from "@agentclientprotocol/sdk";

const acp = (module) => import(resolve("node_modules", "letta-agent-wasm", "acp", module));
const { permissionCallback } = await acp("permissions.js");
const { isInsideWorkspace } = await acp("workspace.js");
const { fsTools } = await acp("fs-tools.js");
const { PlanTracker } = await acp("plan.js");
const { titleFromText } = await acp("titles.js");

/**
 * An in-process editor that never answers permissions or fs reads until they are withdrawn;
 * `withdrawn` lists the methods whose request was cancelled. Resolves with the agent side's
 * client context.
 */
function silentEditor() {
  const seen = { asked: [], withdrawn: [] };
  const hang = (method) => ({ params, signal }) =>
    new Promise((resolveAnswer) => {
      seen.asked.push({ method, params });
      signal.addEventListener("abort", () => {
        seen.withdrawn.push(method);
        resolveAnswer(method === "session/request_permission" ? { outcome: { outcome: "cancelled" } } : { content: "" });
      });
    });
  const editor = acpClient({ name: "silent-editor" })
    .onRequest(methods.client.session.requestPermission, hang("session/request_permission"))
    .onRequest(methods.client.fs.readTextFile, hang("fs/read_text_file"));
  const connection = acpAgent({ name: "letta-acp-under-test" }).connect(editor);
  return { context: connection.client, seen, close: () => connection.close() };
}

const session = (overrides = {}) => ({ id: "conv-test", cwd: process.cwd(), mode: "standard", alwaysAllowed: new Set(), turn: null, ...overrides });
const waitFor = async (predicate) => {
  for (let i = 0; i < 400 && !predicate(); i++) await new Promise((r) => setTimeout(r, 25));
};

test("a permission asked outside a turn has a deadline: withdrawn from the client and denied when it passes", async () => {
  const editor = silentEditor();
  try {
    const canUseTool = permissionCallback(session(), editor.context, { outOfTurnTimeoutMs: 200 });
    const decision = await canUseTool("Bash", { command: "touch x" }, { toolCallId: "call-1" });
    assert.equal(decision.behavior, "deny");
    assert.equal(decision.interrupt, true);
    assert.match(decision.message, /permission for Bash \(outside a turn\): the client did not answer within 200 ms/);
    await waitFor(() => editor.seen.withdrawn.length > 0);
    assert.deepEqual(editor.seen.withdrawn, ["session/request_permission"]);
  } finally {
    editor.close();
  }
});

test("a cancelled turn's pending permission is withdrawn and answered deny-with-interrupt at once; later questions of that turn are not asked", async () => {
  const editor = silentEditor();
  try {
    const turn = { cancelled: false, abort: new AbortController() };
    const canUseTool = permissionCallback(session({ turn }), editor.context);
    const pending = canUseTool("Bash", { command: "rm -rf build" }, { toolCallId: "call-2" });
    await waitFor(() => editor.seen.asked.length > 0);
    turn.cancelled = true;
    turn.abort.abort(new Error("cancelled"));
    assert.deepEqual(await pending, { behavior: "deny", message: "The user cancelled the turn", interrupt: true });
    assert.deepEqual(await canUseTool("Write", { file_path: "/tmp/x", content: "" }, {}), { behavior: "deny", message: "The user cancelled the turn", interrupt: true });
    assert.equal(editor.seen.asked.length, 1, "the second call was not asked");
  } finally {
    editor.close();
  }
});

test("fs requests to the client have deadlines", async () => {
  const editor = silentEditor();
  try {
    const [read] = fsTools(session(), editor.context, { fs: { readTextFile: true } }, { timeoutMs: 200 });
    await assert.rejects(read.execute("call-3", { path: "/tmp/never-answered.txt" }), /reading \/tmp\/never-answered.txt: the client did not answer within 200 ms/);
    await assert.rejects(read.execute("call-4", { path: "relative.txt" }), /path must be an absolute path/);
  } finally {
    editor.close();
  }
});

test("read_editor_buffer runs unasked only for a real path inside the session's cwd", async () => {
  const root = mkdtempSync(join(resolve("."), "scratch-workspace-"));
  const cwd = join(root, "app");
  mkdirSync(join(cwd, "src"), { recursive: true });
  mkdirSync(join(root, "app-secrets"));
  writeFileSync(join(cwd, "src", "main.js"), "");
  writeFileSync(join(root, "app-secrets", "key"), "");
  symlinkSync(join(root, "app-secrets", "key"), join(cwd, "link-out"));
  symlinkSync(join(root, "nowhere", "x"), join(cwd, "dangling"));
  assert.equal(await isInsideWorkspace(join(cwd, "src", "main.js"), cwd), true);
  assert.equal(await isInsideWorkspace(join(cwd, "new", "unsaved.js"), cwd), true, "a new buffer inside");
  assert.equal(await isInsideWorkspace(join(root, "app-secrets", "key"), cwd), false, "a sibling with the same prefix");
  assert.equal(await isInsideWorkspace(join(cwd, "..", "app-secrets", "key"), cwd), false, "..");
  assert.equal(await isInsideWorkspace(join(cwd, "link-out"), cwd), false, "a symlink pointing out");
  assert.equal(await isInsideWorkspace(join(cwd, "dangling"), cwd), false, "a dangling symlink");
  assert.equal(await isInsideWorkspace("src/main.js", cwd), false, "a relative path");
  const editor = silentEditor();
  try {
    const canUseTool = permissionCallback(session({ cwd }), editor.context, { outOfTurnTimeoutMs: 100 });
    assert.equal((await canUseTool("read_editor_buffer", { path: join(cwd, "src", "main.js") }, {})).behavior, "allow");
    assert.equal((await canUseTool("read_editor_buffer", { path: join(cwd, "link-out") }, {})).behavior, "deny", "asked (and not answered)");
    assert.equal(editor.seen.asked.length, 1);
  } finally {
    editor.close();
  }
});

test("plan entries from TodoWrite and UpdatePlan (the whole list each call) and from the task store", () => {
  const plan = new PlanTracker();
  const todos = [
    { content: "Write the test", status: "completed", priority: "high", activeForm: "Writing" },
    { content: "Make it pass", status: "in_progress", activeForm: "Making" },
  ];
  assert.deepEqual(plan.afterResult("TodoWrite", { todos }, "ok"), [
    { content: "Write the test", status: "completed", priority: "high" },
    { content: "Make it pass", status: "in_progress", priority: "medium" },
  ]);
  assert.deepEqual(plan.afterResult("UpdatePlan", { plan: [{ step: "Ship", status: "pending" }] }, "Plan updated"), [{ content: "Ship", status: "pending", priority: "medium" }]);
  assert.equal(plan.afterResult("Bash", { command: "ls" }, ""), undefined);
  const tasks = new PlanTracker();
  assert.equal(tasks.afterResult("TaskUpdate", {}, JSON.stringify({ taskId: "task_9", subject: "not ours", status: "completed" })), undefined, "another conversation's task");
  tasks.afterResult("TaskCreate", {}, JSON.stringify({ taskId: "task_1", subject: "One", status: "pending", metadata: { priority: "low" } }));
  assert.deepEqual(tasks.afterResult("TaskUpdate", {}, JSON.stringify({ taskId: "task_1", subject: "One", status: "deleted" })), []);
});

test("titles from the first message: whitespace collapsed, one layer of quotes dropped, at most 100 characters", () => {
  assert.equal(titleFromText('  "Fix   the\nlogin bug"  '), "Fix the login bug");
  assert.equal(titleFromText("x".repeat(150)).length, 100);
  assert.equal(titleFromText(" \n "), null);
});
