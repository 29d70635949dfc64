// Helpers of the ACP tests: run acpx against the installed `letta-acp` (raw JSON-RPC lines of
// `--format json`), and a minimal second ACP client (newline-delimited JSON-RPC over the
// child's stdio) for what acpx does not print (the updates replayed by session/load).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { createInterface } from "node:readline";

export const bin = (name) => resolve("node_modules", ".bin", name);
/** How long a direct client waits for an answer (a turn of the scripted model takes seconds). */
const REQUEST_TIMEOUT_MS = 120_000;

/** Parses the JSON lines of an output (acpx prints some plain `[acpx] …` lines too). */
function jsonLines(text) {
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

/**
 * Starts `acpx --agent letta-acp --format json <args>`; `lines` fills as stdout arrives,
 * `done` resolves with `{code, messages, stderr}`. Killed after `timeoutMs`.
 */
export function startAcpx(args, { cwd, env, timeoutMs = 120_000 }) {
  const child = spawn(bin("acpx"), ["--agent", bin("letta-acp"), "--format", "json", "--ttl", "1", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const lines = [];
  const waiters = [];
  child.stdout.on("data", (data) => {
    stdout += data;
    const complete = stdout.slice(0, stdout.lastIndexOf("\n") + 1);
    lines.splice(0, lines.length, ...jsonLines(complete));
    for (const w of [...waiters]) if (lines.some(w.predicate)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
  });
  child.stderr.on("data", (data) => (stderr += data));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const done = new Promise((resolveDone) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      for (const w of waiters) w.reject(new Error(`acpx exited before the awaited line; stderr:\n${stderr.slice(-2000)}`));
      resolveDone({ code, messages: jsonLines(stdout), stderr });
    }),
  );
  /** Resolves once a stdout JSON line satisfies `predicate`. */
  const waitFor = (predicate) =>
    lines.some(predicate) ? Promise.resolve() : new Promise((resolveWait, reject) => waiters.push({ predicate, resolve: resolveWait, reject }));
  return { child, lines, done, waitFor };
}

/** Runs acpx to completion. */
export const acpx = (args, options) => startAcpx(args, options).done;

/** The `session/update` payloads of a message list, in order. */
export const updatesOf = (messages) => messages.filter((m) => m.method === "session/update").map((m) => m.params.update);

/** The final `session/prompt` result (the last `stopReason` answer). */
export const stopReasonOf = (messages) => messages.filter((m) => m.result?.stopReason).at(-1)?.result.stopReason;

/**
 * A direct ACP client of a fresh `letta-acp` process: `request(method, params)` resolves with
 * the result (rejects with the error); `notifications` holds every notification received,
 * `requests` every request the agent sent (never answered: a test that needs answers uses
 * sdk-client.mjs).
 */
export function directClient({ cwd, env }) {
  const child = spawn(bin("letta-acp"), [], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let nextId = 1;
  const pending = new Map();
  const notifications = [];
  const requests = [];
  let stderr = "";
  child.stderr.on("data", (data) => (stderr += data));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line); // stdout must carry only JSON-RPC: a stray line fails here
    if (message.id !== undefined && pending.has(message.id)) {
      const { resolve: ok, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(Object.assign(new Error(message.error.message), { rpc: message.error }));
      else ok(message.result);
    } else if (message.method && message.id === undefined) notifications.push(message);
    else if (message.method) requests.push(message);
  });
  const closed = new Promise((done) => child.once("close", (code) => done(code)));
  // A request fails (never hangs) when the agent exits first or does not answer in time.
  closed.then((code) => {
    for (const { reject } of pending.values()) reject(new Error(`letta-acp exited (${code}) before answering; stderr:\n${stderr.slice(-2000)}`));
    pending.clear();
  });
  return {
    notifications,
    requests,
    stderr: () => stderr,
    notify(method, params) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
    },
    request(method, params, { timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
      const id = nextId++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return new Promise((ok, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method} got no answer within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        const settle = (fn) => (value) => (clearTimeout(timer), fn(value));
        pending.set(id, { resolve: settle(ok), reject: settle(reject) });
      });
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await closed;
      clearTimeout(timer);
      return code;
    },
  };
}
