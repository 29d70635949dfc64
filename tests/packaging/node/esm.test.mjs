// The installed package from a Node ES module: `import` of both entries, then one session turn
// (createAgent → createSession → send "no tools …" → stream until result) against the REAL app
// server, folded into transcript rows.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import * as client from "letta-agent-wasm/client";
import * as root from "letta-agent-wasm";
import { startPeer } from "./support/peer.mjs";

let peer;

before(async () => {
  peer = await startPeer();
});

after(async () => {
  await peer?.stop();
});

test("import: both entries expose the same API, instantiated on import (init() is a no-op)", async () => {
  for (const name of ["LettaAgentClient", "createTranscriptAccumulator", "extractStreamTextDelta", "init", "RepositoriesClient",
    "CloudManagedSandboxExpiredError", "ConversationForkHydrationError", "createReactNativeWebSocketConstructor"]) {
    assert.equal(typeof client[name], "function", name);
    assert.equal(root[name], client[name], `${name} is the same object in both entries`);
  }
  await client.init();
  assert.deepEqual(client.extractStreamTextDelta({ delta: { text: "hi" } }), { kind: "assistant", text: "hi" });
});

test("a session turn against the real app server", async () => {
  const lettaClient = new client.LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  try {
    const agentId = await lettaClient.createAgent({ model: peer.model, memfs: false, name: "packaging-esm" });
    assert.match(agentId, /^agent-/);
    const session = lettaClient.createSession(agentId);
    const transcript = client.createTranscriptAccumulator();
    await session.send("no tools, hello from an ES module");
    const messages = [];
    for await (const message of session.stream()) messages.push(message);
    const result = messages.at(-1);
    assert.equal(result.type, "result", JSON.stringify(result));
    assert.equal(result.success, true, JSON.stringify(result));
    assert.match(result.result, /hello from an ES module/);
    const rows = transcript.applyMany(messages);
    assert.ok(rows.some((row) => row.kind === "assistant" && row.text === result.result), JSON.stringify(rows));
    const history = transcript.rebase(await session.listMessages());
    assert.ok(history.some((row) => row.kind === "user" && row.text.includes("hello from an ES module")));
    assert.equal(history.filter((row) => row.kind === "assistant").length, 1, "the streamed reply is rebased, not duplicated");
    transcript.free();
    session.close();
  } finally {
    await lettaClient.close();
  }
});
