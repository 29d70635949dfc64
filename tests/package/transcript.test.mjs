// The transcript accumulator through the installed package's public entries: the snapshot and
// object-identity contract, batching, bad input and memory release.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as client from "letta-agent-wasm/client";
import * as root from "letta-agent-wasm";

const text = (content, seqId, extra = {}) => ({
  type: "assistant", content, uuid: "msg-1", otid: "otid-1", runId: "run-1", seqId, ...extra,
});
const reasoning = (content, seqId) => ({
  type: "reasoning", content, uuid: "msg-r", otid: "otid-r", runId: "run-1", seqId,
});

for (const [name, entry] of [["client", client], ["root", root]]) {
  test(`${name} entry exports the transcript API`, () => {
    assert.equal(typeof entry.createTranscriptAccumulator, "function");
    assert.equal(typeof entry.extractStreamTextDelta, "function");
    assert.deepEqual(entry.createTranscriptAccumulator().rows(), []);
  });
}

test("untouched rows keep their identity; a touched row is a new object", () => {
  const acc = client.createTranscriptAccumulator();
  const first = acc.apply(reasoning("thinking", 1));
  const second = acc.apply(text("Hel", 2));
  assert.equal(second.length, 2);
  assert.notEqual(first, second);
  assert.equal(second[0], first[0], "the reasoning row was not touched");
  const third = acc.apply(text("lo", 3));
  assert.equal(third[0], second[0]);
  assert.notEqual(third[1], second[1]);
  assert.equal(third[1].text, "Hello");
  assert.equal(second[1].text, "Hel", "an earlier row object is never mutated");
  assert.equal(first.length, 1, "an earlier array is never mutated");
});

test("a call that changes nothing returns the very same array", () => {
  const acc = client.createTranscriptAccumulator();
  const rows = acc.apply(text("a", 1));
  assert.equal(acc.apply(text("a", 1)), rows, "replayed seqId");
  assert.equal(acc.apply({ type: "result", success: true }), rows, "ignored type");
  assert.equal(acc.rebase({ messages: [] }), rows, "empty page");
  assert.equal(acc.rows(), rows);
});

test("bad input returns the previous snapshot, never throws, never corrupts rows", () => {
  const acc = client.createTranscriptAccumulator();
  const rows = acc.apply(text("safe", 1));
  const before = JSON.stringify(rows);
  const cyclic = { type: "assistant", uuid: "x" };
  cyclic.self = cyclic;
  const bad = [
    null, undefined, 42, "assistant", [], true,
    { type: "no_such_type", content: "x" },
    { content: "no type" },
    { type: "assistant", content: 42, uuid: "u" },
    { type: "assistant", content: "x", uuid: "u", seqId: "7" },
    { type: "tool_call", toolCallId: { id: 1 }, toolName: "Bash", toolInput: {} },
    { type: "tool_call", toolCallId: "t1", toolName: "Bash", toolInput: "not an object" },
    { type: "tool_result", toolCallId: "t1", content: "ok", isError: "yes" },
    { type: "assistant", content: 10n, uuid: "u" },
    { type: "assistant", content: "x", uuid: 10n },
    cyclic,
  ];
  for (const message of bad) {
    assert.equal(acc.apply(message), rows, `apply(${String(message?.type ?? message)})`);
  }
  assert.equal(acc.applyMany(bad), rows, "applyMany of only bad messages");
  for (const page of [null, 7, "page", { messages: "nope" }, { messages: [null, 3, "x"] }]) {
    assert.equal(acc.rebase(page), rows);
  }
  assert.equal(JSON.stringify(acc.rows()), before);
  // And the accumulator still works afterwards.
  assert.equal(acc.apply(text("!", 2)).at(-1).text, "safe!");
});

test("applyMany gives the same rows as one apply per message, with one snapshot", () => {
  const messages = [];
  for (let turn = 0; turn < 3; turn++) {
    const runId = `run-${turn}`;
    messages.push({ type: "reasoning", content: "hm", uuid: `r${turn}`, otid: `ro${turn}`, runId, seqId: 1 });
    messages.push({ type: "tool_call", toolCallId: `call-${turn}`, toolName: "Bash", toolInput: { raw: "{\"command\":" }, rawArguments: "{\"command\":", uuid: `t${turn}`, runId });
    messages.push({ type: "tool_call", toolCallId: `call-${turn}`, toolName: "Bash", toolInput: { raw: "\"ls\"}" }, rawArguments: "\"ls\"}", uuid: `t${turn}`, runId });
    messages.push({ type: "tool_result", toolCallId: `call-${turn}`, content: "file\n", isError: false, uuid: `tr${turn}`, runId });
    messages.push({ type: "assistant", content: "done", uuid: `a${turn}`, otid: `ao${turn}`, runId, seqId: 2 });
  }
  const one = client.createTranscriptAccumulator();
  for (const m of messages) one.apply(m);
  const many = client.createTranscriptAccumulator();
  const before = many.rows();
  const after = many.applyMany(messages);
  assert.notEqual(after, before);
  assert.deepEqual(after, one.rows());
  assert.equal(after.length, 9);
  const tool = after.find((row) => row.toolCallId === "call-1");
  assert.equal(tool.status, "complete");
  assert.deepEqual(tool.toolInput, { command: "ls" });
  assert.equal(tool.result.content, "file\n");
  assert.equal(many.applyMany([]), after, "empty batch");
});

