// Structured output (`outputFormat`, spec §1.8) through the installed package against the REAL
// app server and the scripted model (scripts/offline-model.mjs rule 0), in both modes:
// - portable: the offline catalog has no `supportsStructuredOutputs`, so the session registers
//   the reserved StructuredOutput tool and asks for it in a prompt suffix;
// - native: a WebSocket wrapper marks the catalog entries `supportsStructuredOutputs: true`
//   (what a hosted catalog says for such models); inputs then carry `response_format`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { modelRequests, startPeer } from "./support/real-peer.mjs";

const SUFFIX =
  "Return the final result by calling StructuredOutput exactly once with the requested fields. Do not write the result as prose.";
const schema = {
  type: "object",
  properties: { city: { type: "string" }, population: { type: "integer", minimum: 0 } },
  required: ["city", "population"],
  additionalProperties: false,
};
const valid = { city: "Lyon", population: 522000 };

let peer;
let agentId;
let portable;
let native;
/** Every frame the native client wrote (parsed). */
const written = [];

/** `ws`, with `supportsStructuredOutputs: true` on catalog entries and a record of written frames. */
class NativeCatalogWebSocket extends WebSocket {
  #wrapped = new Map();

  addEventListener(type, listener, options) {
    if (type !== "message") return super.addEventListener(type, listener, options);
    const wrapped = (event) => {
      const frame = JSON.parse(String(event.data));
      if (frame.type !== "list_models_response") return listener(event);
      frame.entries = frame.entries.map((entry) => ({ ...entry, supportsStructuredOutputs: true }));
      listener({ type: "message", data: JSON.stringify(frame) });
    };
    this.#wrapped.set(listener, wrapped);
    return super.addEventListener(type, wrapped, options);
  }

  removeEventListener(type, listener, options) {
    const wrapped = type === "message" ? this.#wrapped.get(listener) : undefined;
    this.#wrapped.delete(listener);
    return super.removeEventListener(type, wrapped ?? listener, options);
  }

  send(data, ...rest) {
    written.push(JSON.parse(String(data)));
    return super.send(data, ...rest);
  }
}

before(async () => {
  peer = await startPeer();
  portable = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket });
  native = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket: NativeCatalogWebSocket });
  agentId = await portable.createAgent({ model: peer.model, memfs: false });
});

after(async () => {
  await portable?.close();
  await native?.close();
  await peer?.stop();
});

const script = (value) => `[[script ${JSON.stringify(value)}]]`;
const toolNames = (request) => (request.body.tools ?? []).map((t) => t.function?.name ?? t.name);

async function run(client, message, maxRetries) {
  const session = client.createSession(agentId, { toolset: { base: "none" }, outputFormat: { type: "json_schema", schema, maxRetries } });
  const seen = modelRequests(peer).length;
  try {
    await session.send(message);
    const messages = [];
    for await (const m of session.stream()) messages.push(m);
    return { messages, result: messages.at(-1), requests: modelRequests(peer).slice(seen) };
  } finally {
    session.close();
  }
}

const call = (args) => ({ name: "StructuredOutput", args });

test("portable: a valid StructuredOutput call gives structuredOutput and ends the run", async () => {
  const { result, messages, requests } = await run(portable, script({ calls: [call(valid)], text: "never said" }));
  assert.equal(result.type, "result");
  assert.equal(result.success, true, JSON.stringify(result));
  assert.deepEqual(result.structuredOutput, valid);
  assert.equal(messages.filter((m) => m.type === "result").length, 1);
  assert.ok(!messages.some((m) => m.type === "assistant" && /never said/.test(m.content)), "aborted after the tool result");
  assert.ok(requests[0].said.endsWith(SUFFIX), requests[0].said);
  assert.ok(toolNames(requests[0]).includes("StructuredOutput"));
  assert.equal(requests[0].body.response_format, undefined);
});

test("portable: an invalid first call gets a corrective turn, then succeeds", async () => {
  const turns = [{ calls: [call({ city: "Lyon" })], text: "I could not." }, { calls: [call(valid)] }];
  const { result, messages, requests } = await run(portable, script({ turns }));
  assert.equal(result.success, true, JSON.stringify(result));
  assert.deepEqual(result.structuredOutput, valid);
  const refused = messages.find((m) => m.type === "tool_result" && m.isError);
  assert.match(refused.content, /population/);
  assert.ok(requests.some((r) => /did not produce the required structured output/.test(r.said)), "a corrective turn was sent");
  assert.equal(messages.filter((m) => m.type === "result").length, 1);
});

test("portable: invalid answers every time give structured_output_error after maxRetries", async () => {
  const { result, requests } = await run(portable, script({ text: "Just prose, no tool." }), 1);
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "structured_output_error");
  assert.equal(result.error, "structured_output_error");
  assert.match(result.errorDetail, /^Structured output failed after 2 turns: /);
  assert.equal(result.structuredOutput, undefined);
  const users = new Set(requests.map((r) => r.said));
  assert.equal(users.size, 2, "the first turn and one corrective turn");
});

test("native: response_format on each input; valid JSON gives structuredOutput", async () => {
  written.length = 0;
  const { result, requests } = await run(native, script({ json: valid }));
  assert.equal(result.success, true, JSON.stringify(result));
  assert.deepEqual(result.structuredOutput, valid);
  const inputs = written.filter((f) => f.type === "input" && f.payload?.kind === "create_message");
  assert.equal(inputs.length, 1);
  assert.deepEqual(inputs[0].payload.response_format, {
    type: "json_schema",
    json_schema: { name: "response_schema", schema, strict: true },
  });
  assert.ok(!inputs[0].payload.messages[0].content.includes(SUFFIX), "no portable suffix");
  assert.ok(!toolNames(requests.at(-1)).includes("StructuredOutput"), "the reserved tool is withdrawn");
});

test("native: an invalid first answer gets a corrective turn, then succeeds", async () => {
  written.length = 0;
  const { result } = await run(native, script({ turns: [{ text: "not json at all" }, { json: valid }] }));
  assert.equal(result.success, true, JSON.stringify(result));
  assert.deepEqual(result.structuredOutput, valid);
  const inputs = written.filter((f) => f.type === "input" && f.payload?.kind === "create_message");
  assert.equal(inputs.length, 2);
  assert.ok(inputs.every((f) => f.payload.response_format?.type === "json_schema"));
});

test("native: answers off the schema every time give structured_output_error after maxRetries", async () => {
  const { result } = await run(native, script({ json: { city: 7 } }), 2);
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "structured_output_error");
  assert.match(result.errorDetail, /^Structured output failed after 3 turns: The final message does not match the schema/);
});

test("outputFormat validation uses typed errors (checked when the session starts)", async () => {
  const rejects = async (outputFormat, message, extra = {}) => {
    const session = portable.createSession(agentId, { outputFormat, ...extra });
    await assert.rejects(session.ready(), (e) => e.code === "invalid_argument" && e.message === message);
    session.close();
  };
  await rejects([], "Invalid outputFormat. Expected an object.");
  await rejects({ type: "json", schema }, "Invalid outputFormat.type 'json'. Valid values: json_schema.");
  await rejects({ type: "json_schema" }, "Invalid outputFormat.schema. Expected a JSON Schema object.");
  await rejects({ type: "json_schema", schema, maxRetries: 1.5 }, "Invalid outputFormat.maxRetries. Expected a non-negative integer.");
  const tool = { name: "StructuredOutput", parameters: {}, execute: () => ({ content: [] }) };
  await rejects({ type: "json_schema", schema }, "StructuredOutput is a reserved tool name when outputFormat is set.", { tools: [tool] });
});
