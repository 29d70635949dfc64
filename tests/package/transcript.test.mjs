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
    { type: "assistant", content: "x", uuid: "u", big: 10n },
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
