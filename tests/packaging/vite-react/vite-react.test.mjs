// The Vite + React build (`vite build` by scripts/test-packaging, into dist/) in headless
// Chromium: the rows it renders from the recorded stream equal the rows the installed package's
// accumulator gives in Node for the same recording. Then the same page from Vite's dev server
// (dependency pre-bundling must keep the package's `.wasm` reachable).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { createTranscriptAccumulator } from "letta-agent-wasm/client";
import { launchBrowser, openPage, serve } from "./support/browser.mjs";
import { loadRecording } from "./support/paths.mjs";
import { renderedRows, transcriptOf, visible } from "./support/rows.mjs";

let browser;
let server;

before(async () => {
  assert.ok(existsSync("dist/index.html"), "dist/ is built (vite build)");
  server = await serve("dist");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("the build emits the package's .wasm as an asset (no Vite plugin) and warns about nothing", () => {
  const assets = readdirSync("dist/assets");
  // The /client build, and the Cloud build that only the lazy Cloud chunk (loaded by the first Cloud call) names.
  const wasm = assets.filter((name) => /^letta_agent_wasm_bg-.*\.wasm$/.test(name));
  assert.equal(wasm.length, 2, assets.join());
  const cloudChunk = assets.find((name) => /^cloud-load-.*\.js$/.test(name));
  assert.ok(cloudChunk, assets.join());
  const entry = assets.filter((name) => name.endsWith(".js") && name !== cloudChunk);
  const named = (file, asset) => readFileSync(`dist/assets/${file}`, "utf8").includes(asset);
  const cloudWasm = wasm.filter((asset) => named(cloudChunk, asset));
  assert.equal(cloudWasm.length, 1, "the Cloud chunk names one .wasm");
  assert.ok(!entry.some((file) => named(file, cloudWasm[0])), "the entry does not name the Cloud .wasm");
  const log = readFileSync("vite-build.log", "utf8").trim();
  assert.equal(log, "", "`vite build --logLevel warn` printed warnings");
});

test("the React page renders the recording's rows exactly as the accumulator gives them in Node", async () => {
  const expected = transcriptOf(createTranscriptAccumulator, loadRecording("public/recorded/session.json"));
  assert.ok(expected.length >= 4 && expected.some((row) => row.kind === "tool_call"), "a recording with a tool call");
  const { page, problems, wasm, state } = await openPage(browser.context, server.url);
  assert.equal(state, "done", problems.join("\n"));
  assert.deepEqual(problems, []);
  assert.equal(wasm.length, 1, JSON.stringify(wasm));
  assert.equal(wasm[0].type, "application/wasm");
  assert.deepEqual(await renderedRows(page), expected.map(visible));
  const stats = await page.evaluate(() => window.__transcriptStats);
  assert.ok(stats.renders < stats.snapshotRows, `memoized rows were skipped: ${JSON.stringify(stats)}`);
  await page.close();
});

/** Terminal colour and style escapes (`ESC [ … m`), which Vite prints when it thinks it may (e.g. `CI` is set). */
const ANSI_ESCAPES = /\x1b\[[0-9;]*m/g;

/**
 * Starts `vite` (the dev server) on a free loopback port; resolves once it prints that it listens.
 * If it does not, the child is killed before the error is thrown, so a failure never leaves a
 * server behind that would keep this test process (and the whole run) alive.
 */
async function startDevServer() {
  const port = await new Promise((resolvePort) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address();
      probe.close(() => resolvePort(free));
    });
  });
  const child = spawn(process.execPath, ["node_modules/vite/bin/vite.js", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const exited = new Promise((resolveExit) => child.once("exit", resolveExit));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  let output = "";
  try {
    await new Promise((resolveReady, reject) => {
      const timer = setTimeout(() => reject(new Error(`vite dev server did not start: ${output}`)), 30_000);
      const onData = (chunk) => {
        output += chunk.toString("utf8").replace(ANSI_ESCAPES, "");
        if (output.includes(`127.0.0.1:${port}`)) {
          clearTimeout(timer);
          resolveReady();
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`vite exited (${code}): ${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/`, stop };
}

test("the same page from the Vite dev server renders the same rows", async () => {
  const expected = transcriptOf(createTranscriptAccumulator, loadRecording("public/recorded/session.json"));
  const dev = await startDevServer();
  try {
    const { page, problems, wasm, state } = await openPage(browser.context, dev.url);
    assert.equal(state, "done", problems.join("\n"));
    assert.deepEqual(problems, []);
    assert.deepEqual(wasm.map(({ status, type }) => [status, type]), [[200, "application/wasm"]]);
    assert.deepEqual(await renderedRows(page), expected.map(visible));
    await page.close();
  } finally {
    await dev.stop();
  }
});

test("useLettaChat under StrictMode: a 2,500-fragment reply commits at most once per animation frame, unchanged rows never re-render, every socket closes", async () => {
  const { startChatServer } = await import("./support/chat-server.mjs");
  const appServer = await startChatServer({ deltas: 2_500 });
  const page = await browser.context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
  try {
    await page.goto(`${server.url}chat.html?ws=${encodeURIComponent(appServer.url)}`);
    const status = (value) => page.waitForFunction((s) => document.querySelector("#chat")?.dataset.status === s, value, { timeout: 30_000 });
    await status("ready");
    // A short first turn: its rows must not render again during the long one.
    await page.evaluate(() => window.__chat.send("a short one deltas:5"));
    await page.waitForFunction(() => document.querySelector("#chat")?.dataset.rows === "2" && window.__chat.status === "ready", null, { timeout: 30_000 });
    const before = await page.evaluate(() => ({ ...window.__chatStats.renders }));
    assert.equal(Object.keys(before).length, 2, JSON.stringify(before));
    await page.evaluate(() => {
      window.__measure(true);
      return window.__chat.send("the long one");
    });
    await page.waitForFunction(() => document.querySelector("#chat")?.dataset.rows === "4" && window.__chat.status === "ready", null, { timeout: 60_000 });
    const measured = await page.evaluate(() => {
      window.__measure(false);
      const { commits, frames, renders } = window.__chatStats;
      const last = window.__chat.rows.at(-1);
      return { commits, frames, renders: { ...renders }, lastKey: last.key, words: last.text.trim().split(" ").length };
    });
    console.log(`# 2,500 fragments: ${measured.commits} React commits in ${measured.frames} animation frames; the streamed row rendered ${measured.renders[measured.lastKey]} times`);
    assert.equal(measured.words, 2_500, "every fragment is in the row");
    assert.ok(measured.commits <= measured.frames, `commits ${measured.commits} ≤ frames ${measured.frames}`);
    for (const [key, count] of Object.entries(before)) assert.equal(measured.renders[key], count, `${key} did not render again`);
    assert.ok(measured.renders[measured.lastKey] <= measured.frames, "the streamed row rendered at most once per frame");
    assert.ok(appServer.opened() >= 2, "the chat opened its sockets");
    await page.evaluate(() => window.__unmount());
    const deadline = Date.now() + 10_000;
    while (appServer.open() > 0 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 50));
    assert.equal(appServer.open(), 0, `every socket opened (${appServer.opened()}) is closed`);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await appServer.stop();
  }
});
