// Losing the app server mid-turn (the REAL server, stopped by its pid): the stream yields an
// `error` then a `result`, both `stream_closed`, and the session is closed afterwards.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { startPeer } from "./support/real-peer.mjs";

let peer;

before(async () => {
  peer = await startPeer();
});

after(async () => {
  await peer?.stop();
});

test("reconnect: false: stopping the server mid-turn yields error then result with stream_closed; send() then rejects", async () => {
  const client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  const agentId = await client.createAgent({ model: peer.model, memfs: false });
  // One socket, as in the reference SDK: a drop closes the session.
  const session = client.createSession(agentId, { reconnect: false });
  await session.send("[slow] no tools, a long answer please");
  const messages = [];
  for await (const message of session.stream()) {
    messages.push(message);
    if (message.type === "reasoning" && messages.filter((m) => m.type === "reasoning").length === 1) {
      process.kill(peer.serverPid, "SIGKILL");
    }
  }
  const tail = messages.slice(-2);
  assert.equal(tail[0].type, "error", JSON.stringify(tail));
  assert.equal(tail[0].errorCode, "stream_closed");
  assert.equal(tail[0].recoverable, true);
  assert.equal(tail[1].type, "result");
  assert.equal(tail[1].success, false);
  assert.equal(tail[1].stopReason, "stream_closed");
  assert.equal(tail[1].errorCode, "stream_closed");
  assert.equal(tail[1].recoverable, true);
  assert.match(tail[1].errorDetail, /closed unexpectedly/);
  await assert.rejects(session.send("again"), (error) => error.message === "Session is closed" && error.code === "closed");
  session.close();
  await client.close();
});
