// Starts the REAL Letta Code app server (../shared/real-peer/start-real-peer.sh) on loopback
// ports chosen here, in `target/real-peer/<name>` (npm installs it once per directory), and stops
// exactly what it started. The token is read from the token file and never printed.
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

/** `{url, token, model, model2, llmLog, serverPid, dir, stop()}` of a freshly started peer. */
export async function startPeer(name) {
  const dir = join(repoRoot, "target", "real-peer", name);
  mkdirSync(dir, { recursive: true });
  await run("bash", [script, "stop", "--dir", dir]).catch(() => {});
  const [port, llmPort] = [await freePort(), await freePort()];
  // The server runs shell commands in its working directory: keep them inside the peer dir.
  await run("bash", [script, "--dir", dir, "--port", String(port), "--llm-port", String(llmPort)], {
    cwd: dir,
    timeout: 300_000,
  });
  const env = Object.fromEntries(
    readFileSync(join(dir, "run", "peer.env"), "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
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
