// A conversation handed from one client to the next against the REAL Letta Code app server
// (issue 11, items 1 and 2): the first session closes right after its `result` (an aborted slow
// turn, or an approved shell command), and a new client resumes the conversation at once and
// sends. The new turn must end with its own successful `result`: never the late `turn_finished`
// of the old run, and never a queued input that the server leaves waiting forever.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { modelRequests, startPeer } from "./support/real-peer.mjs";

/** Beyond this a turn is stalled: the test fails instead of hanging (not a speed assertion). */
const STALL_LIMIT_MS = 30_000;

let peer;
let agentId;
/** An agent with memory files: the server syncs them after each turn, so its turn work ends
 * after `turn_finished`, and a pump the server scheduled on the closing socket runs late. */
let memfsAgentId;
const stamp = Date.now().toString(36);

before(async () => {
  peer = await startPeer();
  const client = newClient();
  try {
    agentId = await client.createAgent({ model: peer.model, memfs: false, name: `wasm-handover-${stamp}` });
    memfsAgentId = await client.createAgent({ model: peer.model, memfs: true, name: `wasm-handover-memfs-${stamp}` });
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

/** One turn's messages; rejects when no `result` arrives within STALL_LIMIT_MS. */
async function collect(session, onMessage) {
  const messages = [];
  let timer;
  const stalled = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const seen = messages.map((m) => m.type).join(", ");
      reject(new Error(`no result within ${STALL_LIMIT_MS} ms (stalled queue); got: ${seen}`));
    }, STALL_LIMIT_MS);
  });
  const read = (async () => {
    for await (const message of session.stream()) {
      messages.push(message);
      await onMessage?.(message);
    }
    return messages;
  })();
  try {
    return await Promise.race([read, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resumes `conversationId` on a new client, sends `text` once, returns the turn's messages. */
async function resumeAndSend(conversationId, text) {
  const client = newClient();
  const session = client.resumeSession(conversationId);
  try {
    await session.ready();
    await session.send(text);
    return await collect(session);
  } finally {
    session.close();
    await client.close();
  }
}

const results = (messages) => messages.filter((m) => m.type === "result");
const inputsSeen = (marker) =>
  modelRequests(peer).filter((request) => JSON.stringify(request.body ?? request).includes(marker)).length;

test("after an aborted turn closed at once, the next client's turn gets its own successful result", async () => {
  const client = newClient();
  const session = client.createSession(agentId);
  let aborted;
  try {
    await session.send(`[slow] tell a long story ${stamp}`);
    aborted = await collect(session, async (message) => {
      if (message.type === "reasoning" || message.type === "assistant") await session.abort();
    });
  } finally {
    session.close(); // right after the `interrupted` result, as an app does
    await client.close();
  }
  const [interrupted] = results(aborted);
  assert.equal(interrupted?.errorCode, "interrupted", JSON.stringify(interrupted));
  const oldRuns = new Set(interrupted.runIds ?? []);

  const marker = `after-abort-${stamp}`;
  const messages = await resumeAndSend(session.conversationId, `no tools, ${marker}`);
  const [result, ...more] = results(messages);
  assert.equal(more.length, 0, "exactly one result");
  assert.equal(result.success, true, `the new turn's own result, not the old run's: ${JSON.stringify(result)}`);
  assert.ok(!result.runIds.some((run) => oldRuns.has(run)), `runIds ${result.runIds} name no aborted run`);
  assert.ok(result.result?.includes(marker), `the new turn's answer: ${result.result}`);
  assert.equal(inputsSeen(marker) >= 1, true, "the model saw the new input");
});

test("after an approved shell command closed at once, the next client's queued turn runs", async () => {
  // letta-code answers the `approval_response` by scheduling its queue pump on this session's
  // socket, to run once the turn's work ends, which with memory files is after the post-turn
  // memory sync; the next client's input, queued meanwhile, waits on that pump.
  const client = newClient();
  const asked = [];
  const session = client.createSession(memfsAgentId, {
    canUseTool: async (toolName) => {
      asked.push(toolName);
      return { behavior: "allow" };
    },
  });
  let first;
  try {
    // A redirect is not auto-allowed: the server asks for approval.
    await session.send(`Please run \`echo approved-${stamp} >> handover-approved.txt\``);
    first = await collect(session);
  } finally {
    session.close(); // right after the `result`
    await client.close();
  }
  assert.equal(results(first)[0]?.success, true, JSON.stringify(results(first)[0]));
  assert.equal(asked.length, 1, `the turn paused for one approval: ${asked}`);

  const marker = `after-approval-${stamp}`;
  const messages = await resumeAndSend(session.conversationId, `no tools, ${marker}`);
  const waited = messages.some((m) => m.type === "queue_update" && m.queue.length > 0);
  assert.ok(waited, "the new input waited in the server's queue (what the stall needs)");
  const [result, ...more] = results(messages);
  assert.equal(more.length, 0, "exactly one result");
  assert.equal(result.success, true, JSON.stringify(result));
  assert.ok(result.result?.includes(marker), `the new turn's answer: ${result.result}`);
});

test("a queue stalled by a client that left without settling is re-pumped, and the input is sent once", async () => {
  // The previous client drops its socket right after the `interrupted` result (as a client
  // without a draining close does), so the server's queue pump for the cancelled run is lost.
  const sockets = [];
  const Tracked = class extends WebSocket {
    constructor(...args) {
      super(...args);
      sockets.push(this);
    }
  };
  const client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket: Tracked });
  const session = client.createSession(agentId);
  let aborted;
  try {
    await session.send(`[slow] another long story ${stamp}`);
    aborted = await collect(session, async (message) => {
      if (message.type === "reasoning" || message.type === "assistant") await session.abort();
    });
  } finally {
    for (const socket of sockets) socket.terminate();
    session.close();
    await client.close();
  }
  assert.equal(results(aborted)[0]?.errorCode, "interrupted");

  const written = [];
  const Recording = class extends WebSocket {
    send(data, ...rest) {
      written.push(JSON.parse(data).type);
      return super.send(data, ...rest);
    }
  };
  const marker = `after-drop-${stamp}`;
  const next = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket: Recording });
  const resumed = next.resumeSession(session.conversationId);
  let messages;
  try {
    await resumed.ready();
    await resumed.send(`no tools, ${marker}`);
    messages = await collect(resumed);
  } finally {
    resumed.close();
    await next.close();
  }
  const [result, ...more] = results(messages);
  assert.equal(more.length, 0, "exactly one result");
  assert.equal(result.success, true, JSON.stringify(result));
  assert.ok(result.result?.includes(marker), `the new turn's answer: ${result.result}`);
  assert.equal(written.filter((type) => type === "input").length, 1, `the input was written once: ${written}`);
  assert.ok(written.includes("resume_queue"), `the stalled queue was re-pumped: ${written}`);
});
