// End to end, Cloud mode (`scripts/demo --cloud` without a key): the demo page in headless
// Chromium on the Cloud backend, through `letta-relay --cloud` (which holds the API key) to the
// Cloud stand-in (tests/cloud/stand-in.mjs) in front of the REAL app server with the offline
// scripted model — started by the same code as the demo (scripts/demo-stack.mjs), on free
// loopback ports, and stopped afterwards. The key must appear nowhere the page can see (HTTP
// answers, socket frames, cookies, storage, the DOM) and in no log line.
// Needs the built page, the relay, and tests/cloud's and tests/e2e's npm dependencies.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudTarget, startStack } from "../../scripts/demo-stack.mjs";
import { openRelay, rest, runTurn, startRuntime } from "../cloud/client.mjs";
import { launchChromium } from "./support/chromium.mjs";
import { readTranscript, send, waitIdle } from "./support/page-reader.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const artifacts = join(repo, "target", "artifacts");
const stateDir = join(repo, "target", "e2e", "cloud-state");
const stamp = Date.now().toString(36);
const MARKER = `cloud-e2e-${stamp}`;

let stack;
let browser;
let page;
const pageErrors = [];
/** Everything the page received or sent: HTTP answers (head and body) and socket frames. */
const seen = { responses: [], frames: [], requests: [], sockets: [] };

before(async () => {
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const started = Date.now();
  stack = await startStack({
    stateDir,
    port: 0,
    mode: "offline",
    cloud: { kind: "stand-in", why: "the e2e test" },
    ttlS: 900,
    log: (line) => console.log(`# stack: ${line}`),
  });
  console.log(`# Cloud-mode stack up in ${Date.now() - started} ms at ${stack.url}`);
  assert.equal(stack.cloud.kind, "stand-in");
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("request", (request) => seen.requests.push({ url: request.url(), headers: JSON.stringify(request.headers()) }));
  page.on("response", async (response) => {
    const entry = { url: response.url(), status: response.status(), headers: JSON.stringify(await response.allHeaders()), body: "" };
    seen.responses.push(entry);
    entry.body = await response.body().then((b) => b.toString("latin1"), () => "");
  });
  page.on("websocket", (socket) => {
    seen.sockets.push(socket.url());
    socket.on("framereceived", ({ payload }) => seen.frames.push(String(payload)));
    socket.on("framesent", ({ payload }) => seen.frames.push(String(payload)));
  });
});

after(async () => {
  if (page && !page.isClosed()) await page.screenshot({ path: join(artifacts, "demo-cloud-e2e-last.png"), fullPage: true }).catch(() => {});
  await browser?.close();
  await stack?.stop();
});

test("a client holding only the relay's ticket runs a turn through letta-relay --cloud: REST, a managed sandbox, both status sockets", { timeout: 120_000 }, async () => {
  const { standIn } = stack.cloud;
  const ticket = (await fetch(new URL("/ticket", stack.url))).headers.get("set-cookie").split(";")[0];
  const viaRelay = { url: stack.url.replace(/\/$/, ""), apiKey: null };
  const call = (method, path, options = {}) => rest(viaRelay, method, path, { ...options, key: null, headers: { Cookie: ticket } });
  assert.equal((await rest(viaRelay, "GET", "/v1/agents/", { key: null })).status, 401, "no ticket, no call");
  const agent = await call("POST", "/v1/agents/", { body: { model: "letta/auto", tags: ["origin:letta-code"] } });
  assert.equal(agent.status, 200, agent.text);
  const conversation = await call("POST", "/v1/conversations/", { query: { agent_id: agent.body.id }, body: {} });
  assert.equal(conversation.status, 200, conversation.text);
  const runtime = { agent_id: agent.body.id, conversation_id: conversation.body.id };
  const sandbox = await call("POST", `/v1/agents/${runtime.agent_id}/sandboxes`, { body: { conversationId: runtime.conversation_id } });
  assert.equal(sandbox.status, 200, sandbox.text);
  const environment = await call("GET", `/v1/environments/${sandbox.body.deviceId}`);
  assert.equal(typeof environment.body.connectionId, "string", environment.text);

  const relay = await openRelay(viaRelay, environment.body.connectionId, runtime, { headers: { Cookie: ticket } });
  try {
    await startRuntime(relay, runtime);
    const finished = await runTurn(relay, runtime, `raw turn ${MARKER}`);
    assert.equal(finished.type, "turn_finished");
    const deltas = relay.of("stream_delta");
    assert.ok(deltas.length > 0 && deltas.every((d) => d.channel === "stream"), "stream deltas on the stream socket");
    const reply = deltas
      .filter((d) => d.frame.delta?.message_type === "assistant_message")
      .map((d) => (typeof d.frame.delta.content === "string" ? d.frame.delta.content : (d.frame.delta.content ?? []).map((c) => c.text ?? "").join("")))
      .join("");
    assert.match(reply, new RegExp(`raw turn ${MARKER}`), "the scripted model quoted the message");
  } finally {
    relay.close();
  }
  const mine = standIn.records.connections.filter((c) => c.conversationId === runtime.conversation_id);
  assert.deepEqual(mine.map((c) => `${c.channel}:${c.auth}`).sort(), ["control:header", "stream:header"], "the relay authenticated both sockets by header");
  assert.deepEqual(standIn.records.unauthorized, [], "every call that reached the stand-in had the key");
});

