#!/usr/bin/env node
// The demo's running parts, started and stopped in one place: the model (our offline scripted
// model by default), the real Letta Code app server (local backend, loopback, capability
// token) and letta-relay, which serves the built page and proxies its WebSocket to the app
// server with the token. `scripts/demo` runs this file; the end-to-end test imports
// `startStack()` so that it exercises the same path.
//
//   node scripts/demo-stack.mjs [--port 8080] [--state .demo] [--offline]
// Prints the URL once everything listens; Ctrl-C (SIGINT) or SIGTERM stops exactly what it
// started. Which model, from the environment (the first that applies):
//   LETTA_APP_SERVER_URL + LETTA_APP_SERVER_TOKEN   an app server of yours: no local server
//   ANTHROPIC_API_KEY / OPENAI_API_KEY              that provider, connected to the local server
//   otherwise (or --offline)                        scripts/offline-model.mjs on loopback
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { installAppServer } from "./app-server-install.mjs";
import { startOfflineModel } from "./offline-model.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STOP_GRACE_MS = 8_000;

/** Which model the stack connects, from the environment (see the header). */
export function modelMode(env = process.env, { offline = false } = {}) {
  if (offline) return "offline";
  if (env.LETTA_APP_SERVER_URL && env.LETTA_APP_SERVER_TOKEN) return "remote";
  if (env.ANTHROPIC_API_KEY) return "anthropic";
  if (env.OPENAI_API_KEY) return "openai";
  return "offline";
}

const MODE_LABELS = {
  offline: "the offline scripted demo model (scripts/offline-model.mjs; not an AI)",
  anthropic: "Anthropic, with ANTHROPIC_API_KEY",
  openai: "OpenAI, with OPENAI_API_KEY",
  remote: "your app server at LETTA_APP_SERVER_URL",
};

/** The environment of every letta process: HOME isolated under the state dir, no telemetry, no updates. */
function lettaEnvironment(env, home, mode) {
  const out = { ...env, HOME: home, LETTA_CODE_TELEM: "0", DO_NOT_TRACK: "1", DISABLE_AUTOUPDATER: "1" };
  for (const name of ["LETTA_API_KEY", "LETTA_BASE_URL", "LETTA_APP_SERVER_TOKEN", "LETTA_APP_SERVER_URL"]) delete out[name];
  // Offline means offline: no provider key from the caller's shell reaches the server.
  if (mode !== "anthropic") delete out.ANTHROPIC_API_KEY;
  if (mode !== "openai") delete out.OPENAI_API_KEY;
  return out;
}

