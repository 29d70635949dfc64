// The React Native build as an app gets it: the installed package bundled by Metro with React
// Native's config and Babel preset (the `react-native` export condition), compiled by hermesc
// and run in the Hermes VM, with only the globals React Native provides (app/host.js,
// app/initialize-core.js). In the VM (app/index.js): the accumulator vectors, a replayed real
// turn answered by canUseTool, an SDK-hosted tool's execute, a createChat store over a replayed
// turn, an abort, a stdio MCP server refused, and a Cloud REST call through an injected fetch.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generate } from "./support/generate.mjs";
import { compile, hermes, metroBundle, runInVm } from "./support/hermes.mjs";

const root = resolve(import.meta.dirname);
const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const work = mkdtempSync(join(tmpdir(), "letta-rn-"));
let bundle;
let lines;

before(async () => {
  generate(repoRoot, join(root, "app"));
  bundle = await metroBundle(root, join(root, "app/index.js"), join(work, "index.android.bundle"));
  const bytecode = await compile(bundle, join(work, "index.android.hbc"));
  const output = await runInVm(bytecode);
  console.log(`# Hermes ${hermes.version} (hermes-engine-cli), the app's output:`);
  for (const line of output.trim().split("\n")) console.log(`#   ${line}`);
  lines = output.split("\n");
});

after(() => rmSync(work, { recursive: true, force: true }));

/** Asserts that the VM printed `ok - <name>`. */
function passedInVm(name) {
  const line = lines.find((l) => l.startsWith(`ok - ${name}`) || l.startsWith(`not ok - ${name}`));
  assert.ok(line, `the VM printed nothing for "${name}"`);
  assert.equal(line, `ok - ${name}`);
}

/** Asserts that `pattern` is not in the bundle (naming what surrounds it, not the whole bundle). */
function absent(code, pattern, why) {
  const found = pattern.exec(code);
  assert.equal(found && code.slice(found.index - 80, found.index + 80), null, why);
}

test("the bundle has no WebAssembly, no dynamic import hermesc would reject, and no stdio MCP transport", () => {
  const code = readFileSync(bundle, "utf8");
  absent(code, /WebAssembly\.(instantiate|Module)\b/, "the WebAssembly build");
  absent(code, /\bimport\(/, "an import() hermesc rejects");
  // The stdio transport module (its export): only the Node loader imports it (lib/mcp.js).
  absent(code, /DEFAULT_INHERITED_ENV_VARS/, "the Node-only stdio MCP transport");
});

for (const name of [
  "vectors: accumulator 34 passed, 0 failed",
  "vectors: extractStreamTextDelta 7 passed, 0 failed",
  "a replayed real turn answered by canUseTool",
  "an SDK-hosted tool's execute answers the server's call",
  "createChat: the replayed turn, its approval allowed from the snapshot",
  "abort() ends the turn as cancelled",
  "stdio mcpServers are a typed error (no child processes)",
  "a Cloud REST call through an injected fetch",
]) {
  test(`in Hermes: ${name}`, () => passedInVm(name));
}

test("the app's own summary counts no failure", () => {
  assert.match(lines.join("\n"), /^8 passed, 0 failed$/m);
});
