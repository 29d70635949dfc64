// Starts the REAL Letta Code app server for a test file through the project's own helper
// (scripts/app-server.mjs: the app server installed from scripts/app-server/, the offline
// scripted model of scripts/offline-model.mjs), in `target/real-peer/<name>`, and stops exactly
// what it started. The token is read from its file and never printed.
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const { startAppServer } = await import(pathToFileURL(join(repoRoot, "scripts", "app-server.mjs")).href);

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

/**
 * `{url, token, model, model2, llmLog, serverPid, dir, stop()}` of a freshly started peer:
 * `model` and `model2` are two quick scripted models, `llmLog` the model's request log.
 */
export async function startPeer(name) {
  const dir = join(repoRoot, "target", "real-peer", name);
  // A fresh state each time: no agents or conversations left from an earlier run.
  rmSync(dir, { recursive: true, force: true });
  const server = await startAppServer({
    stateDir: dir,
    mode: "offline",
    appServerDir: join(repoRoot, "target", "app-server"),
    log: (line) => console.log(`# peer: ${line}`),
  });
  const [model, model2] = server.models;
  return {
    url: server.url,
    token: server.token,
    model,
    model2,
    llmLog: server.modelLog,
    serverPid: server.pid,
    dir,
    stop: server.stop,
  };
}
