// The installed package against the REAL app server through a fault-injecting proxy
// (support/fault-proxy.mjs, loopback, issue 11): every frame duplicated, 10 % garbage frames,
// and the connection cut mid-turn. Each run is a fresh client, agent and conversation running
// the same script: a plain turn, then a shell-tool turn allowed by canUseTool.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient, createTranscriptAccumulator } from "letta-agent-wasm/client";
import { startPeer } from "./support/real-peer.mjs";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFaultProxy, TO_CLIENT } from "./support/fault-proxy.mjs";

/** The longest one turn may take before the test calls it a hang. */
const TURN_LIMIT_MS = 60_000;
/** The same for each turn of the cut test (a clean one takes a few seconds; none may wait for a timeout). */
const CUT_TURN_LIMIT_MS = 30_000;
const SCRIPT = ["no tools, say hello to the proxy", "Please run `echo through-the-proxy && touch proxy-probe.txt` and tell me what it printed."];
/** Messages whose number depends on the server's timing (status frames coalesce), not on the proxy. */
const STATUS_TYPES = new Set(["loop_status", "queue_update"]);

let peer;
const errors = [];
const onError = (error) => errors.push(error);

before(async () => {
  peer = await startPeer();
  process.on("uncaughtException", onError);
  process.on("unhandledRejection", onError);
});

after(async () => {
  process.off("uncaughtException", onError);
  process.off("unhandledRejection", onError);
  await peer?.stop();
});

