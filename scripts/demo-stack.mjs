#!/usr/bin/env node
// The demo's running parts, started and stopped in one place: the model (our offline scripted
// model by default), the real Letta Code app server (local backend, loopback, capability
// token) and letta-relay, which serves the built page and proxies its WebSocket to the app
// server with the token. `scripts/demo` runs this file; the end-to-end test imports
// `startStack()` so that it exercises the same path.
//
//   node scripts/demo-stack.mjs [--port 8080] [--state .demo] [--offline] [--cloud]
// Prints the URL once everything listens; Ctrl-C (SIGINT) or SIGTERM stops exactly what it
// started. Which model, from the environment (the first that applies):
//   LETTA_APP_SERVER_URL + LETTA_APP_SERVER_TOKEN   an app server of yours: no local server
//   ANTHROPIC_API_KEY / OPENAI_API_KEY              that provider, connected to the local server
//   otherwise (or --offline)                        scripts/offline-model.mjs on loopback
//
// Cloud mode (--cloud, or LETTA_API_KEY set): the page uses the Cloud backend against
// letta-relay --cloud, which holds the API key (in its environment only) and adds it to the
// page's REST calls and status sockets. The Cloud is Letta Cloud (LETTA_BASE_URL, default
// https://api.letta.com) when LETTA_API_KEY is set and it answers; otherwise (or with --offline)
// the Cloud stand-in of the tests (tests/cloud/stand-in.mjs, in this process) in front of the
// local app server above, with a key drawn for this run and never written anywhere.
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnUntil, startAppServer, stopChildren } from "./app-server.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Which model the stack connects, from the environment (see the header). */
export function modelMode(env = process.env, { offline = false } = {}) {
  if (offline) return "offline";
  if (env.LETTA_APP_SERVER_URL && env.LETTA_APP_SERVER_TOKEN) return "remote";
  if (env.ANTHROPIC_API_KEY) return "anthropic";
  if (env.OPENAI_API_KEY) return "openai";
  return "offline";
}

/** The real Letta Cloud's base URL. */
export const LETTA_CLOUD_URL = "https://api.letta.com";

/**
 * Which Cloud a Cloud-mode stack fronts: `{kind: "letta-cloud", baseUrl}` when there is a key
 * and `baseUrl` answers HTTP at all within `timeoutMs` (no key is sent), else
 * `{kind: "stand-in", why}`.
 */
