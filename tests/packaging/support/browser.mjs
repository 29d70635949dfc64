// Headless Chromium (Debian's /usr/bin/chromium) through playwright-core with a fresh profile,
// and a loopback static server (scripts/serve-static.mjs) for a page's files.
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { repoRoot } from "./paths.mjs";

const { launchChromium } = await import(pathToFileURL(join(repoRoot, "tests", "support", "chromium.mjs")).href);

/** Launches Chromium with the flags this sandbox needs and an empty, temporary profile. */
export function launchBrowser() {
  return launchChromium(chromium);
}

/** Serves `root` on 127.0.0.1 (a free port); returns `{url, close()}`. */
export async function serve(root) {
  const { staticHandler } = await import(pathToFileURL(join(repoRoot, "scripts", "serve-static.mjs")).href);
  const server = createServer(staticHandler(root));
  await new Promise((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolveClose) => server.close(resolveClose)),
  };
}

/**
 * Opens `url` in a new page and waits until `#rows` reports `data-state="done"` (or an error).
 * Collects console errors, page errors and failed or non-2xx requests, and the `.wasm` responses.
 */
export async function openPage(context, url, timeout = 30_000) {
  const page = await context.newPage();
  const problems = [];
  const wasm = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    if (new URL(response.url()).pathname.endsWith(".wasm")) {
      wasm.push({ url: response.url(), status: response.status(), type: response.headers()["content-type"] });
    }
  });
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const state = document.querySelector("#rows")?.dataset.state;
      return state !== undefined && state !== "loading";
    },
    null,
    { timeout },
  );
  const state = await page.$eval("#rows", (rows) => rows.dataset.state);
  return { page, problems, wasm, state };
}
