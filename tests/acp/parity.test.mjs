// Parity with the newest letta-acp, driven by acpx (and direct clients where acpx does not
// show what is checked) against the REAL app server with the scripted model: auth methods and
// `authenticate`, conversation titles, session/list pages, the permissions select, diff tool
// cards (live and replayed), a cancelled turn's pending permission, skills in the `/` menu.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acpx, directClient, startAcpx, stopReasonOf, updatesOf } from "./support/acp.mjs";
import { acpPeer, repoRoot, script } from "./support/peer.mjs";
import { sdkClient } from "./support/sdk-client.mjs";
import { bin } from "./support/acp.mjs";

let ctx;
before(async () => {
  ctx = await acpPeer("acp-parity");
});
after(async () => {
  await ctx?.stop();
});

const waitUntil = async (predicate, what) => {
  for (let i = 0; i < 600 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(predicate(), `waited 30 s for ${what}`);
};

test("auth: a terminal sign-in where the client runs one (the ACP registry's check), an env-var method per credential, authenticate answered", async () => {
  const cwd = ctx.project("auth");
  // The registry's check: default (local) backend, no Letta Code installed, `_meta["terminal-auth"]`.
  const local = { ...ctx.env, LETTA_ACP_BACKEND: "local", LETTA_CODE_BIN: join(ctx.scratch, "no-such-letta") };
  const registry = directClient({ cwd, env: local });
  try {
    const init = await registry.request("initialize", { protocolVersion: 1, clientCapabilities: { terminal: true, _meta: { "terminal-auth": true } } });
    assert.deepEqual(init.authMethods, [{ id: "letta-login", name: "Sign in to Letta", description: "Runs the Letta Code CLI's sign-in in a terminal", type: "terminal", args: ["--login"] }]);
    const error = await registry.request("session/new", { cwd, mcpServers: [] }).catch((e) => e);
    assert.match(error.message, /could not start .*no-such-letta.*LETTA_CODE_BIN/);
  } finally {
    assert.equal(await registry.close(), 0, registry.stderr());
  }
  // ACP: a terminal method only for a client that enabled terminal auth.
  const plain = directClient({ cwd, env: local });
  try {
    assert.deepEqual((await plain.request("initialize", { protocolVersion: 1, clientCapabilities: {} })).authMethods, []);
    const modern = directClient({ cwd, env: local });
    const init = await modern.request("initialize", { protocolVersion: 1, clientCapabilities: { auth: { terminal: true } } });
    assert.equal(init.authMethods[0]?.type, "terminal");
    await modern.close();
  } finally {
    await plain.close();
  }

  // `letta-acp --login` runs the CLI's sign-in (`letta setup`) with the terminal inherited.
  const stub = join(ctx.scratch, "letta-stub.mjs");
  writeFileSync(stub, `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(join(ctx.scratch, "stub-args.json"))}, JSON.stringify(process.argv.slice(2))); process.exit(7);\n`);
  const login = spawnSync(bin("letta-acp"), ["--login"], { env: { ...local, LETTA_CODE_BIN: stub }, input: "", timeout: 30_000, encoding: "utf8" });
  assert.equal(login.status, 7, login.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(ctx.scratch, "stub-args.json"), "utf8")), ["setup"]);

  // remote: acpx takes the token from ACPX_AUTH_<METHOD>, starts letta-acp with it and calls authenticate.
  const withoutToken = { ...ctx.env, ACPX_AUTH_LETTA_APP_SERVER_TOKEN: ctx.peer.token };
  delete withoutToken.LETTA_APP_SERVER_TOKEN;
  const run = await acpx(["exec", `no tools: authenticated ${ctx.stamp}`], { cwd, env: withoutToken });
  const offered = run.messages.find((m) => m.result?.authMethods)?.result.authMethods;
  assert.deepEqual(offered?.map((m) => [m.id, m.type, m.vars?.[0]?.name]), [["letta-app-server-token", "env_var", "LETTA_APP_SERVER_TOKEN"]]);
  const authenticate = run.messages.find((m) => m.method === "authenticate");
  assert.equal(authenticate?.params.methodId, "letta-app-server-token", run.stderr);
  assert.ok(run.messages.some((m) => m.id === authenticate.id && m.result && !m.error), "authenticate answered");
  assert.equal(stopReasonOf(run.messages), "end_turn", run.stderr);

  // A wrong token: authenticate says so (auth_required), without the token in the message.
  const wrong = directClient({ cwd, env: { ...ctx.env, LETTA_APP_SERVER_TOKEN: "wrong-token-0123456789" } });
  try {
    await wrong.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const refused = await wrong.request("authenticate", { methodId: "letta-app-server-token" }).catch((e) => e);
    assert.equal(refused.rpc?.code, -32000, refused.message);
    assert.doesNotMatch(JSON.stringify(refused.rpc), /wrong-token-0123456789/);
    const terminalMethod = await wrong.request("authenticate", { methodId: "letta-login" }).catch((e) => e);
    assert.equal(terminalMethod.rpc?.code, -32602);
    const unknown = await wrong.request("authenticate", { methodId: "nope" }).catch((e) => e);
    assert.equal(unknown.rpc?.code, -32602);
  } finally {
    await wrong.close();
  }
  assert.doesNotMatch(wrong.stderr(), /wrong-token-0123456789/, "the token is never logged");
});