test("rebase reorders history ahead of live rows and keeps untouched row identity", () => {
  const acc = client.createTranscriptAccumulator();
  const live = acc.apply({ type: "assistant", content: "Hel", uuid: "m-2", otid: "o-2", runId: "run-1", seqId: 10 });
  const rows = acc.rebase({
    messages: [
      { id: "m-2", otid: "o-2", message_type: "assistant_message", content: "Hello", run_id: "run-1", seq_id: 11 },
      { id: "m-1", message_type: "user_message", content: "hi", date: "2026-01-01T00:00:00Z" },
    ],
  }, { order: "desc" });
  assert.deepEqual(rows.map((r) => [r.kind, r.text]), [["user", "hi"], ["assistant", "Hello"]]);
  assert.notEqual(rows[1], live[0]);
  const next = acc.apply({ type: "assistant", content: "!", uuid: "m-2", otid: "o-2", runId: "run-1", seqId: 12 });
  assert.equal(next[0], rows[0], "the user row kept its identity");
  assert.equal(next[1].text, "Hello!");
});

test("reset clears rows and replay state", () => {
  const acc = client.createTranscriptAccumulator();
  acc.apply(text("a", 1));
  acc.reset();
  assert.deepEqual(acc.rows(), []);
  assert.equal(acc.apply(text("a", 1)).length, 1, "the same seqId is accepted again");
});

test("free() releases the accumulator; using it afterwards is a typed error", () => {
  const acc = client.createTranscriptAccumulator();
  acc.apply(text("a", 1));
  acc.free();
  acc.free(); // idempotent
  assert.throws(() => acc.apply(text("b", 2)), (error) => error instanceof Error && error.code === "closed");
});

test("extractStreamTextDelta reads token deltas", () => {
  assert.deepEqual(client.extractStreamTextDelta({ delta: { text: "hi" } }), { kind: "assistant", text: "hi" });
  assert.deepEqual(client.extractStreamTextDelta({ delta: { reasoning: "hm", text: "x" } }), { kind: "reasoning", text: "hm" });
  assert.deepEqual(
    client.extractStreamTextDelta({ message_type: "assistant_message", content: [{ type: "text", text: "a" }, "b"] }),
    { kind: "assistant", text: "ab" },
  );
  assert.equal(client.extractStreamTextDelta({ message_type: "tool_call_message" }), null);
  assert.equal(client.extractStreamTextDelta(null), null);
  assert.equal(client.extractStreamTextDelta("text"), null);
});

test("the typed fast paths and the JSON path give identical rows on a randomized stream", () => {
  // A small deterministic PRNG so that a failure can be replayed.
  let seed = 12345;
  const random = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const pick = (items) => items[random(items.length)];
  const messages = [];
  for (let i = 0; i < 3000; i++) {
    const run = `run-${random(4)}`;
    const kind = pick(["assistant", "reasoning", "tool_call", "tool_result", "result", "stream_event"]);
    if (kind === "assistant" || kind === "reasoning") {
      messages.push({
        type: kind,
        content: pick(["a", "bc", "", "ünï", "line\n"]),
        uuid: pick(["m1", "m2", undefined, ""]),
        otid: pick(["o1", "o2", null, undefined, ""]),
        runId: pick([run, undefined]),
        seqId: pick([undefined, random(40), random(40) + 0.5]),
      });
    } else if (kind === "tool_call") {
      const frag = pick(['{"a":', '1}', '{"b":2}', "", undefined]);
      messages.push({
        type: "tool_call",
        toolCallId: pick(["t1", "t2", ""]),
        toolName: pick(["Bash", "?", undefined]),
        rawArguments: frag,
        toolInput: pick([{ raw: frag ?? "" }, {}, { x: 1 }, undefined]),
        uuid: pick(["u1", undefined]),
        runId: pick([run, undefined]),
      });
    } else if (kind === "tool_result") {
      messages.push({ type: "tool_result", toolCallId: pick(["t1", "t2"]), content: "out", isError: pick([true, false]), uuid: "r" });
    } else if (kind === "stream_event") {
      messages.push({ type: "stream_event", uuid: "e", event: { message_type: "assistant_message", content: "s", id: pick(["m1", undefined]), seq_id: random(40), run_id: run } });
    } else {
      messages.push({ type: "result", success: true });
    }
  }
  const fast = client.createTranscriptAccumulator();
  for (const message of messages) fast.apply(message);
  const batched = client.createTranscriptAccumulator();
  for (let i = 0; i < messages.length; i += 7) batched.applyMany(messages.slice(i, i + 7));
  const viaJson = client.createTranscriptAccumulator();
  // A boxed string fails the fast paths' type checks but serializes like the string: this
  // forces every message through the JSON path.
  const boxed = (message) => ({ ...message, content: typeof message.content === "string" ? new String(message.content) : message.content, runId: message.runId === undefined ? undefined : new String(message.runId), toolCallId: typeof message.toolCallId === "string" ? new String(message.toolCallId) : message.toolCallId });
  for (const message of messages) viaJson.apply(boxed(message));
  assert.deepStrictEqual(fast.rows(), batched.rows());
  assert.deepEqual(fast.rows(), viaJson.rows());
  assert.ok(fast.rows().length > 3);
});
