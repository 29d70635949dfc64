// Chooses and connects the Letta backend of letta-acp from the environment:
//   LETTA_ACP_BACKEND=remote  LETTA_APP_SERVER_URL + LETTA_APP_SERVER_TOKEN (an app server you run)
//   LETTA_ACP_BACKEND=cloud   LETTA_API_KEY (Letta Cloud; LETTA_BASE_URL for another API origin);
//                             sessions run on a managed sandbox unless LETTA_ACP_COMPUTER names a computer
//   LETTA_ACP_BACKEND=local   (default) starts the installed Letta Code app server on loopback
//                             (`letta`, or the command in LETTA_CODE_BIN) with a capability token.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { log } from "./log.js";

const LOCAL_START_TIMEOUT_MS = 90_000;

/** The backend LETTA_ACP_BACKEND names (`local` by default). */
export const backendKind = (env = process.env) => (env.LETTA_ACP_BACKEND || "local").trim();

/**
 * The JSON-RPC error for a backend that could not start or refused a session: `auth_required`
 * when credentials are missing or refused (the editor then offers the auth methods), else an
 * internal error with the reason.
 */
export function backendError(error, env = process.env) {
  if (error instanceof RequestError) return error;
  const message = String(error?.message ?? error);
  const kind = backendKind(env);
  if (kind === "cloud" && !env.LETTA_API_KEY) return RequestError.authRequired(undefined, "LETTA_API_KEY is not set (the cloud backend needs a Letta API key)");
  if (/\b(401|403)\b|unauthori[sz]ed|forbidden|invalid (api )?key/i.test(message)) return RequestError.authRequired(undefined, `the ${kind} backend refused the credentials: ${message}`);
  return RequestError.internalError(undefined, message);
}

/** A backend: `{client, close()}`; `client` is a connected-on-demand `LettaAgentClient`. */
export async function connectBackend(env = process.env) {
  const kind = backendKind(env);
  if (kind === "cloud") {
    const client = new LettaAgentClient({
      backend: "cloud",
      apiKey: env.LETTA_API_KEY,
      apiBaseUrl: env.LETTA_BASE_URL || undefined,
      computer: env.LETTA_ACP_COMPUTER || undefined,
      WebSocket,
    });
    log(`Letta Cloud at ${env.LETTA_BASE_URL || "https://api.letta.com"}`);
    return { client, close: () => client.close() };
  }
  if (kind === "remote") {
    const url = env.LETTA_APP_SERVER_URL;
    if (!url) throw new Error("LETTA_ACP_BACKEND=remote needs LETTA_APP_SERVER_URL");
    const authToken = env.LETTA_APP_SERVER_TOKEN || undefined;
    const client = new LettaAgentClient({ backend: "remote", url, authToken, WebSocket });
    return { client, close: () => client.close() };
  }
  if (kind === "local") return startLocal(env);
  throw new Error(`unknown LETTA_ACP_BACKEND "${kind}" (expected local, remote or cloud)`);
}

/** Starts `letta --backend local server` on a loopback port chosen by the kernel. */
async function startLocal(env) {
  const command = env.LETTA_CODE_BIN || "letta";
  const dir = mkdtempSync(join(tmpdir(), "letta-acp-"));
  const tokenFile = join(dir, "app-server-token");
  const token = randomBytes(32).toString("hex");
  writeFileSync(tokenFile, token, { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
  const childEnv = { ...env, LETTA_CODE_TELEM: "0", DISABLE_AUTOUPDATER: "1" };
  delete childEnv.LETTA_APP_SERVER_TOKEN;
  const args = ["--backend", "local", "server", "--listen", "ws://127.0.0.1:0", "--ws-auth", "capability-token", "--ws-token-file", tokenFile];
  log(`starting the Letta Code app server: ${command} ${args.slice(0, 5).join(" ")} …`);
  // Its output goes to our stderr (never stdout: that is the ACP channel).
  // A JavaScript entry (e.g. node_modules/@letta-ai/letta-code/letta.js) runs under this Node.
  const [file, argv] = /\.[cm]?js$/.test(command) ? [process.execPath, [command, ...args]] : [command, args];
  const child = spawn(file, argv, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise((resolveUrl, reject) => {
    /** @type {string | null} the output so far, `null` once the URL was read */
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the app server did not start within ${LOCAL_START_TIMEOUT_MS / 1000} s`)), LOCAL_START_TIMEOUT_MS);
    const scan = (data) => {
      process.stderr.write(data);
      if (seen === null) return;
      seen = (seen + data.toString("utf8").replace(/\x1b\[[0-9;]*m/g, "")).slice(-65_536);
      const match = seen.match(/WebSocket: (ws:\/\/\S+)/);
      if (match) {
        seen = null;
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on("data", scan);
    child.stderr.on("data", scan);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${command}: ${error.message} (install Letta Code, or set LETTA_CODE_BIN)`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (seen !== null) reject(new Error(`${command} exited (${signal ?? `code ${code}`}) before it listened`));
    });
  });
  log(`app server listening on ${url}`);
  const client = new LettaAgentClient({ backend: "remote", url, authToken: token, WebSocket });
  const stopChild = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stopChild);
  return {
    client,
    async close() {
      await client.close().catch(() => {});
      stopChild();
    },
  };
}

/**
 * The agent to talk to: LETTA_AGENT_ID, else the visible agent named "Letta" (created on
 * `letta/auto`, or LETTA_ACP_MODEL, when there is none). Its id is logged to stderr.
 */
export async function resolveAgent(client, env = process.env) {
  if (env.LETTA_AGENT_ID) return env.LETTA_AGENT_ID;
  const existing = await client.agents.list({ name: "Letta", limit: 1 }).catch(() => []);
  if (existing[0]?.id) {
    log(`using agent "Letta" ${existing[0].id} (set LETTA_AGENT_ID to choose another)`);
    return existing[0].id;
  }
  const id = await client.createAgent({ name: "Letta", model: env.LETTA_ACP_MODEL || "letta/auto", hidden: false });
  log(`created agent "Letta" ${id} (set LETTA_AGENT_ID=${id} to keep using it)`);
  return id;
}
