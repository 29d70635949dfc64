// An ACP client written on @agentclientprotocol/sdk's client side, for what the tests need an
// editor to do: it spawns the installed `letta-acp`, answers permissions by a policy, serves
// `fs/*` from disk and `terminal/*` with real child processes (as an editor's terminal would),
// and records every update, request and terminal it saw.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { client as acpClient, methods, ndJsonStream, RequestError } from "@agentclientprotocol/sdk";
import { bin } from "./acp.mjs";

/** A terminal of the fake editor: one child process and its output. */
class Terminal {
  constructor(id, { command, args = [], cwd, env = [] }) {
    this.id = id;
    this.command = [command, ...args];
    this.output = "";
    this.released = false;
    this.child = spawn(command, args, { cwd: cwd ?? undefined, env: { ...process.env, ...Object.fromEntries(env.map((e) => [e.name, e.value])) } });
    this.child.stdout.on("data", (d) => (this.output += d));
    this.child.stderr.on("data", (d) => (this.output += d));
    this.exit = new Promise((resolve) =>
      this.child.once("close", (exitCode, signal) => resolve((this.exitStatus = { exitCode, signal }))),
    );
    this.child.once("error", (error) => (this.output += `spawn failed: ${error.message}`));
  }
}

/** How long a request to the agent may take (a turn of the scripted model takes seconds). */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * Starts `letta-acp` and connects the client. `permission(params)` decides each
 * `session/request_permission` (default: allow once). Resolves with `request(method, params)`
 * (rejects after two minutes without an answer, or when the agent exits), the records, and
 * `close()` (resolves with the exit code).
 */
export async function sdkClient({ cwd, env, permission = () => "allow_once" }) {
  const child = spawn(bin("letta-acp"), [], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const closed = new Promise((resolve) => child.once("close", (code) => resolve(code)));
  const seen = { updates: [], requests: [], terminals: new Map() };
  let nextTerminal = 1;
  const terminal = (params) => {
    const t = seen.terminals.get(params.terminalId);
    if (!t || t.released) throw RequestError.resourceNotFound(params.terminalId);
    return t;
  };
  const app = acpClient({ name: "letta-agent-wasm-tests" })
    .onNotification(methods.client.session.update, ({ params }) => void seen.updates.push(params))
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      seen.requests.push({ method: "session/request_permission", params });
      const optionId = await permission(params);
      return { outcome: optionId ? { outcome: "selected", optionId } : { outcome: "cancelled" } };
    })
    .onRequest(methods.client.fs.readTextFile, ({ params }) => {
      seen.requests.push({ method: "fs/read_text_file", params });
      return { content: readFileSync(params.path, "utf8") };
    })
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      seen.requests.push({ method: "fs/write_text_file", params });
      writeFileSync(params.path, params.content);
      return {};
    })
    .onRequest(methods.client.terminal.create, ({ params }) => {
      seen.requests.push({ method: "terminal/create", params });
      const id = `term-${nextTerminal++}`;
      seen.terminals.set(id, new Terminal(id, params));
      return { terminalId: id };
    })
    .onRequest(methods.client.terminal.output, ({ params }) => {
      seen.requests.push({ method: "terminal/output", params });
      const t = terminal(params);
      return { output: t.output, truncated: false, exitStatus: t.exitStatus ?? null };
    })
    .onRequest(methods.client.terminal.waitForExit, async ({ params }) => {
      seen.requests.push({ method: "terminal/wait_for_exit", params });
      return terminal(params).exit;
    })
    .onRequest(methods.client.terminal.kill, ({ params }) => {
      seen.requests.push({ method: "terminal/kill", params });
      terminal(params).child.kill("SIGTERM");
      return {};
    })
    .onRequest(methods.client.terminal.release, ({ params }) => {
      seen.requests.push({ method: "terminal/release", params });
      const t = terminal(params);
      t.child.kill("SIGTERM");
      t.released = true;
      return {};
    });
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  return {
    request: (method, params) =>
      connection.agent.request(method, params, { cancellationSignal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), stopWaitingOnCancel: true }),
    seen,
    stderr: () => stderr,
    /** The updates of one session, in order. */
    updatesOf: (sessionId) => seen.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update),
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await closed;
      clearTimeout(timer);
      for (const t of seen.terminals.values()) t.child.kill("SIGKILL");
      return code;
    },
  };
}
