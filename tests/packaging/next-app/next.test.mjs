// Next.js (app router) with the packed tarball (issue 38): `next build` ran before this file
// (scripts/test-packaging); `next start` serves the page with the chat's opening snapshot,
// without a server error and without a socket opened on the server; in headless Chromium the
// page hydrates, the chat opens and a turn streams.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { launchBrowser } from "./support/browser.mjs";
import { startChatServer } from "./support/chat-server.mjs";

let next;
let appServer;
let browser;
let output = "";

function freePort() {
  return new Promise((resolvePort) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

before(async () => {
  appServer = await startChatServer();
  const port = await freePort();
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  const exited = new Promise((done) => child.once("exit", done));
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  next = {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(next.url)).status > 0) break;
    } catch {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`next start did not serve: ${output}`);
      await new Promise((wait) => setTimeout(wait, 200));
    }
  }
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await next?.stop();
  await appServer?.stop();
});

test("next start serves the page: the chat's opening snapshot, no server error, no socket on the server", async () => {
  const response = await fetch(`${next.url}?ws=${encodeURIComponent(appServer.url)}`);
  const html = await response.text();
  assert.equal(response.status, 200, html.slice(0, 500));
  assert.match(html, /<section id="chat" data-status="connecting" data-rows="0">/);
  assert.equal(appServer.opened(), 0, "server rendering opened no socket");
  assert.doesNotMatch(output, /Error|⨯/, output);
});

test("in the browser the page hydrates, the chat opens and a reply streams", async () => {
  const page = await browser.context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  try {
    await page.goto(`${next.url}?ws=${encodeURIComponent(appServer.url)}`);
    await page.waitForFunction(() => document.querySelector("#chat")?.dataset.status === "ready", null, { timeout: 30_000 });
    await page.click("button");
    await page.waitForFunction(() => document.querySelector("#chat")?.dataset.rows === "2" && document.querySelector("#chat")?.dataset.status === "ready", null, { timeout: 30_000 });
    const text = await page.$eval("li[data-kind=assistant]", (li) => li.textContent.trim());
    assert.equal(text.split(" ").length, 20);
    assert.ok(appServer.opened() >= 2, "the browser's chat opened its sockets");
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});
