#!/usr/bin/env node
// Prints the raw and gzip -9 size of every file of the built npm package, and the total a
// browser loads for the `/client` entry: the file its `browser` condition names, every JS
// module that file imports statically (followed transitively), and the .wasm it instantiates.
//
//   node scripts/package-sizes.mjs target/npm [--budget-kb 72]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const root = resolve(process.argv[2] ?? "target/npm");
const budgetArg = process.argv.indexOf("--budget-kb");
const budgetKb = budgetArg > 0 ? Number(process.argv[budgetArg + 1]) : undefined;

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const fmt = (n) => n.toLocaleString("en-US").padStart(9);

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

console.log("== package files (raw / gzip -9 bytes)");
for (const file of walk(root).sort()) {
  const buf = readFileSync(file);
  console.log(`${fmt(buf.length)} ${fmt(gz(buf))}  ${relative(root, file)}`);
}

// Static import graph from the browser entry of ./client.
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const entry = join(root, pkg.exports["./client"].browser);
const seen = new Set();
const importRe = /(?:^|[\n;}])\s*(?:import|export)\s*(?:[^'"`;(]*?\sfrom\s*|[^'"`;(]*?from)?["']([^"']+)["']/g;
function visit(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(importRe)) {
    const spec = match[1];
    if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
  }
}
visit(entry);
const wasmFile = join(root, pkg.exports["./wasm"]);
let raw = 0;
let zipped = 0;
console.log("== browser /client entry: what a browser loads");
for (const file of [...seen, wasmFile]) {
  const buf = readFileSync(file);
  raw += buf.length;
  zipped += gz(buf);
  console.log(`${fmt(buf.length)} ${fmt(gz(buf))}  ${relative(root, file)}`);
}
console.log(`${fmt(raw)} ${fmt(zipped)}  TOTAL (${(zipped / 1000).toFixed(1)} KB gzip)`);
// Chunks the browser entry imports dynamically (MCP client, structured output): fetched only
// by sessions that use them, so outside the budget; printed so that their cost stays visible.
const rootEntry = join(root, pkg.exports["."].browser);
const lazy = walk(join(root, "browser")).filter((file) => file.endsWith(".js") && !seen.has(file) && file !== rootEntry);
if (lazy.length > 0) {
  console.log("== browser /client lazy chunks (loaded on demand)");
  for (const file of lazy.sort()) {
    const buf = readFileSync(file);
    console.log(`${fmt(buf.length)} ${fmt(gz(buf))}  ${relative(root, file)}`);
  }
}
if (budgetKb !== undefined && zipped > budgetKb * 1000) {
  console.error(`size budget exceeded: ${zipped} bytes gzip > ${budgetKb} KB (${budgetKb * 1000} bytes)`);
  process.exit(1);
}
