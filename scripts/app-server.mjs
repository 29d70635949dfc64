// Starts the REAL Letta Code app server (local backend, loopback, capability token) from the
// project's own install (scripts/app-server/, see app-server-install.mjs), with the offline
// scripted model (offline-model.mjs) or a provider connected. One helper for the demo
// (demo-stack.mjs), the tests (tests/support/real-peer.mjs) and the benchmarks.
//
// Everything lives under `stateDir`: HOME (the server's ~/.letta), the token file (mode 600,
// never printed), logs, and `workspace/`, the server's working directory (where the agent's
// shell commands run). Only processes started here are stopped, by their own pids.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { installAppServer } from "./app-server-install.mjs";
import { OFFLINE_MODELS, startOfflineModel } from "./offline-model.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STOP_GRACE_MS = 8_000;
/** The provider the offline model is connected as: its models are `openai-compatible/<id>`. */
const OFFLINE_PROVIDER = "openai-compatible";

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
export function spawnUntil(name, command, args, { env, cwd, logFile, ready, timeoutMs, children }) {
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
export function runLogged(command, args, { env, cwd, logFile, timeoutMs = 120_000 }) {
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
export async function stopChildren(children) {
  for (const entry of [...children].reverse()) {
    if (entry.exited !== null || entry.child.exitCode !== null) continue;
    entry.child.kill("SIGTERM");
    const late = setTimeout(() => entry.child.kill("SIGKILL"), STOP_GRACE_MS);
    await entry.exitPromise;
    clearTimeout(late);
  }
}

/**
 * Installs (once) and starts the app server. Options: `stateDir` (required), `mode` ("offline",
 * "anthropic" or "openai"), `env`, `log` (progress lines), `appServerDir` (where it is installed;
 * default .demo/app-server), `children` (an array the started processes are added to, for a
 * caller that stops them together with its own). Resolves to `{url, tokenFile, token, models,
 * modelLog, pid, workspace, logs, model, children, stop()}`; `models` and `modelLog` (one JSON
 * line per model request) only with the offline model.
 */
export async function startAppServer({ stateDir, mode = "offline", env = process.env, log = () => {}, appServerDir, children = [] }) {
  const dirs = { home: join(stateDir, "home"), run: join(stateDir, "run"), logs: join(stateDir, "logs"), workspace: join(stateDir, "workspace") };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const own = [];
  let model = null;
  const stop = async () => {
    await stopChildren(own);
    await model?.close();
  };
  try {
    const letta = await installAppServer({ log, dir: appServerDir });
    const lettaEnv = lettaEnvironment(env, dirs.home, mode);
    const cli = (args) =>
      runLogged(process.execPath, [letta, "--backend", "local", ...args], { env: lettaEnv, cwd: dirs.workspace, logFile: join(dirs.logs, "setup.log") });
    let modelLog;
    if (mode === "offline") {
      modelLog = join(dirs.logs, "offline-model.jsonl");
      model = await startOfflineModel({ log: modelLog });
      log(`offline scripted model on ${model.url}`);
      await cli(["connect", OFFLINE_PROVIDER, "--base-url", model.url]);
    } else {
      await cli(["connect", mode, "--api-key", mode === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY]);
    }
    // The capability token: random, in a file only this user can read; never printed.
    const token = randomBytes(32).toString("hex");
    const tokenFile = join(dirs.run, "app-server-token");
    writeFileSync(tokenFile, token, { mode: 0o600 });
    chmodSync(tokenFile, 0o600);
    log("starting the Letta Code app server (local backend, loopback)");
    // Our child, and we stay alive while it runs: letta's orphan detection (exit when
    // re-parented to PID 1) only fires if this process dies, which is what we want.
    const [, url] = await spawnUntil(
      "app server",
      process.execPath,
      [letta, "--backend", "local", "server", "--listen", "ws://127.0.0.1:0", "--ws-auth", "capability-token", "--ws-token-file", tokenFile],
      { env: lettaEnv, cwd: dirs.workspace, logFile: join(dirs.logs, "app-server.log"), ready: /WebSocket: (ws:\/\/\S+)/, timeoutMs: 60_000, children: own },
    );
    children.push(...own);
    const models = mode === "offline" ? OFFLINE_MODELS.map((id) => `${OFFLINE_PROVIDER}/${id}`) : undefined;
    return { url, tokenFile, token, models, modelLog, pid: own[0].child.pid, workspace: dirs.workspace, logs: dirs.logs, model, children: own, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