/** Terminal colour escapes (`ESC [ … m`): tools print them when they think they may (e.g. `CI` is set). */
const ANSI_ESCAPES = /\x1b\[[0-9;]*m/g;

/**
 * Spawns a child whose stdout and stderr go to `logFile`; resolves with the first match of
 * `ready` in its output (the child is then left running), rejects if it exits or times out.
 */
function spawnUntil(name, command, args, { env, cwd, logFile, ready, timeoutMs, children }) {
  const child = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  const entry = { name, child, exited: null };
  children.push(entry);
  const log = createWriteStream(logFile, { flags: "a" });
  const exited = new Promise((done) => child.once("exit", (code, signal) => done((entry.exited = { code, signal }))));
  entry.exitPromise = exited;
  return new Promise((resolveReady, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs / 1000} s (log: ${logFile})`)), timeoutMs);
    const scan = (data) => {
      log.write(data);
      if (ready === undefined || seen === null) return;
      seen += data.toString("utf8").replace(ANSI_ESCAPES, "");
      const match = seen.match(ready);
      if (match) {
        seen = null;
        clearTimeout(timer);
        resolveReady(match);
      } else if (seen.length > 65_536) seen = seen.slice(-4096);
    };
    child.stdout.on("data", scan);
    child.stderr.on("data", scan);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${name} could not start: ${error.message}`));
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      log.end();
      if (seen === null) return;
      const tail = seen.trim().split("\n").slice(-8).join("\n  ");
      reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before it was ready (log: ${logFile}):\n  ${tail}`));
    });
  });
}

/** Runs a command to completion; its output goes to `logFile`. */
function runLogged(command, args, { env, cwd, logFile, timeoutMs = 120_000 }) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    const log = createWriteStream(logFile, { flags: "a" });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      log.end();
      if (code === 0) resolveRun();
      else reject(new Error(`${relative(repo, command) || command} ${args[0] ?? ""} failed (${signal ?? `code ${code}`}); see ${logFile}`));
    });
  });
}

/** Stops the children (newest first) by their own pids: SIGTERM, then SIGKILL after a grace period. */
async function stopChildren(children) {
  for (const entry of [...children].reverse()) {
    if (entry.exited !== null || entry.child.exitCode !== null) continue;
    entry.child.kill("SIGTERM");
    const late = setTimeout(() => entry.child.kill("SIGKILL"), STOP_GRACE_MS);
    await entry.exitPromise;
    clearTimeout(late);
  }
}

/** The relay binary built by `cargo build --release --bin letta-relay`. */
export function relayBinary() {
  return join(process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(repo, "target"), "release", "letta-relay");
}

/**
 * Starts the stack. Options: `stateDir` (all state: HOME, token, logs, the server's working
 * directory), `port` (the relay's, 0 = any free port), `mode` (see modelMode), `staticDir`
 * (the built page), `relayCommand` (argv prefix), `ttlS` (the relay exits after that long),
 * `log` (progress lines), `env`. Resolves to `{url, mode, upstream, workspace, logs, stop()}`.
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
  if (!existsSync(relayCommand)) throw new Error(`no relay at ${relayCommand}: run cargo build --release --bin letta-relay`);

  const children = [];
  let model = null;
  let stopping = null;
  const stop = () =>
    (stopping ??= (async () => {
      await stopChildren(children);
      await model?.close();
    })());

  try {
    let upstream;
    const relayEnv = { ...env };
    const relayArgs = [];
    if (mode === "remote") {
      upstream = env.LETTA_APP_SERVER_URL; // the relay reads LETTA_APP_SERVER_TOKEN from its environment
    } else {
      delete relayEnv.LETTA_APP_SERVER_TOKEN;
      const letta = await installAppServer({ log, dir: options.appServerDir });
      const lettaEnv = lettaEnvironment(env, dirs.home, mode);
      const cli = (args) =>
        runLogged(process.execPath, [letta, "--backend", "local", ...args], {
          env: lettaEnv,
          cwd: dirs.workspace,
          logFile: join(dirs.logs, "setup.log"),
        });
      if (mode === "offline") {
        model = await startOfflineModel({ log: join(dirs.logs, "offline-model.jsonl") });
        log(`offline scripted model on ${model.url}`);
        await cli(["connect", "openai-compatible", "--base-url", model.url]);
      } else {
        await cli(["connect", mode, "--api-key", mode === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY]);
      }
      // The capability token: random, in a file only this user can read; never printed.
      const tokenFile = join(dirs.run, "app-server-token");
      writeFileSync(tokenFile, randomBytes(32).toString("hex"), { mode: 0o600 });
      chmodSync(tokenFile, 0o600);
      log("starting the Letta Code app server (local backend, loopback)");
      // Our child, and we stay alive while it runs: letta's orphan detection (exit when
      // re-parented to PID 1) only fires if this process dies, which is what we want.
      const [, url] = await spawnUntil(
        "app server",
        process.execPath,
        [letta, "--backend", "local", "server", "--listen", "ws://127.0.0.1:0", "--ws-auth", "capability-token", "--ws-token-file", tokenFile],
        { env: lettaEnv, cwd: dirs.workspace, logFile: join(dirs.logs, "app-server.log"), ready: /WebSocket: (ws:\/\/\S+)/, timeoutMs: 60_000, children },
      );
      upstream = url;
      relayArgs.push("--token-file", tokenFile);
    }
    if (options.ttlS) relayArgs.push("--ttl-s", String(options.ttlS));
    // Stopping the demo should not wait out the relay's production drain (30 s by default).
    relayArgs.push("--shutdown-grace-s", "1");
    const [, url] = await spawnUntil(
      "relay",
      relayCommand,
      [...relayPrefix, "--listen", `127.0.0.1:${options.port ?? 0}`, "--static", staticDir, "--upstream", upstream, ...relayArgs],
      { env: relayEnv, cwd: repo, logFile: join(dirs.logs, "relay.log"), ready: /relay listening on (http:\/\/\S+)/, timeoutMs: 20_000, children },
    );
    return { url, mode, upstream, workspace: dirs.workspace, logs: dirs.logs, children, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(args) {
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const mode = modelMode(process.env, { offline: args.includes("--offline") });
  console.log(`demo: model: ${MODE_LABELS[mode]}`);
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
    stack = await startStack({ mode, port: Number(option("--port", "8080")), stateDir: option("--state") });
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