test("a title after the first prompt: the conversation's summary, a session_info_update, and session/list shows it; later prompts keep it", async () => {
  const cwd = ctx.project("title");
  assert.equal((await acpx(["sessions", "new"], { cwd, env: ctx.env })).code, 0);
  const first = await acpx(["prompt", `  "Explain   the ${ctx.stamp} build"  `], { cwd, env: ctx.env });
  assert.equal(stopReasonOf(first.messages), "end_turn", first.stderr);
  const title = `Explain the ${ctx.stamp} build`;
  const info = updatesOf(first.messages).filter((u) => u.sessionUpdate === "session_info_update");
  assert.deepEqual(info.map((u) => u.title), [title]);
  const sessionId = first.messages.find((m) => m.method === "session/prompt").params.sessionId;
  assert.equal((await ctx.client.conversations.retrieve(sessionId)).summary, title);
  const second = await acpx(["prompt", "no tools: something else"], { cwd, env: ctx.env });
  assert.equal(stopReasonOf(second.messages), "end_turn", second.stderr);
  assert.ok(!updatesOf(second.messages).some((u) => u.sessionUpdate === "session_info_update"), "titled once");
  const other = directClient({ cwd, env: ctx.env });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const listed = await other.request("session/list", { cwd });
    assert.deepEqual(listed.sessions.map((s) => [s.sessionId, s.title]), [[sessionId, title]]);
  } finally {
    await other.close();
  }
});

test("session/list pages 50 records at a time with a cursor, pruning archived and other agents' conversations", async () => {
  const cwd = ctx.project("list");
  const otherAgent = await ctx.client.createAgent({ model: ctx.peer.model, memfs: false, name: `other-${ctx.stamp}` });
  const ours = [];
  for (let i = 0; i < 53; i++) ours.push((await ctx.client.conversations.create({ agentId: ctx.agentId, summary: `listed ${i}` })).id);
  const archived = (await ctx.client.conversations.create({ agentId: ctx.agentId, summary: "archived" })).id;
  await ctx.client.conversations.update(archived, { archived: true });
  const foreign = (await ctx.client.conversations.create({ agentId: otherAgent, summary: "foreign" })).id;
  // Records newest first: ours[0] … with the archived and the foreign one among the first 50.
  const at = (i) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0) - i * 1000).toISOString();
  const records = ours.map((sessionId, i) => ({ sessionId, cwd, updatedAt: at(i + (i >= 10 ? 2 : 0)) }));
  records.push({ sessionId: archived, cwd, updatedAt: at(10) }, { sessionId: foreign, cwd, updatedAt: at(11) });
  const stateDir = join(ctx.scratch, "state-list");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, "sessions.json"), JSON.stringify(records));
  const other = directClient({ cwd, env: { ...ctx.env, LETTA_ACP_STATE_DIR: stateDir } });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const first = await other.request("session/list", { cwd });
    assert.equal(first.sessions.length, 48, "50 records, 2 pruned");
    assert.deepEqual(first.sessions.map((s) => s.sessionId), ours.slice(0, 48));
    assert.equal(first.sessions[0].title, "listed 0");
    assert.ok(first.nextCursor, "a cursor to the next page");
    const second = await other.request("session/list", { cwd, cursor: first.nextCursor });
    assert.deepEqual(second.sessions.map((s) => s.sessionId), ours.slice(48));
    assert.equal(second.nextCursor, undefined, "the last page");
    const kept = JSON.parse(readFileSync(join(stateDir, "sessions.json"), "utf8")).map((r) => r.sessionId);
    assert.ok(!kept.includes(archived) && !kept.includes(foreign), "archived and foreign records pruned");
    assert.equal(kept.length, 53);
    const bad = await other.request("session/list", { cwd, cursor: "not-a-cursor" }).catch((e) => e);
    assert.equal(bad.rpc?.code, -32602);
  } finally {
    await other.close();
  }
});

