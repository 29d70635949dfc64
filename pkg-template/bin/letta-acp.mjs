#!/usr/bin/env node
// letta-acp: a Letta agent for ACP editors (Zed, JetBrains, acpx, …) over stdio, on the
// package's public `letta-agent-wasm/client` API. stdout carries only ACP JSON-RPC; every log
// line goes to stderr. `letta-acp --login` runs the Letta Code CLI's sign-in instead (the
// terminal auth method: an editor runs it in a terminal). Settings (environment):
//   LETTA_ACP_BACKEND           local (default) | remote | cloud
//   LETTA_APP_SERVER_URL/_TOKEN the app server of `remote`
//   LETTA_API_KEY               `cloud` (LETTA_BASE_URL for another API origin; LETTA_ACP_COMPUTER
//                               names a computer, else sessions run on managed sandboxes)
//   LETTA_CODE_BIN              the `letta` command `local` starts (default: `letta` on PATH)
//   LETTA_AGENT_ID              the agent (default: the visible agent "Letta", created if missing)
//   LETTA_ACP_MODEL             model handle for new sessions (and a created agent)
//   LETTA_ACP_PERMISSION_MODE   standard (default) | acceptEdits | unrestricted
//   LETTA_ACP_STATE_DIR         where session records live (default ~/.local/state/letta-acp)
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createAgentApp } from "../acp/agent.js";
import { runLogin } from "../acp/auth.js";
import { connectBackend, resolveAgent } from "../acp/backend.js";
import { log } from "../acp/log.js";

// Nothing but JSON-RPC may reach stdout, whatever a dependency prints.
console.log = console.info = console.debug = console.error;

if (process.argv.includes("--login")) process.exit(await runLogin());

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// The backend starts at once but is awaited only by session requests: `initialize` (and the
// auth methods an editor needs to fix a missing credential) is answered whatever happens here.
const backend = connectBackend();
backend.catch((error) => log(`could not start the backend: ${error?.message ?? error}`));
const agentId = backend.then(({ client }) => resolveAgent(client));
agentId.catch((error) => log(`no agent: ${error?.message ?? error}`));

const app = createAgentApp({ backend, agentId, version });
// Node's web streams are the standard ones at run time; @types/node declares them apart from the DOM's.
const input = /** @type {ReadableStream<Uint8Array>} */ (/** @type {unknown} */ (Readable.toWeb(process.stdin)));
const stream = ndJsonStream(Writable.toWeb(process.stdout), input);
const connection = app.connect(stream);

let closing = false;
async function shutdown(code = 0) {
  if (closing) return;
  closing = true;
  await app.closeSessions().catch(() => {});
  await backend.then((b) => b.close()).catch(() => {});
  process.exit(code);
}
connection.closed.then(() => shutdown(0), () => shutdown(1));
process.on("SIGINT", () => shutdown(130));
process.on("SIGTERM", () => shutdown(143));
