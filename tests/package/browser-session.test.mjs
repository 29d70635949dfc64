// The browser build of the package completes a full tool turn in headless Chromium against the
// REAL app server (through a loopback proxy that adds the Authorization header).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, startTestServer } from "./support/browser.mjs";
import { startPeer } from "./support/real-peer.mjs";

let peer;
let server;
let chromium;

before(async () => {
  peer = await startPeer();
  server = await startTestServer(process.cwd(), peer);
  chromium = await launchBrowser();
});

after(async () => {
  await chromium?.close();
  await server?.close();
  await peer?.stop();
});

test("a tool turn with an approval runs in headless Chromium through the browser build", async () => {
  const page = await chromium.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${server.url}/browser/session.html?model=${encodeURIComponent(peer.model)}&stamp=${Date.now()}`);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
  const result = await page.evaluate(() => window.__result);
  assert.equal(result.error, undefined, result.error);
  assert.deepEqual(errors, []);
  const types = result.messages.map((m) => m.type);
  assert.ok(types.includes("reasoning"));
  const call = result.messages.find((m) => m.type === "tool_call");
  assert.equal(call.toolName, "Bash");
  assert.equal(result.approvals.length, 1);
  assert.match(result.approvals[0].command, /touch/);
  const toolResults = result.messages.filter((m) => m.type === "tool_result" && m.toolCallId === call.toolCallId);
  assert.match(toolResults.at(-1).content, /from-the-browser/);
  assert.ok(types.includes("assistant"));
  assert.equal(types.filter((t) => t === "result").length, 1);
  assert.equal(result.messages.at(-1).success, true);
  const toolRow = result.rows.find((row) => row.kind === "tool_call");
  assert.equal(toolRow.status, "complete");
  await page.close();
});