test("in Cloud mode the demo page runs a turn on a managed sandbox, and the API key stays in the relay", { timeout: 300_000 }, async (t) => {
  const { standIn, apiKey } = stack.cloud;

  await t.test("the page learns Cloud mode from the relay and lists agents over REST", async () => {
    await page.goto(stack.url);
    await page.locator("[data-testid='connection-state'][data-state='connected'][data-backend='cloud']").waitFor();
    assert.ok(standIn.records.requests.some((r) => r.method === "GET" && r.path === "/v1/agents/"), "agents listed through the relay");
  });

  await t.test("an agent created on the page gets a conversation; a turn runs through both status sockets", async () => {
    await page.getByTestId("agent-name").fill(`cloud agent ${stamp}`);
    await page.getByTestId("create-agent").click();
    await page.locator("[data-testid='agent-item']", { hasText: `cloud agent ${stamp}` }).waitFor();
    await waitIdle(page);
    await send(page, `hello through the cloud ${MARKER}`);
    await page.locator("[data-kind='assistant']", { hasText: MARKER }).waitFor();
    await waitIdle(page);
    const rows = await readTranscript(page);
    assert.ok(rows.some((r) => r.kind === "user" && r.text.includes(MARKER)), JSON.stringify(rows));
    assert.deepEqual(pageErrors, []);
    await page.screenshot({ path: join(artifacts, "demo-cloud-e2e.png"), fullPage: true });

    const { records } = standIn;
    assert.ok(records.requests.some((r) => r.method === "POST" && /^\/v1\/agents\/[^/]+\/sandboxes$/.test(r.path)), "a managed sandbox was created");
    const channels = records.connections.map((c) => `${c.channel}:${c.auth}`);
    assert.ok(channels.includes("control:header") && channels.includes("stream:header"), `the relay authenticated both sockets by header: ${channels}`);
    assert.deepEqual(records.unauthorized, [], "no call reached the stand-in without the key");
    assert.ok(seen.sockets.every((url) => new URL(url).origin.replace(/^ws/, "http") === stack.url.replace(/\/$/, "")), seen.sockets.join(", "));
  });

  await t.test("the key is in nothing the page received or sent, and in no log line", async () => {
    assert.ok(seen.responses.length > 5 && seen.frames.length > 5, `${seen.responses.length} responses, ${seen.frames.length} frames`);
    for (const [what, list] of Object.entries(seen)) {
      const hit = list.find((entry) => JSON.stringify(entry).includes(apiKey));
      assert.equal(hit, undefined, `the key is in the page's ${what}`);
    }
    const visible = await page.evaluate(() => [document.documentElement.outerHTML, document.cookie, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })].join("\n"));
    assert.ok(!visible.includes(apiKey), "the key is in the page");
    const logs = readdirSync(stack.logs).map((name) => [name, readFileSync(join(stack.logs, name), "utf8")]);
    assert.ok(logs.some(([name, text]) => name === "relay.log" && /POST \/v1\/agents\/ 200/.test(text)), "the relay logged the calls");
    for (const [name, text] of logs) assert.ok(!text.includes(apiKey), `the key is in ${name}`);
    const files = readdirSync(stateDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const file of files) {
      const path = join(file.parentPath, file.name);
      if (statSync(path).size < 4 << 20) assert.ok(!readFileSync(path, "latin1").includes(apiKey), `the key was written to ${path}`);
    }
  });
});

test("the demo picks the real Cloud only with a key and an answering base URL (and never sends the key to probe)", async () => {
  const base = stack.cloud.url;
  assert.deepEqual(await cloudTarget({ LETTA_BASE_URL: base }), { kind: "stand-in", why: "no LETTA_API_KEY" });
  assert.deepEqual(await cloudTarget({ LETTA_API_KEY: "k", LETTA_BASE_URL: base }, { offline: true }), { kind: "stand-in", why: "--offline" });
  const before = stack.cloud.standIn.records.unauthorized.length;
  assert.deepEqual(await cloudTarget({ LETTA_API_KEY: "k", LETTA_BASE_URL: `${base}/` }), { kind: "letta-cloud", baseUrl: base });
  assert.equal(stack.cloud.standIn.records.unauthorized.at(-1)?.via, "none", "the probe carries no key");
  assert.equal(stack.cloud.standIn.records.unauthorized.length, before + 1);
  const port = await new Promise((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = server.address();
      server.close(() => done(free));
    });
  });
  const closed = await cloudTarget({ LETTA_API_KEY: "k", LETTA_BASE_URL: `http://127.0.0.1:${port}` });
  assert.deepEqual(closed, { kind: "stand-in", why: `http://127.0.0.1:${port} did not answer (ECONNREFUSED)` });
});
