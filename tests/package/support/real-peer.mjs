// Starts the REAL Letta Code app server (../shared/real-peer/start-real-peer.sh) on loopback
// ports chosen here, for one test file, and stops exactly what it started.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const script = join(repoRoot, "..", "shared", "real-peer", "start-real-peer.sh");

/** A free loopback port (the kernel picks it; we release it at once). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function parseEnv(text) {
  return Object.fromEntries(
    text
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/**
 * Starts a peer in `target/real-peer/peer` (one directory, so npm installs the server once; test
 * files run one at a time, each stopping its peer when done) and returns
 * `{url, token, model, model2, llmLog, serverPid, stop()}`. The token is read from the token file
 * and never printed.
 */
export async function startPeer() {
  const dir = join(repoRoot, "target", "real-peer", "peer");
  mkdirSync(dir, { recursive: true });
  const [port, llmPort] = [await freePort(), await freePort()];
  await run("bash", [script, "stop", "--dir", dir]).catch(() => {});
  // The server runs shell commands in its working directory: keep them inside the peer dir.
  await run("bash", [script, "--dir", dir, "--port", String(port), "--llm-port", String(llmPort)], {
    cwd: dir,
    timeout: 240_000,
    env: { ...process.env },
  });
  const env = parseEnv(readFileSync(join(dir, "run", "peer.env"), "utf8"));
  return {
    url: env.WS_URL,
    token: readFileSync(env.TOKEN_FILE, "utf8").trim(),
    model: env.MODEL,
    model2: env.MODEL_2,
    llmLog: env.FAKE_LLM_LOG,
    serverPid: Number(env.SERVER_PID),
    dir,
    async stop() {
      await run("bash", [script, "stop", "--dir", dir], { timeout: 30_000 }).catch(() => {});
    },
  };
}

/** The requests the scripted model received (one JSON object per line of FAKE_LLM_LOG). */
export function modelRequests(peer) {
  try {
    return readFileSync(peer.llmLog, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.path?.endsWith("/chat/completions"));
  } catch {
    return [];
  }
}

/** The last user text the scripted model saw in a request. */
export function lastUserText(request) {
  const messages = request.body?.messages ?? [];
  const user = [...messages].reverse().find((m) => m.role === "user");
  const content = user?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part) => part?.text ?? "").join("") : "";
}
