// A plain page (no bundler: an import map to node_modules/letta-agent-wasm/browser/client.js)
// served from a loopback static server to headless Chromium: the rows it renders from the
// recorded stream equal the rows the installed package's accumulator gives in Node.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createTranscriptAccumulator } from "letta-agent-wasm/client";
import { launchBrowser, openPage, serve } from "./support/browser.mjs";
import { loadRecording } from "./support/paths.mjs";
import { renderedRows, transcriptOf, visible } from "./support/rows.mjs";

let browser;
let server;

before(async () => {
  server = await serve(".");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("the plain page renders the recording's rows exactly as the accumulator gives them in Node", async () => {
  const expected = transcriptOf(createTranscriptAccumulator, loadRecording());
  assert.ok(expected.length >= 4 && expected.some((row) => row.kind === "tool_call"), "a recording with a tool call");
  const { page, problems, wasm, state } = await openPage(browser.context, `${server.url}index.html`);
  assert.equal(state, "done", problems.join("\n"));
  assert.deepEqual(problems, []);
  assert.deepEqual(
    wasm.map(({ url, status, type }) => [new URL(url).pathname, status, type]),
    [["/node_modules/letta-agent-wasm/wasm/web/letta_agent_wasm_bg.wasm", 200, "application/wasm"]],
    "the browser build fetched its size-optimized .wasm next to the package",
  );
  assert.deepEqual(await renderedRows(page), expected.map(visible));
  await page.close();
});

test("before init() the browser build throws the typed not-initialized error", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}package.json`); // same origin, but nothing imported the package yet
  const outcome = await page.evaluate(async () => {
    const client = await import("/node_modules/letta-agent-wasm/browser/client.js");
    try {
      client.createTranscriptAccumulator();
      return "no error";
    } catch (error) {
      return `${error.name} ${error.code}`;
    }
  });
  assert.equal(outcome, "LettaNotInitializedError not_initialized");
  await page.close();
});
