#!/usr/bin/env node
// Writes the committed seed corpus of the fuzz targets (fuzz/corpus/<target>/) from the
// repository's own test data: the recorded real app-server turn (tests/captures) and the JSON
// vectors (tests/vectors). Run it again when those change: `node fuzz/seed-corpus.mjs`.
// Files are named by a hash of their content, as libFuzzer names the inputs it adds.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const RUNTIME = { agent_id: "agent-1", conversation_id: "conv-1" };
const MAX_FRAME = 4_096; // the big device-status snapshots are kept out (two small ones stay in)

function write(target, inputs) {
  const dir = join(root, "fuzz", "corpus", target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const names = new Set();
  for (const input of inputs) {
    const name = createHash("sha1").update(input).digest("hex");
    if (names.has(name)) continue;
    names.add(name);
    writeFileSync(join(dir, name), input);
  }
  console.log(`fuzz/corpus/${target}: ${names.size} inputs`);
}

const vectors = (file) => JSON.parse(readFileSync(join(root, "tests", "vectors", file), "utf8"));
const capture = readFileSync(join(root, "tests", "captures", "real-app-server-turn.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));
// The session target's runtime is agent-1 / conv-1: the recorded frames are moved onto it.
const recorded = capture
  .filter((line) => line.dir === "recv")
  .map((line) => JSON.stringify({ ...line.frame, ...(line.frame.runtime ? { runtime: RUNTIME } : {}) }));

const coordinatorVectors = ["stream-message-identity.vectors.json", "coordinator-correlation.vectors.json", "coordinator-repeats.vectors.json"].flatMap(vectors);

// frames: one frame per input.
const frameInputs = recorded.filter((frame) => frame.length <= MAX_FRAME);
for (const vector of coordinatorVectors) {
  for (const op of vector.ops) {
    if (op.op === "protocol") frameInputs.push(JSON.stringify(op.message));
    if (op.op === "frame") frameInputs.push(op.text);
  }
}
write("frames", frameInputs);

// session: one op per line (see fuzz_targets/session.rs).
const sessionInputs = [];
const turn = ["Splease run `echo hello`"];
for (const frame of recorded.slice(recorded.findIndex((f) => f.includes("runtime_start_response")) + 1)) {
  if (frame.length > MAX_FRAME) continue;
  turn.push(`F${frame}`);
  if (frame.includes('"control_request"')) turn.push("Y");
}
turn.push("W", "W", "C", "W");
sessionInputs.push(turn.join("\n"));
for (const vector of coordinatorVectors) {
  const lines = [];
  for (const op of vector.ops) {
    if (op.op === "trackSentTurn") lines.push("Shello");
    else if (op.op === "protocol") lines.push(`F${JSON.stringify(op.message)}`);
    else if (op.op === "frame") lines.push(`F${op.text}`);
    else if (op.op === "next") lines.push("W");
    else if (op.op === "close") lines.push("C");
    else if (op.op === "closeWithError") lines.push("X");
  }
  sessionInputs.push(lines.join("\n"));
}
write("session", sessionInputs);

// accumulator: one op per line (see fuzz_targets/accumulator.rs).
const accumulatorInputs = [];
for (const vector of vectors("transcript-accumulator.vectors.json")) {
  const lines = [];
  for (const op of vector.ops) {
    if (op.op === "apply") lines.push(`M${JSON.stringify(op.message)}`);
    else if (op.op === "rebase") {
      const order = op.options?.order;
      lines.push(`${order === "asc" ? "A" : order === "desc" ? "D" : "P"}${JSON.stringify(op.page)}`);
    } else if (op.op === "rows") lines.push("K");
    else if (op.op === "reset") lines.push("R");
  }
  accumulatorInputs.push(lines.join("\n"));
}
write("accumulator", accumulatorInputs);
