// createChat() through the installed package against the REAL app server (issue 38): approvals
// answered through the snapshot, stop(), the server's queue, a second store on the same
// conversation (a page reload), an approval left pending by a disposed store, and a cut
// connection (through the fault proxy).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { LettaAgentClient, createChat } from "letta-agent-wasm/client";
import { startPeer } from "./support/real-peer.mjs";
import { startFaultProxy, TO_CLIENT } from "./support/fault-proxy.mjs";

/** Beyond this a wait is a hang: the test fails (not a speed assertion). */
const WAIT_LIMIT_MS = 45_000;

let peer;
let client;
let agentId;
let workspace;
const stamp = Date.now().toString(36);
const chats = [];

before(async () => {
  peer = await startPeer();
  client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  agentId = await client.createAgent({ model: peer.model, memfs: false, name: `chat-${stamp}` });
  workspace = join(peer.dir, "chat");
  mkdirSync(workspace, { recursive: true });
});

after(async () => {
  for (const chat of chats) chat.dispose();
  await client?.close();
  await peer?.stop();
});

/** A chat that the suite disposes at the end. */
function open(options) {
  const chat = createChat({ client, throttle: 0, ...options });
  chats.push(chat);
  return chat;
}

/** Resolves with the first snapshot for which `check` holds (the current one included). */
function until(chat, check, what) {
  return new Promise((resolve, reject) => {
    const seen = [];
    const test = () => {
      const snapshot = chat.getSnapshot();
      seen.push(snapshot.status);
      if (!check(snapshot)) return false;
      clearTimeout(timer);
      unsubscribe();
      resolve(snapshot);
      return true;
    };
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out waiting for ${what}; statuses: ${seen.slice(-12).join(" ")}; error: ${JSON.stringify(chat.getSnapshot().error)}`));
    }, WAIT_LIMIT_MS);
    const unsubscribe = chat.subscribe(test);
    test();
  });
}

const toolRows = (snapshot) => snapshot.rows.filter((row) => row.kind === "tool_call");
const userTexts = (snapshot) => snapshot.rows.filter((row) => row.kind === "user").map((row) => row.text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim());
const lines = (file) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);

/** Every row key once. */
function assertEachOnce(snapshot) {
  const keys = snapshot.rows.map((row) => row.key);
  assert.equal(new Set(keys).size, keys.length, `duplicate rows: ${keys}`);
}

test("a tool turn approved through the snapshot: the user's message, then the tool's row with its result", async () => {
  const chat = open({ agentId });
  await until(chat, (s) => s.status === "ready", "the chat to open");
  assert.ok(chat.getSnapshot().conversationId?.length > 0);
  const file = join(workspace, "approved.txt");
  const text = `Please run \`echo approved >> ${file}\` and tell me what it printed.`;
  chat.send(text);
  const waiting = await until(chat, (s) => s.approvals.length === 1, "an approval");
  assert.equal(waiting.status, "awaiting-approval");
  assert.equal(waiting.approvals[0].toolName, "Bash");
  assert.match(JSON.stringify(waiting.approvals[0].input), /approved/);
  assert.equal(waiting.rows[0].kind, "user", "the user's own message is the first row");
  assert.equal(waiting.rows[0].text, text);
  waiting.approvals[0].allow();
  const done = await until(chat, (s) => s.status === "ready" && toolRows(s).some((row) => row.result), "the turn to end");
  assert.equal(done.approvals.length, 0);
  assert.equal(toolRows(done)[0].result.isError, false);
  assert.ok(done.rows.some((row) => row.kind === "assistant" && row.text.length > 0));
  assert.equal(lines(file), 1, "the tool ran once");
  assertEachOnce(done);
});

test("a tool call denied through the snapshot never runs, and the model hears why", async () => {
  const chat = open({ agentId });
  await until(chat, (s) => s.status === "ready", "the chat to open");
  const file = join(workspace, "denied.txt");
  chat.send(`Please run \`echo denied >> ${file}\``);
  const waiting = await until(chat, (s) => s.approvals.length === 1, "an approval");
  waiting.approvals[0].deny("not this one");
  const done = await until(chat, (s) => s.status === "ready" && toolRows(s).some((row) => row.result), "the turn to end");
  const [tool] = toolRows(done);
  assert.equal(tool.result.isError, true);
  assert.match(tool.result.content, /not this one/);
  assert.equal(lines(file), 0, "the denied command never ran");
});

test("stop() ends a streaming reply", async () => {
  const chat = open({ agentId });
  await until(chat, (s) => s.status === "ready", "the chat to open");
  chat.send("[slow] no tools, a long story please");
  await until(chat, (s) => s.rows.some((row) => row.kind === "assistant" || row.kind === "reasoning"), "the reply to stream");
  assert.equal(chat.getSnapshot().status, "streaming");
  await chat.stop();
  const stopped = await until(chat, (s) => s.status === "ready", "the turn to end");
  assert.equal(stopped.error, null, "an interrupted turn is no error");
});

test("a message queued behind a running turn is removed from the server's queue and never runs", async () => {
  const chat = open({ agentId });
  await until(chat, (s) => s.status === "ready", "the chat to open");
  chat.send("[slow] no tools, another long story");
  await until(chat, (s) => s.rows.some((row) => row.kind === "assistant" || row.kind === "reasoning"), "the reply to stream");
  const marker = `never-runs-${stamp}`;
  chat.send(`no tools, ${marker}`);
  const queued = await until(chat, (s) => s.queue.length === 1, "the server to queue it");
  assert.match(JSON.stringify(queued.queue[0].content), new RegExp(marker));
  await queued.queue[0].remove();
  await until(chat, (s) => s.queue.length === 0, "the queue to empty");
  await chat.stop();
  const done = await until(chat, (s) => s.status === "ready", "the turn to end");
  assert.ok(!userTexts(done).some((text) => text.includes(marker)), "no row for the removed message");
  const history = await client.conversations.listMessages(done.conversationId, { limit: 100 });
  assert.ok(!JSON.stringify(history).includes(marker), "the server never ran it");
});

test("a second store on the conversation (a reload) shows the same rows, each once, the user's included", async () => {
  const first = open({ agentId });
  await until(first, (s) => s.status === "ready", "the chat to open");
  first.send("no tools, the first message");
  await until(first, (s) => s.status === "ready" && s.rows.some((row) => row.kind === "assistant"), "the first turn");
  first.send("no tools, the second message");
  const before = await until(first, (s) => s.status === "ready" && s.rows.filter((row) => row.kind === "assistant").length === 2, "the second turn");
  first.dispose();
  const second = open({ conversationId: before.conversationId });
  const after = await until(second, (s) => s.status === "ready", "the reload");
  assertEachOnce(after);
  assert.deepEqual(userTexts(after), ["no tools, the first message", "no tools, the second message"]);
  assert.deepEqual(
    after.rows.map((row) => row.kind),
    before.rows.map((row) => row.kind),
  );
  assert.deepEqual(
    after.rows.filter((row) => row.kind === "assistant").map((row) => row.text),
    before.rows.filter((row) => row.kind === "assistant").map((row) => row.text),
  );
});

test("an approval pending when its store was disposed shows in the next store and can be answered", async () => {
  // letta-code 0.32.18 cancels a turn once every socket of its conversation closed, and then
  // denies a pending Bash approval as stale (it re-asks only interactive tools): the next store
  // opens while the first still holds the conversation, as a second tab or a page that loads
  // the conversation before the old one is gone does.
  const first = open({ agentId });
  await until(first, (s) => s.status === "ready", "the chat to open");
  const file = join(workspace, "carried-over.txt");
  first.send(`Please run \`echo carried >> ${file}\``);
  const waiting = await until(first, (s) => s.approvals.length === 1, "an approval");
  const { conversationId } = waiting;
  const second = open({ conversationId });
  await until(second, (s) => s.status !== "connecting", "the next store to open");
  first.dispose(); // answers nothing
  const shown = await until(second, (s) => s.approvals.length === 1, "the approval in the next store");
  assert.equal(shown.approvals[0].toolName, "Bash");
  shown.approvals[0].allow();
  await until(second, (s) => s.status === "ready" && s.approvals.length === 0 && toolRows(s).some((row) => row.result), "the turn to end");
  assert.equal(lines(file), 1, "the tool ran once");
});

test("a cut connection shows in `connection`, and the turn completes", async () => {
  let target = -1;
  const proxy = await startFaultProxy(peer.url, {
    dropAfter: { [TO_CLIENT]: 3 },
    countFrom: (text, direction) => direction === TO_CLIENT && text.includes('"type":"stream_delta"'),
    cutOnly: (index) => index === target,
  });
  const proxied = new LettaAgentClient({ backend: "remote", url: proxy.url, authToken: peer.token, WebSocket });
  try {
    const primary = proxy.connections.length; // the chat's session opens its primary next
    const chat = createChat({ client: proxied, agentId, throttle: 0, sessionOptions: { reconnect: { backoffMs: 50 } } });
    chats.push(chat);
    const connections = [];
    chat.subscribe(() => {
      const { connection, approvals } = chat.getSnapshot();
      if (connections.at(-1) !== connection) connections.push(connection);
      approvals[0]?.allow();
    });
    await until(chat, (s) => s.status === "ready", "the chat to open");
    target = primary;
    const file = join(workspace, "cut.txt");
    chat.send(`Please run \`echo cut >> ${file}\` and tell me what it printed.`);
    await until(chat, () => connections.includes("reconnecting"), "the cut to show");
    const done = await until(chat, (s) => s.status === "ready" && s.connection === "connected" && toolRows(s).some((row) => row.result), "the turn to complete");
    assert.ok(proxy.stats.cut >= 1, JSON.stringify(proxy.stats));
    assert.deepEqual(connections.slice(-2), ["reconnecting", "connected"], connections.join(" "));
    assert.equal(done.error, null, JSON.stringify(done.error));
    assertEachOnce(done);
    assert.equal(lines(file), 1, "the tool ran once");
  } finally {
    await proxied.close();
    await proxy.stop();
  }
});