export async function cloudTarget(env = process.env, { offline = false, timeoutMs = 5_000 } = {}) {
  const baseUrl = (env.LETTA_BASE_URL || LETTA_CLOUD_URL).replace(/\/+$/, "");
  if (offline) return { kind: "stand-in", why: "--offline" };
  if (!env.LETTA_API_KEY) return { kind: "stand-in", why: "no LETTA_API_KEY" };
  try {
    await fetch(`${baseUrl}/v1/health/`, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    return { kind: "letta-cloud", baseUrl };
  } catch (error) {
    const cause = error.cause?.code ?? error.cause?.errors?.[0]?.code ?? error.name;
    return { kind: "stand-in", why: `${baseUrl} did not answer (${cause})` };
  }
}

/**
 * The Cloud stand-in (tests/cloud/stand-in.mjs; `ws` from tests/cloud/node_modules, which
 * scripts/demo installs) in front of the app server `server`, with a fresh key, its log in
 * `logFile`. It stops after `ttlS` (else 12 h), like everything a test or demo starts.
 */
async function startStandIn({ server, logFile, ttlS }) {
  const { startCloudStandIn, testApiKey } = await import("../tests/cloud/stand-in.mjs");
  const out = createWriteStream(logFile, { flags: "a" });
  return startCloudStandIn({
    appServer: { url: server.url, token: server.token },
    apiKey: testApiKey(),
    defaultModel: server.models?.[0],
    timeLimitMs: (ttlS ?? 12 * 3600) * 1000,
    log: (line) => out.write(`${new Date().toISOString()} ${line}\n`),
  });
}

const MODE_LABELS = {
  offline: "the offline scripted demo model (scripts/offline-model.mjs; not an AI)",
  anthropic: "Anthropic, with ANTHROPIC_API_KEY",
  openai: "OpenAI, with OPENAI_API_KEY",
  remote: "your app server at LETTA_APP_SERVER_URL",
};

/**
 * The relay binary: `LETTA_RELAY_BIN` if set (`scripts/test` points it at the debug build that
 * the relay's own tests made), else the one built by `cargo build --release -p letta-relay`.
 */
export function relayBinary() {
  if (process.env.LETTA_RELAY_BIN) return resolve(process.env.LETTA_RELAY_BIN);
  return join(process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(repo, "target"), "release", "letta-relay");
}

/**
 * Starts the stack. Options: `stateDir` (all state: HOME, token, logs, the server's working
 * directory), `port` (the relay's, 0 = any free port), `mode` (see modelMode), `staticDir`
 * (the built page), `relayCommand` (argv prefix), `ttlS` (the relay and the stand-in stop after
 * that long), `log` (progress lines), `env`, `cloud` (Cloud mode: what cloudTarget() chose).
 * Resolves to `{url, mode, upstream, workspace, logs, cloud, stop()}`; in Cloud mode `cloud` is
 * `{kind, url, apiKey, standIn}` (`standIn` only with the stand-in; `apiKey` is there for
 * tests that look for it: never print it), else null.
 */
export async function startStack(options = {}) {
  const env = options.env ?? process.env;
  const mode = options.mode ?? modelMode(env);
  const log = options.log ?? ((line) => console.log(`demo: ${line}`));
  const stateDir = resolve(options.stateDir ?? join(repo, ".demo"));
  const staticDir = resolve(options.staticDir ?? join(repo, "www", "dist"));
  const [relayCommand, ...relayPrefix] = options.relayCommand ?? [relayBinary()];
  const dirs = { home: join(stateDir, "home"), run: join(stateDir, "run"), logs: join(stateDir, "logs"), workspace: join(stateDir, "workspace") };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  if (!existsSync(join(staticDir, "index.html"))) throw new Error(`no built page in ${staticDir}: run scripts/build-page first`);
  if (!existsSync(relayCommand)) throw new Error(`no relay at ${relayCommand}: run cargo build --release -p letta-relay`);

  const children = [];
  let model = null;
  let standIn = null;
  let stopping = null;
  const stop = () =>
    (stopping ??= (async () => {
      await stopChildren(children);
      await standIn?.stop();
      await model?.close();
    })());

  try {
    let upstream;
    let cloud = null;
    const relayEnv = { ...env };
    const relayArgs = [];
    // The key goes to the relay only, and only in Cloud mode.
    delete relayEnv.LETTA_API_KEY;
    if (options.cloud?.kind === "letta-cloud") {
      delete relayEnv.LETTA_APP_SERVER_TOKEN;
      upstream = options.cloud.baseUrl;
      relayEnv.LETTA_API_KEY = env.LETTA_API_KEY;
      relayArgs.push("--cloud", upstream);
      cloud = { kind: "letta-cloud", url: upstream, apiKey: env.LETTA_API_KEY, standIn: null };
    } else if (options.cloud) {
      delete relayEnv.LETTA_APP_SERVER_TOKEN;
      const serverMode = mode === "remote" ? "offline" : mode;
      const server = await startAppServer({ stateDir, mode: serverMode, env, log, appServerDir: options.appServerDir, children });
      model = server.model;
      standIn = await startStandIn({ server, logFile: join(dirs.logs, "cloud-stand-in.log"), ttlS: options.ttlS });
      log(`Cloud stand-in on ${standIn.url}, in front of the app server`);
      upstream = standIn.url;
      relayEnv.LETTA_API_KEY = standIn.apiKey;
      relayArgs.push("--cloud", upstream);
      cloud = { kind: "stand-in", url: upstream, apiKey: standIn.apiKey, standIn };
    } else if (mode === "remote") {
      upstream = env.LETTA_APP_SERVER_URL; // the relay reads LETTA_APP_SERVER_TOKEN from its environment
      relayArgs.push("--upstream", upstream);
    } else {
      delete relayEnv.LETTA_APP_SERVER_TOKEN;
      const server = await startAppServer({ stateDir, mode, env, log, appServerDir: options.appServerDir, children });
      model = server.model;
      upstream = server.url;
      relayArgs.push("--upstream", upstream, "--token-file", server.tokenFile);
    }
    if (options.ttlS) relayArgs.push("--ttl-s", String(options.ttlS));
    // Stopping the demo should not wait out the relay's production drain (30 s by default).
    relayArgs.push("--shutdown-grace-s", "1");
    const [, url] = await spawnUntil(
      "relay",
      relayCommand,
      [...relayPrefix, "--listen", `127.0.0.1:${options.port ?? 0}`, "--static", staticDir, ...relayArgs],
      { env: relayEnv, cwd: repo, logFile: join(dirs.logs, "relay.log"), ready: /relay listening on (http:\/\/\S+)/, timeoutMs: 20_000, children },
    );
    return { url, mode, upstream, workspace: dirs.workspace, logs: dirs.logs, cloud, children, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(args) {
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const offline = args.includes("--offline");
  const mode = modelMode(process.env, { offline });
  const cloud = args.includes("--cloud") || process.env.LETTA_API_KEY ? await cloudTarget(process.env, { offline }) : null;
  if (cloud?.kind === "letta-cloud") {
    console.log(`demo: backend: Letta Cloud at ${cloud.baseUrl} (the key from LETTA_API_KEY stays in the relay)`);
  } else {
    if (cloud) console.log(`demo: backend: the Cloud stand-in (tests/cloud/stand-in.mjs; ${cloud.why}), key drawn for this run`);
    console.log(`demo: model: ${MODE_LABELS[mode === "remote" && cloud ? "offline" : mode]}`);
  }
  let stack;
  let quitting = false;
  const quit = async (code) => {
    if (quitting) return;
    quitting = true;
    console.log("\ndemo: stopping");
    await stack?.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => quit(0));
  process.on("SIGTERM", () => quit(0));
  try {
    stack = await startStack({ mode, cloud, port: Number(option("--port", "8080")), stateDir: option("--state") });
  } catch (error) {
    console.error(`demo: ${error.message}`);
    if (/address already in use/i.test(error.message)) console.error("demo: that port is taken: choose another with --port");
    process.exit(1);
  }
  for (const { name, exitPromise } of stack.children) {
    exitPromise.then(({ code, signal }) => {
      if (quitting) return;
      console.error(`demo: the ${name} stopped (${signal ?? `code ${code}`}); logs in ${relative(process.cwd(), stack.logs)}`);
      quit(1);
    });
  }
  console.log(`\n  Open ${stack.url} in your browser.   (Ctrl-C stops the demo; logs in ${relative(process.cwd(), stack.logs) || "."})\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