test("the permissions select in configOptions switches the mode, in step with session/set_mode", async () => {
  const cwd = ctx.project("permissions");
  const editor = await sdkClient({ cwd, env: ctx.env, permission: () => "reject_once" });
  try {
    await editor.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const created = await editor.request("session/new", { cwd, mcpServers: [] });
    const { sessionId } = created;
    assert.deepEqual(created.configOptions.map((o) => [o.id, o.category]), [["permissions", "mode"], ["model", "model"]]);
    assert.equal(created.configOptions[0].currentValue, "standard");
    assert.deepEqual(created.configOptions[0].options.map((o) => o.value), ["standard", "acceptEdits", "unrestricted"]);
    const set = await editor.request("session/set_config_option", { sessionId, configId: "permissions", value: "unrestricted" });
    assert.equal(set.configOptions[0].currentValue, "unrestricted");
    await waitUntil(() => editor.updatesOf(sessionId).some((u) => u.sessionUpdate === "current_mode_update"), "current_mode_update");
    assert.equal(editor.updatesOf(sessionId).find((u) => u.sessionUpdate === "current_mode_update").currentModeId, "unrestricted");
    const marker = join(cwd, `unasked-${ctx.stamp}.txt`);
    const done = await editor.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `Please run \`touch ${marker}\`` }] });
    assert.equal(done.stopReason, "end_turn");
    assert.equal(editor.seen.requests.filter((r) => r.method === "session/request_permission").length, 0, "not asked");
    assert.ok(existsSync(marker), "the command ran");
    await editor.request("session/set_mode", { sessionId, modeId: "acceptEdits" });
    await waitUntil(() => editor.updatesOf(sessionId).some((u) => u.sessionUpdate === "config_option_update"), "config_option_update");
    const option = editor.updatesOf(sessionId).findLast((u) => u.sessionUpdate === "config_option_update").configOptions.find((o) => o.id === "permissions");
    assert.equal(option.currentValue, "acceptEdits");
    const bad = await editor.request("session/set_config_option", { sessionId, configId: "permissions", value: "yolo" }).catch((e) => e);
    assert.equal(bad.code, -32602);
  } finally {
    assert.equal(await editor.close(), 0, editor.stderr());
  }
});

test("an edit turn's tool cards carry native diffs and locations with lines; session/load replays them from the raw history", async () => {
  const cwd = ctx.project("diff");
  const file = join(cwd, "notes.txt");
  writeFileSync(file, "one\ntwo\nthree\n");
  const created = join(cwd, "created.txt");
  const steps = { calls: [{ name: "Edit", args: { file_path: file, old_string: "two", new_string: "TWO" } }, { name: "Write", args: { file_path: created, content: "fresh\n" } }], text: "edited" };
  assert.equal((await acpx(["sessions", "new"], { cwd, env: ctx.env })).code, 0);
  const turn = await acpx(["--approve-all", "prompt", script(steps)], { cwd, env: ctx.env });
  assert.equal(stopReasonOf(turn.messages), "end_turn", turn.stderr);
  assert.equal(readFileSync(file, "utf8"), "one\nTWO\nthree\n");
  const updates = updatesOf(turn.messages);
  const editDiff = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.content?.some((c) => c.type === "diff" && c.path === file));
  assert.deepEqual(editDiff.content, [{ type: "diff", path: file, oldText: "two", newText: "TWO" }]);
  const editDone = updates.find((u) => u.toolCallId === editDiff.toolCallId && u.status === "completed");
  assert.deepEqual(editDone.locations, [{ path: file, line: 2 }], "the line the edit starts at");
  assert.deepEqual(editDone.content, editDiff.content, "the diff stays the card's content");
  const writeDiff = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.content?.some((c) => c.type === "diff" && c.path === created));
  assert.deepEqual(writeDiff.content, [{ type: "diff", path: created, oldText: null, newText: "fresh\n" }]);

  const sessionId = turn.messages.find((m) => m.method === "session/prompt").params.sessionId;
  const other = directClient({ cwd, env: ctx.env });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    await other.request("session/load", { sessionId, cwd, mcpServers: [] });
    const replayed = other.notifications.map((n) => n.params.update).filter((u) => u.sessionUpdate === "tool_call");
    assert.deepEqual(replayed.map((u) => [u.status, u.content[0].type, u.content[0].path]), [["completed", "diff", file], ["completed", "diff", created]]);
    assert.deepEqual(replayed[0].locations, [{ path: file, line: 2 }]);
  } finally {
    await other.close();
  }
});

