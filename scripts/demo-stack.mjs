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
import { existsSync, mkdirSync } from "node:fs";
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

const MODE_LABELS = {
  offline: "the offline scripted demo model (scripts/offline-model.mjs; not an AI)",
  anthropic: "Anthropic, with ANTHROPIC_API_KEY",
  openai: "OpenAI, with OPENAI_API_KEY",
  remote: "your app server at LETTA_APP_SERVER_URL",
};

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
      const server = await startAppServer({ stateDir, mode, env, log, appServerDir: options.appServerDir, children });
      model = server.model;
      upstream = server.url;
      relayArgs.push("--token-file", server.tokenFile);
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
