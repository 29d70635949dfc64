// `mcpServers` in headless Chromium through the browser build, against the REAL app server and
// server-everything over Streamable HTTP: the HTTP server's tool works (its MCP client arrives
// as a lazy chunk), and a stdio entry gives the typed error.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, startTestServer } from "./support/browser.mjs";
import { startEverythingHttp, waitFor } from "./support/mcp-servers.mjs";
import { startPeer } from "./support/real-peer.mjs";

let peer;
let server;
let chromium;
let everything;

before(async () => {
  peer = await startPeer();
  everything = await startEverythingHttp();
  server = await startTestServer(process.cwd(), peer);
  chromium = await launchBrowser();
});

after(async () => {
  await chromium?.close();
  await server?.close();
  await everything?.close();
  await peer?.stop();
});

test("an HTTP MCP server's tool works in Chromium; a stdio entry gives the typed error", async () => {
  const page = await chromium.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const query = `model=${encodeURIComponent(peer.model)}&mcp=${encodeURIComponent(everything.url)}`;
  await page.goto(`${server.url}/browser/mcp.html?${query}`);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
  const result = await page.evaluate(() => window.__result);
  assert.equal(result.error, undefined, result.error);
  assert.deepEqual(errors, []);
  assert.ok(result.tools.includes("mcp__everything__echo"), JSON.stringify(result.tools));
  const call = result.messages.find((m) => m.type === "tool_call" && m.toolName === "mcp__everything__echo");
  assert.ok(call, JSON.stringify(result.messages.map((m) => m.type)));
  const toolResult = result.messages.filter((m) => m.type === "tool_result" && m.toolCallId === call.toolCallId).at(-1);
  assert.match(toolResult.content, /from the browser/);
  assert.equal(toolResult.isError, false);
  assert.equal(result.messages.at(-1).success, true);
  assert.equal(result.stdioError?.name, "LettaUnsupportedError");
  assert.equal(result.stdioError.code, "unsupported");
  assert.match(result.stdioError.message, /^mcpServers\.fs: stdio MCP servers need Node\.js/);
  assert.ok(result.chunks.some((path) => path.endsWith("/browser/mcp.js")), `the MCP chunk was fetched: ${result.chunks}`);
  assert.ok(!result.chunks.some((path) => path.endsWith("/browser/structured-output.js")), "no structured-output chunk without outputFormat");
  assert.ok(await waitFor(() => everything.terminated.length === everything.opened.length), "close() terminated the HTTP session");
  await page.close();
});
