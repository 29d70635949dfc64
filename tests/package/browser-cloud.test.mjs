// `backend: "cloud"` in headless Chromium through the browser build: `init({ cloud: true })`
// loads the Cloud build (and only that .wasm); REST goes over the browser's own fetch to the
// Cloud stand-in (another origin: CORS) in front of the REAL app server. Plain `init()` keeps the
// small build and says how to get Cloud.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, startTestServer } from "./support/browser.mjs";
import { startCloud } from "./support/cloud.mjs";

let cloud;
let server;
let chromium;

before(async () => {
  cloud = await startCloud();
  server = await startTestServer(process.cwd());
  chromium = await launchBrowser();
});

after(async () => {
  await chromium?.close();
  await server?.close();
  await cloud?.stop();
});

/** Opens the Cloud page (`query`: its query string); resolves with its result and the .wasm files it fetched. */
async function runPage(query = "") {
  const page = await chromium.newPage();
  const errors = [];
  const wasm = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => {
    if (request.url().endsWith(".wasm")) wasm.push(new URL(request.url()).pathname);
  });
  const config = { apiBaseUrl: cloud.standIn.url, apiKey: cloud.apiKey, model: cloud.peer.model };
  await page.addInitScript((value) => {
    window.__cloud = value;
  }, config);
  await page.goto(`${server.url}/browser/cloud.html${query}`);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
  const result = await page.evaluate(() => window.__result);
  await page.close();
  return { result, errors, wasm };
}

test("init({ cloud: true }): agents and models over the browser's fetch, typed errors without the key", async () => {
  const { result, errors, wasm } = await runPage();
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.deepEqual(errors, []);
  assert.deepEqual(wasm, ["/node_modules/letta-agent-wasm/wasm/web-cloud/letta_agent_wasm_bg.wasm"]);
  assert.ok(result.listed.includes(result.agentId), "the agent created in the page is listed");
  assert.ok(result.handles.includes(cloud.peer.model));
  assert.equal(result.wrongKey.name, "APIError");
  assert.equal(result.wrongKey.status, 401);
  assert.ok(!result.wrongKey.message.includes(cloud.apiKey));
  for (const line of cloud.lines) assert.ok(!line.includes(cloud.apiKey), `key in log: ${line}`);
});

test("plain init(): the small build only, and a typed error that names init({ cloud: true })", async () => {
  const { result, wasm } = await runPage("?plain");
  assert.deepEqual(wasm, ["/node_modules/letta-agent-wasm/wasm/web/letta_agent_wasm_bg.wasm"]);
  assert.equal(result.error.name, "LettaNotInitializedError");
  assert.match(result.error.message, /init\(\{ cloud: true \}\)/);
});
