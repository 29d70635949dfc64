// Starts the REAL Letta Code app server (../shared/real-peer/start-real-peer.sh) for one test
// file, on loopback ports chosen here, in its own directory (target/real-peer/packaging, so a
// concurrent scripts/test-package run keeps its own peer), and stops exactly what it started.
// The pattern of tests/package/support/real-peer.mjs.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./paths.mjs";

const run = promisify(execFile);
const script = join(repoRoot, "..", "shared", "real-peer", "start-real-peer.sh");

function freePort() {
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

/** `{url, token, model, stop()}` of a freshly started peer. The token is never printed. */
export async function startPeer() {
  const dir = join(repoRoot, "target", "real-peer", "packaging");
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
    async stop() {
      await run("bash", [script, "stop", "--dir", dir], { timeout: 30_000 }).catch(() => {});
    },
  };
}
