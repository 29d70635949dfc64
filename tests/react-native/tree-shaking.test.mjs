// A bundler that honours `sideEffects` (esbuild here; Expo's tree shaking and Re.Pack do the
// same) keeps the React Native loader of an app that never imports `init`: the first call works.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";

const run = promisify(execFile);
const root = resolve(import.meta.dirname);

test("an esbuild bundle of the react-native entry without `init` works on its first call", async () => {
  const work = mkdtempSync(join(tmpdir(), "letta-rn-shake-"));
  try {
    const outfile = join(work, "app.mjs");
    await build({
      entryPoints: [join(root, "app/no-init.js")],
      outfile,
      bundle: true,
      treeShaking: true,
      format: "esm",
      platform: "neutral",
      conditions: ["react-native"],
      mainFields: ["react-native", "module", "main"],
      logLevel: "error",
    });
    // No WebAssembly under --jitless, as in Hermes: only the React Native build can run.
    const outcome = await run(process.execPath, ["--jitless", outfile], { timeout: 60_000 }).catch((error) => error);
    assert.equal(outcome.stdout.trim(), JSON.stringify([["assistant", "first call"]]), outcome.stderr);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
