// Bundling and running as a React Native release build does: Metro (metro.config.cjs) makes the
// bundle, hermesc compiles it to bytecode, the Hermes VM runs the bytecode.
//
// Two Hermes builds from npm: `hermes-engine-cli` 0.12.0, the newest Hermes VM published there
// (its hermesc and VM go together: bytecode version 89), and `hermes-compiler`, the hermesc of
// the React Native release whose Metro config this project uses, for what an app ships today
// (bytecode it compiles only runs in that release's VM, which is not on npm).
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const PLATFORM = { linux: "linux64-bin", darwin: "osx-bin", win32: "win64-bin" }[process.platform];

/** Paths of the VM, its hermesc, and the current React Native hermesc. */
export const hermes = {
  vm: join(dirname(require.resolve("hermes-engine-cli/package.json")), PLATFORM, "hermes"),
  hermesc: join(dirname(require.resolve("hermes-engine-cli/package.json")), PLATFORM, "hermesc"),
  currentHermesc: join(dirname(require.resolve("hermes-compiler/package.json")), "hermesc", PLATFORM, "hermesc"),
  version: require("hermes-engine-cli/package.json").version,
  currentVersion: require("hermes-compiler/package.json").version,
};

/** Metro's release bundle (`dev: false`, minified) of `entry` for Android, written to `out`. */
export async function metroBundle(projectRoot, entry, out) {
  const Metro = require("metro");
  const config = await Metro.loadConfig({ config: join(projectRoot, "metro.config.cjs"), cwd: projectRoot });
  await Metro.runBuild(config, { entry, bundleOut: out, platform: "android", dev: false, minify: true });
  return out;
}

/** `hermesc -O -emit-binary` (as React Native's release build runs it); `compiler`: its path. */
export async function compile(source, out, compiler = hermes.hermesc) {
  await run(compiler, ["-O", "-emit-binary", "-out", out, source], { maxBuffer: 16 << 20 });
  return out;
}

/**
 * Runs bytecode in the VM, with the microtask queue Hermes has in React Native (without it,
 * Hermes 0.12 runs Promise jobs after timers). Resolves with stdout, whatever the exit status.
 */
export async function runInVm(bytecode, { timeout = 120_000 } = {}) {
  try {
    const { stdout } = await run(hermes.vm, ["-Xmicrotask-queue", bytecode], { timeout, maxBuffer: 16 << 20 });
    return stdout;
  } catch (error) {
    return `${error.stdout ?? ""}\n${error.stderr ?? ""}\nexit: ${error.code ?? error.signal}`;
  }
}
