// createAgent() with the reference SDK's memory inputs against the REAL app server: persona,
// human and memory blocks, inline skills, baseTools and a personality preset. The memory is
// read back with the app server's `list_memory` command (its local backend keeps blocks as
// memory files; its agent records carry no blocks or tools), the frames with a recording
// WebSocket.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { LettaAgentClient } from "letta-agent-wasm/client";
import { startPeer } from "./support/real-peer.mjs";
import { recordingSocket } from "./support/recording-socket.mjs";

let peer;
let client;
const { Socket: RecordingSocket, sent } = recordingSocket();

before(async () => {
  peer = await startPeer();
  client = new LettaAgentClient({ backend: "remote", url: peer.url, authToken: peer.token, WebSocket: RecordingSocket });
});

after(async () => {
  await client?.close();
  await peer?.stop();
});

/** The agent's memory files, `{path: {content, description}}` (`list_memory` through a session). */
async function memoryOf(agentId) {
  const session = client.createSession(agentId);
  try {
    const reply = await session.sendCommand({ type: "list_memory", agent_id: agentId }, { responseType: "list_memory_response" });
    assert.equal(reply.success, true, JSON.stringify(reply));
    return Object.fromEntries(reply.entries.map((e) => [e.relative_path, { content: e.content, description: e.description }]));
  } finally {
    session.close();
  }
}

/** The `create_agent` of the last `runtime_start` the package wrote. */
const lastCreate = () => sent.filter((f) => f.type === "runtime_start" && f.create_agent).at(-1).create_agent;

test("persona, human and memory blocks are the new agent's memory, in order", async () => {
  const agentId = await client.createAgent({
    model: peer.model,
    memory: [{ label: "project", value: "The parity project.", description: "What we work on" }],
    persona: "I am the parity tester.",
    human: "The human checks parity.",
  });
  assert.deepEqual(lastCreate().body.memory_blocks, [
    { label: "project", value: "The parity project.", description: "What we work on" },
    { label: "persona", value: "I am the parity tester." },
    { label: "human", value: "The human checks parity." },
  ]);
  const memory = await memoryOf(agentId);
  assert.equal(memory["system/persona.md"]?.content, "I am the parity tester.", JSON.stringify(memory));
  assert.equal(memory["system/human.md"]?.content, "The human checks parity.");
  assert.deepEqual(memory["system/project.md"], { content: "The parity project.", description: "What we work on" });
});

test("an inline skill is seeded as the memory block skills/<name>", async () => {
  const skill = { name: "greeting-card", description: "When the user asks for a greeting card", instructions: "Write a four-line card." };
  const agentId = await client.createAgent({ model: peer.model, skills: [skill] });
  assert.deepEqual(lastCreate().body.memory_blocks, [
    { label: "skills/greeting-card", value: skill.instructions, description: skill.description },
  ]);
  const memory = await memoryOf(agentId);
  const entry = Object.entries(memory).find(([path]) => path.includes("skills/greeting-card"));
  assert.ok(entry, JSON.stringify(Object.keys(memory)));
  assert.deepEqual(entry[1], { content: skill.instructions, description: skill.description });
});

test("baseTools pins the server-side tools exactly; without it the harness chooses", async () => {
  await client.createAgent({ model: peer.model, memfs: false, baseTools: ["web_search"] });
  const pinned = lastCreate().body;
  assert.deepEqual([pinned.tools, pinned.include_base_tools, pinned.include_base_tool_rules], [["web_search"], false, false]);
  await client.createAgent({ model: peer.model, memfs: false, baseTools: [] });
  assert.deepEqual(lastCreate().body.tools, []);
  await client.createAgent({ model: peer.model, memfs: false });
  const defaults = lastCreate().body;
  assert.equal("tools" in defaults || "include_base_tools" in defaults, false, JSON.stringify(defaults));
});

