// Queued inputs that the REAL app server runs as one turn (issue 36, item 1): letta-code
// dequeues every queued message at once and answers them with one run. Each `send()` must
// still end with its own `result`, in order, so that a loop waiting for one result per send
// ends; the history holds each message once.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { startPeer } from "./support/real-peer.mjs";

/** Beyond this the loop hangs: the test fails instead (not a speed assertion). */
const HANG_LIMIT_MS = 45_000;

let peer;
let memfsAgentId;
let agentId;
const stamp = Date.now().toString(36);

before(async () => {
  peer = await startPeer();
  const client = newClient();
  try {
    memfsAgentId = await client.createAgent({ model: peer.model, memfs: true, name: `wasm-batch-memfs-${stamp}` });
    agentId = await client.createAgent({ model: peer.model, memfs: false, name: `wasm-batch-${stamp}` });
  } finally {
    await client.close();
  }
});

after(async () => {
  await peer?.stop();
});

function newClient() {
  return new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
}

/** Runs `work` or rejects after HANG_LIMIT_MS, saying what was seen. */
function withinLimit(work, seen) {
  let timer;
  const hang = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${HANG_LIMIT_MS} ms; seen: ${seen()}`)), HANG_LIMIT_MS);
  });
  return Promise.race([work, hang]).finally(() => clearTimeout(timer));
}

/** The loop a user writes: one `stream()` per result, until `count` results arrived. */
async function untilResults(session, count) {
  const results = [];
  const types = [];
  await withinLimit(
    (async () => {
      while (results.length < count) {
        for await (const message of session.stream()) {
          types.push(message.type);
          if (message.type === "result") results.push(message);
        }
      }
    })(),
    () => types.join(", "),
  );
  return results;
}

/** User messages of the conversation's history that contain `marker`. */
async function sentWith(session, marker) {
  const page = await session.listMessages({ limit: 200 });
  return page.messages.filter((m) => m.message_type === "user_message" && JSON.stringify(m.content ?? "").includes(marker));
}

test("three sends right after an approval turn's handover: three successful results in order, each message once", async () => {
  const client = newClient();
  const session = client.createSession(memfsAgentId, { canUseTool: async () => ({ behavior: "allow" }) });
  try {
    await session.send(`Please run \`echo batch-${stamp} >> batch-approved.txt\``);
    const [first] = await untilResults(session, 1);
    assert.equal(first.success, true, JSON.stringify(first));
  } finally {
    session.close(); // at once, as an app does
    await client.close();
  }

  const next = newClient();
  const resumed = next.resumeSession(session.conversationId);
  try {
    await resumed.ready();
    const markers = [1, 2, 3].map((n) => `batched-${n}-${stamp}`);
    await Promise.all(markers.map((marker) => resumed.send(`no tools, ${marker}`)));
    const results = await untilResults(resumed, 3);
    assert.deepEqual(
      results.map((r) => r.success),
      [true, true, true],
      JSON.stringify(results),
    );
    const batched = results.filter((r) => r.batch !== undefined);
    assert.ok(batched.length >= 2, `the server ran the queued inputs as one turn (what the bug needs): ${JSON.stringify(results)}`);
    const { id, size } = batched[0].batch;
    assert.deepEqual(
      batched.map((r) => [r.batch.id, r.batch.index, r.batch.size]),
      batched.map((_, i) => [id, i, size]),
      "one batch, in send order",
    );
    for (const r of batched) assert.deepEqual(r.runIds, batched[0].runIds, "the batch's run carried each input");
    for (const marker of markers) assert.equal((await sentWith(resumed, marker)).length, 1, `${marker} is in the history once`);
  } finally {
    resumed.close();
    await next.close();
  }
});

test("inputs queued behind a running turn: one result per send, the batch's in send order", async () => {
  const client = newClient();
  const session = client.createSession(agentId);
  try {
    await session.send(`[slow] no tools, a long answer ${stamp}`);
    // Wait for the slow turn to stream, then queue three behind it.
    const early = [];
    for await (const message of session.stream()) {
      early.push(message);
      if (message.type === "reasoning" || message.type === "assistant") break;
    }
    const markers = [1, 2, 3].map((n) => `queued-${n}-${stamp}`);
    await Promise.all(markers.map((marker) => session.send(`no tools, ${marker}`)));
    const results = await untilResults(session, 4);
    assert.deepEqual(
      results.map((r) => r.success),
      [true, true, true, true],
      JSON.stringify(results),
    );
    assert.equal(results[0].batch, undefined, "the slow turn ran alone");
    assert.deepEqual(
      results.slice(1).map((r) => [r.batch?.index, r.batch?.size]),
      [
        [0, 3],
        [1, 3],
        [2, 3],
      ],
    );
    for (const marker of markers) assert.equal((await sentWith(session, marker)).length, 1, `${marker} is in the history once`);
  } finally {
    session.close();
    await client.close();
  }
});