test("shell tool cards are display-only terminals (terminal_info → terminal_output → terminal_exit) for a client that advertises _meta.terminal_output, live and replayed", async () => {
  const cwd = ctx.project("terminal-cards");
  const capabilities = { _meta: { terminal_output: true } };
  const marker = `shell-card-${ctx.stamp}`;
  const editor = directClient({ cwd, env: { ...ctx.env, LETTA_ACP_PERMISSION_MODE: "unrestricted" } });
  let sessionId;
  try {
    await editor.request("initialize", { protocolVersion: 1, clientCapabilities: capabilities });
    ({ sessionId } = await editor.request("session/new", { cwd, mcpServers: [] }));
    const done = await editor.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `Please run \`echo ${marker}\`` }] });
    assert.equal(done.stopReason, "end_turn");
  } finally {
    await editor.close();
  }
  /** The card's terminal steps: [kind, detail] per update of the shell call. */
  const steps = (updates) => {
    const id = updates.find((u) => u.sessionUpdate === "tool_call" && u.kind === "execute")?.toolCallId;
    assert.ok(id, JSON.stringify(updates.filter((u) => u.toolCallId)));
    return updates.filter((u) => u.toolCallId === id).flatMap((u) => {
      const out = [];
      if (u._meta?.terminal_info) out.push(["info", u._meta.terminal_info.terminal_id === id && u._meta.terminal_info.cwd === cwd && u.content?.[0]?.terminalId === id]);
      if (u._meta?.terminal_output) out.push(["output", u._meta.terminal_output.data]);
      if (u._meta?.terminal_exit) out.push(["exit", u._meta.terminal_exit.exit_code, u.status, u.content?.[0]?.type]);
      return out;
    });
  };
  const live = steps(editor.notifications.map((n) => n.params.update));
  assert.deepEqual(live[0], ["info", true]);
  assert.equal(live.filter(([kind]) => kind === "output").map(([, data]) => data).join(""), `${marker}\n`, "each byte once");
  assert.deepEqual(live.at(-1), ["exit", 0, "completed", "terminal"]);
  const other = directClient({ cwd, env: ctx.env });
  try {
    await other.request("initialize", { protocolVersion: 1, clientCapabilities: capabilities });
    await other.request("session/load", { sessionId, cwd, mcpServers: [] });
    assert.deepEqual(steps(other.notifications.map((n) => n.params.update)), [["info", true], ["output", `${marker}\n`], ["exit", 0, "completed", "terminal"]]);
  } finally {
    await other.close();
  }
});

test("session/cancel with a permission pending: the question is withdrawn ($/cancel_request), the call denied, the turn cancelled; the session goes on", async () => {
  const cwd = ctx.project("cancel-permission");
  const marker = join(cwd, `never-${ctx.stamp}.txt`);
  const editor = directClient({ cwd, env: ctx.env }); // answers no request: the question stays pending
  try {
    await editor.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await editor.request("session/new", { cwd, mcpServers: [] });
    const turn = editor.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `Please run \`touch ${marker}\`` }] });
    await waitUntil(() => editor.requests.some((r) => r.method === "session/request_permission"), "the permission request");
    const asked = editor.requests.find((r) => r.method === "session/request_permission");
    editor.notify("session/cancel", { sessionId });
    assert.deepEqual(await turn, { stopReason: "cancelled" });
    const withdrawn = editor.notifications.find((n) => n.method === "$/cancel_request");
    assert.equal(withdrawn?.params.requestId, asked.id, "the pending question was withdrawn");
    assert.match(editor.stderr(), /denied Bash: the turn was cancelled/);
    assert.ok(!existsSync(marker), "the command never ran");
    const failed = editor.notifications.map((n) => n.params?.update).find((u) => u?.toolCallId === asked.params.toolCall.toolCallId && u.status === "failed");
    assert.ok(failed, "the card ends failed");
    const next = await editor.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "no tools: after the cancel" }] });
    assert.equal(next.stopReason, "end_turn");
  } finally {
    await editor.close();
  }
});

test("skills in the / menu: the project's .claude/skills, ~/.letta/skills and the Letta Code CLI's bundled ones; /<skill> goes to the agent as text", async () => {
  const cwd = ctx.project("skills");
  const skill = (root, name, description) => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n\nDo the thing.\n`);
  };
  skill(join(cwd, ".claude", "skills"), "project-skill", "A project skill");
  skill(join(ctx.env.HOME, ".letta", "skills"), "home-skill", "A skill of the user");
  const lettaBin = join(repoRoot, "target", "app-server", "node_modules", "@letta-ai", "letta-code", "letta.js");
  const env = { ...ctx.env, LETTA_CODE_BIN: lettaBin };
  const run = await acpx(["exec", `/project-skill please ${ctx.stamp}`], { cwd, env });
  assert.equal(stopReasonOf(run.messages), "end_turn", run.stderr);
  const menu = updatesOf(run.messages).find((u) => u.sessionUpdate === "available_commands_update").availableCommands;
  const names = menu.map((c) => c.name);
  assert.ok(names.includes("project-skill") && names.includes("home-skill"), names.join(" "));
  assert.equal(menu.find((c) => c.name === "project-skill").description, "A project skill");
  assert.ok(names.includes("creating-skills"), `a bundled skill: ${names.join(" ")}`);
  assert.ok(readFileSync(ctx.peer.llmLog, "utf8").includes(`/project-skill please ${ctx.stamp}`), "the text reached the model");
});
