// The REAL Letta Code app server for one test file, in its own directory
// (target/real-peer/packaging, so a concurrent scripts/test-package run keeps its own peer).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./paths.mjs";

const shared = await import(pathToFileURL(join(repoRoot, "tests", "support", "real-peer.mjs")).href);

/** `{url, token, model, stop()}` of a freshly started peer. */
export function startPeer() {
  return shared.startPeer("packaging");
}
