#!/usr/bin/env node
// Source-size check: no tracked source file over 500 lines unless `.ci/source-size-ceilings`
// lists it with a ceiling. Ceilings are debt, so they only go down: a listed file may not
// exceed its ceiling, a ceiling above the file's current length must be lowered to it, and no
// ceiling may be higher (nor any entry new) compared with the committed parent version.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const LIMIT = 500;
const CEILINGS = ".ci/source-size-ceilings";
const SOURCE = /\.(rs|js|mjs|cjs|ts|tsx|jsx|css|html|sh)$|^scripts\/[^.]+$|^\.ci\/run$/;

function parseCeilings(text) {
  const map = new Map();
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) continue;
    const [path, max] = trimmed.split(/\s+/);
    map.set(path, Number(max));
  }
  return map;
}

const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
const files = git("ls-files", "--cached", "--others", "--exclude-standard")
  .split("\n")
  .filter((f) => f && SOURCE.test(f) && existsSync(f));
const ceilings = existsSync(CEILINGS) ? parseCeilings(readFileSync(CEILINGS, "utf8")) : new Map();
let previous = null;
try {
  previous = parseCeilings(git("show", `HEAD^:${CEILINGS}`));
} catch {
  previous = null; // no parent commit, or the file is new there
}

const problems = [];
let largest = { file: "", lines: 0 };
for (const file of files) {
  const lines = readFileSync(file, "utf8").split("\n").length - 1;
  if (lines > largest.lines) largest = { file, lines };
  const ceiling = ceilings.get(file);
  if (ceiling === undefined) {
    if (lines > LIMIT) problems.push(`${file}: ${lines} lines (limit ${LIMIT}; split it)`);
  } else if (lines > ceiling) {
    problems.push(`${file}: ${lines} lines, over its ceiling ${ceiling}`);
  } else if (ceiling > Math.max(lines, LIMIT)) {
    problems.push(`${file}: ceiling ${ceiling} is above its ${lines} lines: lower it to ${Math.max(lines, LIMIT)}`);
  }
}
for (const [file, ceiling] of ceilings) {
  if (!files.includes(file)) problems.push(`${CEILINGS}: ${file} no longer exists; remove its entry`);
  if (previous !== null) {
    const before = previous.get(file);
    if (before === undefined) problems.push(`${CEILINGS}: new entry for ${file}: ceilings only go down`);
    else if (ceiling > before) problems.push(`${CEILINGS}: ${file} ceiling raised ${before} → ${ceiling}`);
  }
}
if (problems.length) {
  for (const p of problems) console.error(`source size: ${p}`);
  process.exit(1);
}
console.log(`source size: ${files.length} files checked, largest ${largest.file} (${largest.lines} lines), ${ceilings.size} ceilings`);
