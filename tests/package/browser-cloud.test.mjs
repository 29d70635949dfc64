// `backend: "cloud"` in headless Chromium through the browser build after plain `init()`: the
// small build is loaded eagerly and the Cloud build by the first Cloud call, while wrong options
// still throw synchronously before it is there; REST goes over the browser's own fetch to the
// Cloud stand-in (another origin: CORS) in front of the REAL app server. A page that only makes
// a remote client never fetches the Cloud build; `init({ cloud: true })` is an alias.
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

const SMALL = "/node_modules/letta-agent-wasm/wasm/web/letta_agent_wasm_bg.wasm";
const CLOUD = "/node_modules/letta-agent-wasm/wasm/web-cloud/letta_agent_wasm_bg.wasm";

/** What both Cloud pages must show: REST over the browser's fetch, typed errors, no key anywhere. */
function assertCloudPage({ result, errors, wasm }) {
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.deepEqual(errors, []);
  assert.deepEqual(wasm, [SMALL, CLOUD], "the small build first, the Cloud build on the first Cloud call");
  assert.deepEqual(result.wasm, [SMALL, CLOUD]);
  assert.ok(result.listed.includes(result.agentId), "the agent created in the page is listed");
  assert.ok(result.handles.includes(cloud.peer.model));
  assert.equal(result.wrongKey.name, "APIError");
  assert.equal(result.wrongKey.status, 401);
  assert.ok(!result.wrongKey.message.includes(cloud.apiKey));
  for (const line of cloud.lines) assert.ok(!line.includes(cloud.apiKey), `key in log: ${line}`);
}

/** The page after plain `init()`, opened once for the two tests that read it. */
let plainPage;
const openPlainPage = () => (plainPage ??= runPage());

test("plain init(): Cloud agents and models over the browser's fetch, the Cloud build fetched by the first Cloud call", async () => {
  assertCloudPage(await openPlainPage());
});

test("plain init(): wrong Cloud options throw synchronously, before the Cloud build is there", async () => {
  const { result } = await openPlainPage();
  assert.deepEqual(result.wasmBefore, [SMALL], "the checks ran before the Cloud build was loaded");
  assert.deepEqual(result.wrongOption, {
    name: "LettaInvalidArgumentError",
    code: "invalid_argument",
    message: "Invalid webSocketAuth. Valid values: header, query.",
  });
  assert.deepEqual(result.wrongSession, {
    name: "LettaInvalidArgumentError",
    code: "invalid_argument",
    message: "Letta Cloud createSession() cannot specify both computer and sandbox options.",
  });
});

test("init({ cloud: true }) is an alias of init()", async () => {
  assertCloudPage(await runPage("?alias"));
});

test("a page that only makes a remote client fetches the small build only", async () => {
  const { result, errors, wasm } = await runPage("?remote");
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.deepEqual(errors, []);
  assert.equal(result.remote, true);
  assert.deepEqual(wasm, [SMALL]);
  assert.deepEqual(result.wasm, [SMALL]);
});

test("a Cloud build that cannot be fetched: Cloud calls and session starts reject with LettaNotInitializedError", async () => {
  const { result, errors } = await runPage("?missing");
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.deepEqual(errors, []);
  for (const rejected of [result.listed, result.ready]) {
    assert.equal(rejected?.name, "LettaNotInitializedError", JSON.stringify(rejected));
    assert.match(rejected.message, /^The Cloud build of letta-agent-wasm could not be loaded: /);
  }
});