test("a personality is built by the app server; name and description apply on top", async () => {
  const before = sent.length;
  const agentId = await client.createAgent({ personality: "blank", name: "Parity preset", description: "made from a preset", model: peer.model });
  const frames = sent.slice(before);
  const create = frames.find((f) => f.type === "create_agent");
  assert.deepEqual({ ...create, request_id: undefined }, { type: "create_agent", request_id: undefined, personality: "blank", model: peer.model, pin_global: true });
  assert.equal(frames.some((f) => f.type === "runtime_start"), false);
  const agent = await client.agents.retrieve(agentId);
  assert.equal(agent.name, "Parity preset");
  assert.equal(agent.description, "made from a preset");
  // The preset's own persona, written by the app server.
  const memory = await memoryOf(agentId);
  assert.ok((memory["system/persona.md"]?.content ?? "").length > 0, JSON.stringify(Object.keys(memory)));
});

test("createAgent() memory inputs fail with the reference texts", async () => {
  const rejects = (options, expected) => assert.rejects(client.createAgent(options), expected);
  const skill = { name: "ok", description: "d", instructions: "i" };
  await rejects({ skills: ["./skills/mine"] }, {
    name: "LettaUnsupportedError",
    message: 'Skill directory paths ("./skills/mine") require a Node.js runtime. Pass an inline skill ({ name, description, instructions }) instead.',
  });
  await rejects({ skills: [{ ...skill, name: "Bad Name" }] }, {
    message: 'Invalid skill name "Bad Name". Skill names are directory names: lowercase letters, digits, ".", "_", "-" (e.g. "generating-voice-memos").',
  });
  await rejects({ skills: [{ ...skill, instructions: " " }] }, { message: 'Skill "ok" has empty instructions.' });
  await rejects({ skills: [{ ...skill, description: "" }] }, {
    message: 'Skill "ok" has no description. The description is the skill\'s trigger text; it is required.',
  });
  await rejects({ skills: [skill, skill] }, { message: 'Duplicate skill name: "ok".' });
  await rejects({ skills: [skill], memfs: false }, { message: "createAgent() skills require the memory filesystem; remove memfs: false." });
  await rejects({ skills: [{ ...skill, files: { "scripts/run.sh": new Uint8Array([1]) } }] }, { name: "LettaUnsupportedError" });
  await rejects({ memory: ["persona"] }, { name: "LettaUnsupportedError", message: "App-server createAgent() does not yet support memory preset names." });
  await rejects({ memory: [{ blockId: "" }] }, { message: "Invalid createAgent() memory[0].blockId. Expected a non-empty string." });
  await rejects({ memory: [{ label: "x" }] }, { message: "Invalid createAgent() memory[0]. Expected {label, value} or {blockId}." });
  await rejects({ persona: 7 }, { message: "Invalid createAgent() persona. Expected a string." });
  await rejects({ baseTools: "web_search" }, { message: "Invalid createAgent() baseTools. Expected an array of tool names." });
  await rejects({ personality: "grumpy" }, { message: "Invalid createAgent() personality 'grumpy'. Valid values: memo, tutorial, blank, linus, kawaii." });
  await rejects({ personality: "memo", persona: "p", baseTools: [] }, {
    name: "LettaUnsupportedError",
    message: "createAgent() personality cannot be combined with persona, baseTools: the app server builds the preset's memory, prompt and tools itself.",
  });
  await rejects({ allowedTools: ["Bash"] }, { message: "App-server createAgent() does not yet support allowedTools/disallowedTools." });
  await rejects({ systemPrompt: "letta-claude" }, { name: "LettaUnsupportedError" });
  // Letta Cloud has no preset route (no request is made: the fetch would throw).
  const cloud = new LettaAgentClient({ backend: "cloud", apiKey: "k", fetch: () => assert.fail("no request") });
  await assert.rejects(cloud.createAgent({ personality: "memo" }), { name: "LettaUnsupportedError", message: /personality presets need backend: "remote"/ });
});

test("a memory block of an existing block goes by id", async () => {
  const failing = new LettaAgentClient({
    backend: "remote",
    url: peer.url,
    authToken: peer.token,
    WebSocket: RecordingSocket,
  });
  // The local backend has no shared blocks, so the id is checked on the wire only.
  await failing.createAgent({ model: peer.model, memfs: false, memory: [{ blockId: "block-shared" }] }).catch(() => {});
  assert.deepEqual(lastCreate().body.block_ids, ["block-shared"]);
  assert.equal("memory_blocks" in lastCreate().body, true);
  await failing.close();
});
