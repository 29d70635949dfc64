// The REAL Letta Code app server for one test file (tests/support/real-peer.mjs, on loopback),
// and what its scripted model was asked.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const shared = await import(pathToFileURL(join(repoRoot, "tests", "support", "real-peer.mjs")).href);

export const { freePort } = shared;

/** A peer in `target/real-peer/peer` (test files run one at a time; each stops its peer). */
export function startPeer() {
  return shared.startPeer("peer");
}

/** The requests the scripted model received (one JSON object per line of the model's log). */
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