/** Resolves with `promise`, or rejects once `ms` passed (a hang fails the test, it never stalls it). */
function within(ms, promise, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Every message of one turn, up to and including its `result` (a hang fails after `limitMs`). */
async function turn(session, text, limitMs = TURN_LIMIT_MS) {
  await session.send(text);
  const messages = [];
  await within(
    limitMs,
    (async () => {
      for await (const message of session.stream()) messages.push(message);
    })(),
    `the turn "${text}"`,
  );
  return messages;
}

/** Runs SCRIPT through a proxy with `faults`: the messages of each turn, the live rows, the approvals asked. */
async function runScript(faults) {
  const proxy = await startFaultProxy(peer.url, faults);
  const client = new LettaAgentClient({ backend: "remote", url: proxy.url, authToken: peer.token, WebSocket });
  const asked = [];
  try {
    const agentId = await client.createAgent({ model: peer.model, memfs: false });
    const session = client.createSession(agentId, {
      canUseTool: async (toolName, input) => {
        asked.push({ toolName, input });
        return { behavior: "allow" };
      },
    });
    const turns = [];
    for (const text of SCRIPT) turns.push(await turn(session, text));
    const live = createTranscriptAccumulator();
    live.applyMany(turns.flat());
    const rows = live.rows();
    session.close();
    return { turns, rows, asked, stats: proxy.stats };
  } finally {
    await client.close();
    await proxy.stop();
  }
}

/** What a message says, without the ids and times that differ between two runs. */
function said(message) {
  switch (message.type) {
    case "assistant":
    case "reasoning":
      return [message.type, message.content];
    case "tool_call":
      return [message.type, message.toolName, JSON.stringify(message.toolInput ?? null)];
    case "tool_result":
      return [message.type, message.content, Boolean(message.isError)];
    case "result":
      return [message.type, message.success, message.stopReason ?? null, message.result ?? null];
    case "stream_event":
      return [message.type, message.event?.message_type ?? null];
    default:
      return [message.type];
  }
}

const stream = (run) => run.turns.map((messages) => messages.filter((m) => !STATUS_TYPES.has(m.type)).map(said));
const rowView = (rows) =>
  rows.map((row) => ({ kind: row.kind, text: row.text, toolName: row.toolName, result: row.result?.content, isError: row.result?.isError }));

let clean;

test("a clean run through the proxy completes the script (the reference for the faults)", async () => {
  clean = await runScript({});
  assert.equal(clean.stats.duplicated + clean.stats.garbage + clean.stats.cut, 0);
  for (const messages of clean.turns) {
    assert.equal(messages.filter((m) => m.type === "result").length, 1);
    assert.equal(messages.at(-1).success, true, JSON.stringify(messages.at(-1)));
  }
  assert.match(clean.turns[1].at(-1).result, /through-the-proxy/);
  assert.equal(clean.asked.length, 1, "one approval for the one tool call");
  assert.ok(clean.rows.some((row) => row.kind === "tool_call" && row.result !== undefined));
  assert.deepEqual(errors, []);
});

test("every frame duplicated: the stream and the rows equal the clean run's, canUseTool is asked once", async () => {
  const doubled = await runScript({ duplicate: { [TO_CLIENT]: 1 } });
  assert.ok(doubled.stats.duplicated >= doubled.stats[TO_CLIENT] && doubled.stats.duplicated > 20, JSON.stringify(doubled.stats));
  assert.deepEqual(stream(doubled), stream(clean));
  assert.deepEqual(rowView(doubled.rows), rowView(clean.rows));
  assert.equal(doubled.asked.length, clean.asked.length);
  assert.deepEqual(errors, []);
});

test("10 % garbage frames (seeded): no uncaught error, every turn completes", async () => {
  // The second seed also delays each frame by 0–4 ms (order kept).
  for (const [seed, delayMs] of [[11, 0], [12, [0, 4]]]) {
    const noisy = await runScript({ garbage: { [TO_CLIENT]: 0.1 }, delayMs: { [TO_CLIENT]: delayMs }, seed });
    assert.ok(noisy.stats.garbage >= 5, `seed ${seed}: ${JSON.stringify(noisy.stats)}`);
    for (const messages of noisy.turns) {
      assert.equal(messages.filter((m) => m.type === "result").length, 1);
      assert.equal(messages.at(-1).success, true, `seed ${seed}: ${JSON.stringify(messages.at(-1))}`);
    }
    assert.match(noisy.turns[1].at(-1).result, /through-the-proxy/);
    assert.equal(noisy.asked.length, 1);
  }
  assert.deepEqual(errors, []);
});

test("both connections cut at once mid-turn: one recoverable stream_closed result; the next send() reconnects and its input reaches the server once", async () => {
  // Counting starts at the first reasoning fragment of the (slow) answer: three frames on. Both
  // sockets of the session see the same frames, so both are cut together.
  const proxy = await startFaultProxy(peer.url, {
    dropAfter: { [TO_CLIENT]: 3 },
    countFrom: (text, direction) => direction === TO_CLIENT && text.includes('"message_type":"reasoning_message"'),
  });
  const client = new LettaAgentClient({ backend: "remote", url: proxy.url, authToken: peer.token, WebSocket });
  try {
    const agentId = await client.createAgent({ model: peer.model, memfs: false });
    const session = client.createSession(agentId);
    const changes = [];
    session.onConnectionChange((change) => changes.push(change));
    const messages = await turn(session, "[slow] no tools, a long answer please");
    assert.ok(proxy.stats.cut >= 2, JSON.stringify(proxy.stats));
    const results = messages.filter((m) => m.type === "result");
    assert.equal(results.length, 1, JSON.stringify(messages.map((m) => m.type)));
    assert.equal(messages.at(-1), results[0], "the result is the last message");
    assert.equal(results[0].success, false);
    assert.equal(results[0].stopReason, "stream_closed");
    assert.equal(results[0].errorCode, "stream_closed");
    assert.equal(results[0].recoverable, true);
    assert.ok(messages.some((m) => m.type === "reasoning" || m.type === "assistant"), "the cut came mid-turn");
    assert.ok(changes.some((c) => c.type === "reconnecting" && c.live === false), JSON.stringify(changes));
    // The same session, no resumeSession: the next send() reconnects and completes a turn (on
    // connections the proxy leaves alone).
    proxy.options.dropAfter = undefined;
    const marker = `after-the-cut-${Date.now()}`;
    const next = await turn(session, `no tools, ${marker}`);
    const last = next.at(-1);
    assert.equal(last.type, "result");
    assert.equal(last.success, true, JSON.stringify(last));
    assert.ok(changes.some((c) => c.type === "reconnected"), JSON.stringify(changes));
    const page = await session.listMessages({ limit: 200 });
    const sent = page.messages.filter((m) => m.message_type === "user_message" && JSON.stringify(m.content ?? "").includes(marker));
    assert.equal(sent.length, 1, "the input reached the server once");
    session.close();
  } finally {
    await client.close();
    await proxy.stop();
  }
  assert.deepEqual(errors, []);
});

/** The script of the cut tests: a fresh session that sends at once (its start is part of the turn) an approved tool call. */
async function cutTurn(proxy, agentId, workspace, label) {
  const asked = [];
  const changes = [];
  const session = proxy.client.createSession(agentId, {
    reconnect: { backoffMs: 50 },
    canUseTool: async (toolName, input) => {
      asked.push({ toolName, input });
      return { behavior: "allow" };
    },
  });
  session.onConnectionChange((change) => changes.push(change.type));
  const file = join(workspace, `${label}.log`);
  const opened = proxy.connections.length;
  try {
    let messages;
    try {
      messages = await turn(session, `Please run \`echo ran >> ${file}\` and tell me what it printed.`, CUT_TURN_LIMIT_MS);
    } catch (error) {
      return { results: 0, hung: String(error.message ?? error).slice(0, 120) };
    }
    // Frames each of the session's connections had received when the turn ended.
    const framesAtResult = proxy.connections.slice(opened).map((c) => c.sent[TO_CLIENT]);
    const results = messages.filter((m) => m.type === "result");
    const live = createTranscriptAccumulator();
    live.applyMany(messages);
    const page = await session.listMessages({ limit: 200 });
    const project = (rows) => rows.map((row) => ({ kind: row.kind, text: row.text, toolCallId: row.toolCallId }));
    const liveRows = project(live.rebase(page));
    const keys = live.rows().map((row) => row.key);
    return {
      results: results.length,
      success: results[0]?.success,
      stop: results[0]?.stopReason,
      last: messages.at(-1)?.type,
      timedOut: messages.some((m) => /Timed out/.test(`${m.error ?? ""} ${m.errorDetail ?? ""} ${m.message ?? ""}`)),
      ran: existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0,
      asked: asked.length,
      calls: new Set(messages.filter((m) => m.type === "tool_call").map((c) => c.toolCallId)).size,
      rowsMatch: JSON.stringify(liveRows) === JSON.stringify(project(createTranscriptAccumulator().rebase(page))),
      duplicatedRows: keys.length - new Set(keys).size,
      changes: changes.join(","),
      framesAtResult,
    };
  } finally {
    session.close();
  }
}

/** `count` cut points spread evenly over frames 1..`frames` (each at most once). */
function spread(count, frames) {
  return [...new Set(Array.from({ length: count }, (_, k) => 1 + Math.round((k * (frames - 1)) / (count - 1))))];
}

test("ONE connection cut at 48 points spread over the whole turn, from the first server frame (start included), primary and standby: each turn ends once, successfully; tool, approval and rows once", async () => {
  let target = -1;
  const proxy = await startFaultProxy(peer.url, { cutOnly: (index) => index === target });
  proxy.client = new LettaAgentClient({ backend: "remote", url: proxy.url, authToken: peer.token, WebSocket });
  const workspace = join(peer.dir, "cuts");
  mkdirSync(workspace, { recursive: true });
  const outcomes = [];
  try {
    const agentId = await proxy.client.createAgent({ model: peer.model, memfs: false });
    // A clean run measures how many frames each of the session's two connections receives
    // until the turn's result: the cut points spread over those.
    const clean = await cutTurn(proxy, agentId, workspace, "clean");
    assert.equal(clean.success, true, JSON.stringify(clean));
    const [primaryFrames, standbyFrames] = clean.framesAtResult;
    const frames = { primary: primaryFrames, standby: standbyFrames };
    console.log(`# clean turn: ${frames.primary} frames on the primary, ${frames.standby} on the standby`);
    const points = [
      ...spread(24, frames.primary).map((at) => ["primary", at]),
      ...spread(24, frames.standby).map((at) => ["standby", at]),
    ];
    for (const [which, at] of points) {
      // A session opens its primary, then (once started) its standby: the next two connections.
      const primary = proxy.connections.length;
      target = primary + (which === "primary" ? 0 : 1);
      proxy.options.dropAfter = { [TO_CLIENT]: at };
      const cutsBefore = proxy.stats.cut;
      const outcome = await cutTurn(proxy, agentId, workspace, `cut-${which}-${at}`);
      target = -1;
      const { framesAtResult, ...rest } = outcome;
      outcomes.push({ which, at, wasCut: proxy.stats.cut > cutsBefore, ...rest });
    }
  } finally {
    await proxy.client.close();
    await proxy.stop();
  }
  console.log(`# cut points: ${JSON.stringify(outcomes.map((o) => [o.which, o.at, o.wasCut]))}`);
  const passed = outcomes.filter(
    (o) => o.results === 1 && o.success && o.last === "result" && !o.timedOut && o.ran === 1 && o.asked === o.calls && o.rowsMatch && o.duplicatedRows === 0,
  );
  const cutCount = outcomes.filter((o) => o.wasCut).length;
  console.log(`# ${cutCount}/${outcomes.length} turns were cut; ${passed.length}/${outcomes.length} passed (one successful result, tool ran once, approval once, live rows = history, no timeout)`);
  for (const o of outcomes) if (!passed.includes(o)) console.log(`# failed: ${JSON.stringify(o)}`);
  assert.ok(outcomes.length >= 40, `at least 40 points (${outcomes.length})`);
  assert.ok(cutCount >= outcomes.length - 4, `the points fall inside the turn (${cutCount}/${outcomes.length})`);
  for (const o of outcomes) {
    assert.equal(o.results, 1, JSON.stringify(o));
    assert.equal(o.success, true, JSON.stringify(o));
    assert.equal(o.last, "result", JSON.stringify(o));
    assert.equal(o.timedOut, false, `no timeout: ${JSON.stringify(o)}`);
    assert.equal(o.ran, 1, `the tool ran once: ${JSON.stringify(o)}`);
    assert.equal(o.asked, o.calls, `canUseTool once per call: ${JSON.stringify(o)}`);
    assert.equal(o.duplicatedRows, 0, JSON.stringify(o));
    assert.ok(o.rowsMatch, `live rows = rebased rows: ${JSON.stringify(o)}`);
  }
  assert.deepEqual(errors, []);
});
