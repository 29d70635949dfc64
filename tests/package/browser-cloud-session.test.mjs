// A full Cloud session turn in headless Chromium (spec §4.6): `webSocketAuth: "query"`, so the
// browser's own WebSocket opens the two relay sockets with `token=` and no constructor options;
// REST over the browser's fetch to the Cloud stand-in in front of the REAL app server.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { launchBrowser, startTestServer } from "./support/browser.mjs";
import { startCloud } from "./support/cloud.mjs";

let cloud;
let server;
let chromium;
let agentId;

before(async () => {
  cloud = await startCloud();
  server = await startTestServer(process.cwd());
  chromium = await launchBrowser();
  const client = new LettaAgentClient({ backend: "cloud", apiKey: cloud.apiKey, apiBaseUrl: cloud.standIn.url });
  agentId = await client.createAgent({ model: cloud.peer.model, memfs: false, name: "browser-cloud-session" });
  await client.close();
});

after(async () => {
  await chromium?.close();
  await server?.close();
  await cloud?.stop();
});

test("a Cloud turn in Chromium with webSocketAuth: \"query\": one successful result, last", async () => {
  const page = await chromium.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const console = [];
  page.on("console", (message) => console.push(message.text()));
  await page.addInitScript((value) => {
    window.__cloud = value;
  }, { apiBaseUrl: cloud.standIn.url, apiKey: cloud.apiKey, agentId });
  await page.goto(`${server.url}/browser/cloud-session.html`);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 90_000 });
  const result = await page.evaluate(() => window.__result);
  await page.close();
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.deepEqual(errors, []);
  const { messages, info } = result;
  assert.equal(info.agentId, agentId);
  assert.equal(messages.filter((m) => m.type === "result").length, 1);
  assert.equal(messages.at(-1).type, "result");
  assert.equal(messages.at(-1).success, true, JSON.stringify(messages.at(-1)));
  assert.ok(messages.some((m) => m.type === "assistant"));
  const connections = cloud.standIn.records.connections;
  assert.deepEqual([...new Set(connections.map((c) => c.channel))].sort(), ["control", "stream"]);
  assert.ok(connections.every((c) => c.auth === "query"), JSON.stringify(connections));
  assert.equal(cloud.standIn.records.commands.filter((c) => c.type === "input").length, 1);
  for (const line of [...cloud.lines, ...console, JSON.stringify(messages)]) {
    assert.ok(!line.includes(cloud.apiKey), `the key leaked: ${line.slice(0, 200)}`);
  }
});
