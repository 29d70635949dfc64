// Installs the real Letta Code app server (@letta-ai/letta-code, pinned in scripts/app-server/)
// into a directory under the project's control, idempotently: `npm ci` from the committed lock
// file, with install scripts off. Three of its pinned dependencies are missing from the npm
// registry and unused at run time (letta.js is a self-contained bundle): the package.json's
// `overrides` map them to empty local stand-ins in scripts/app-server/stubs/.
//
// Install scripts stay off: node-pty would need Node headers to compile (only terminal
// commands use it), letta's postinstall patches its TUI only, and @scarf/scarf pings analytics.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = join(repo, "scripts", "app-server");
export const APP_SERVER_PACKAGE = "@letta-ai/letta-code";

function sourceDigest() {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) hash.update(readFileSync(join(SOURCE, file)));
  return hash.digest("hex");
}

function npmCi(dir, log) {
  return new Promise((resolveRun, reject) => {
    const started = Date.now();
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const child = spawn(npm, ["ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const ticker = setInterval(() => log(`  … still installing (${Math.round((Date.now() - started) / 1000)} s)`), 10_000);
    child.once("error", (error) => {
      clearInterval(ticker);
      reject(error);
    });
    child.once("close", (code) => {
      clearInterval(ticker);
      if (code === 0) resolveRun(Math.round((Date.now() - started) / 1000));
      else reject(new Error(`npm ci of the app server failed (code ${code}):\n${output.trim().split("\n").slice(-15).join("\n")}`));
    });
  });
}

/**
 * Makes sure the app server is installed in `dir` (default .demo/app-server); returns the path
 * of its entry point, letta.js. Skips the install when the stamp matches the committed lock.
 */
export async function installAppServer({ dir = join(repo, ".demo", "app-server"), log = console.log } = {}) {
  const letta = join(dir, "node_modules", ...APP_SERVER_PACKAGE.split("/"), "letta.js");
  const stamp = join(dir, ".installed");
  const digest = sourceDigest();
  if (existsSync(letta) && existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return letta;
  const { dependencies } = JSON.parse(readFileSync(join(SOURCE, "package.json"), "utf8"));
  log(`installing ${APP_SERVER_PACKAGE}@${dependencies[APP_SERVER_PACKAGE]} into ${relative(process.cwd(), dir) || "."} (npm ci, about 20–40 s, once)`);
  mkdirSync(dir, { recursive: true });
  rmSync(stamp, { force: true });
  for (const file of ["package.json", "package-lock.json"]) cpSync(join(SOURCE, file), join(dir, file));
  rmSync(join(dir, "stubs"), { recursive: true, force: true });
  cpSync(join(SOURCE, "stubs"), join(dir, "stubs"), { recursive: true });
  const seconds = await npmCi(dir, log);
  if (!existsSync(letta)) throw new Error(`the install finished but ${letta} is missing`);
  writeFileSync(stamp, digest);
  log(`app server installed in ${seconds} s`);
  return letta;
}
