// The set-up every ACP test file shares: the REAL Letta Code app server with the offline
// scripted model (tests/support/real-peer.mjs), an agent on it, a management client for
// checks, a scratch directory and the environment that points `letta-acp` at the server.
import { mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";

export const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");

/**
 * Starts the peer `name`. Resolves with `{peer, client, agentId, env, scratch, stamp,
 * project(name), stop()}`: `env` runs letta-acp on the remote backend with its own HOME and
 * state directory; `project(name)` makes a fresh project directory (acpx scopes sessions by
 * directory).
 */
export async function acpPeer(name) {
  const { startPeer } = await import(join(repoRoot, "tests", "support", "real-peer.mjs"));
  const peer = await startPeer(name);
  const stamp = Date.now().toString(36);
  const client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  const agentId = await client.createAgent({ model: peer.model, memfs: false, name: `${name}-${stamp}` });
  const scratch = mkdtempSync(join(resolve("."), `scratch-${name}-`));
  const env = {
    ...process.env,
    HOME: join(scratch, "home"), // acpx keeps its session records under ~/.acpx
    LETTA_ACP_STATE_DIR: join(scratch, "state"),
    LETTA_ACP_BACKEND: "remote",
    LETTA_APP_SERVER_URL: peer.url,
    LETTA_APP_SERVER_TOKEN: peer.token,
    LETTA_AGENT_ID: agentId,
  };
  delete env.LETTA_CODE_BIN;
  mkdirSync(env.HOME, { recursive: true });
  const project = (dirName) => {
    const dir = join(scratch, "projects", dirName);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  return {
    peer,
    client,
    agentId,
    env,
    scratch,
    stamp,
    project,
    async stop() {
      await client.close().catch(() => {});
      await peer.stop();
    },
  };
}

/** A prompt text the offline model follows: `[[script {...}]]` (scripts/offline-model.mjs). */
export const script = (value) => `[[script ${JSON.stringify(value)}]]`;
