// The Cloud stand-in (tests/cloud/stand-in.mjs: REST and the status relay, written from the spec)
// in front of the REAL app server, for the installed-package tests. It lives in tests/cloud with
// its own dependencies (scripts/test installs them before the package tests run).
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { startPeer } from "./real-peer.mjs";

const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const standInModule = await import(pathToFileURL(join(repoRoot, "tests", "cloud", "stand-in.mjs")).href);

/**
 * Starts the app server and a stand-in with a fresh API key; `log` lines (the stand-in's) are
 * collected in `lines` so that tests can check the key never appears. `stop()` ends both.
 */
export async function startCloud() {
  const peer = await startPeer();
  const { standIn, apiKey, lines } = await standInModule.standInFor(peer);
  return {
    peer,
    standIn,
    apiKey,
    lines,
    async stop() {
      await standIn.stop();
      await peer.stop();
    },
  };
}
