// Where things are: the runner copies each scratch project to target/<name> and this directory
// into it as support/, and sets LETTA_REPO_ROOT.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");

/** The recorded stream of the demo (www/recorded/session.json, copied by the runner). */
export function loadRecording(path = "recorded/session.json") {
  return JSON.parse(readFileSync(join(process.cwd(), path), "utf8"));
}
