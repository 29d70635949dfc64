// `createAgent(options)`: the options checked once, with the reference SDK's texts, and turned
// into what each backend sends. Loaded on demand by agent-client.js (createAgent() is async), so
// the browser fetches this chunk only when an app creates agents.
//
// Memory: `memory` items (blocks `{label, value, …}` as the server takes them, or `{blockId}`
// of an existing block), then `persona`, `human` and one block per inline skill become
// `memory_blocks` / `block_ids`. A skill is the block `skills/<name>` (its instructions as the
// value, its trigger text as the description), which the server keeps as the skill's SKILL.md in
// the agent's memory. `baseTools` pins the server-side tools exactly: without it the harness
// attaches its defaults.
//
// Personality presets are Letta Code's (`@letta-ai/letta-code/agent-presets`, large (its size
// is in bench/RESULTS.md) and in a package whose pinned dependencies the registry cannot install).
// The app server builds a preset agent itself from the name (`create_agent {personality}`), so
// the remote backend sends the name and costs no bytes; Letta Cloud has no such route and this
// client does not bundle the presets, so Cloud rejects it.

import { invalidArgument, LettaUnsupportedError } from "./errors.js";
import { isNonEmptyString, isObject } from "./values.js";

const PERSONALITIES = ["memo", "tutorial", "blank", "linus", "kawaii"];
const SYSTEM_PROMPT_PRESETS = ["default", "letta-claude", "letta-codex", "letta-gemini", "claude", "codex", "gemini"];
/** Skill names are directory names (letta-code's convention). */
const SKILL_NAME = /^[a-z0-9][a-z0-9._-]*$/;
/** What a personality cannot be combined with: the app server builds the preset's memory, prompt and tools. */
const PRESET_CONFLICTS = ["persona", "human", "memory", "skills", "baseTools", "systemPrompt", "embedding"];

const unsupported = (message) => new LettaUnsupportedError(message);
const isStringList = (value) => Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * The checked options of `createAgent()` (the caller's value, functions and `files` bytes
 * included): `{body, memfs, personality}`, `body` with the wire names of the agent's creation
 * body. Throws the typed error of the first invalid option.
 */
export function createAgentOptions(options) {
  if (options == null) options = {};
  if (!isObject(options)) throw invalidArgument("createAgent() options must be an object.");
  if (options.environment != null) {
    throw invalidArgument(
      "createAgent() does not accept environment. Set a client default or pass environment to resumeSession()/createSession().",
    );
  }
  rejectSessionOptions(options);
  const body = {};
  for (const key of ["name", "description", "model", "embedding"]) {
    const value = options[key];
    if (value == null) continue;
    if (!isNonEmptyString(value)) throw invalidArgument(`Invalid createAgent() ${key}. Expected a non-empty string.`);
    body[key] = value;
  }
  const system = options.systemPrompt;
  if (system != null) {
    if (typeof system !== "string" || SYSTEM_PROMPT_PRESETS.includes(system)) {
      throw unsupported("createAgent() does not yet support system prompt presets for this backend");
    }
    body.system = system;
  }
  if ("tags" in options) {
    if (!isStringList(options.tags)) throw invalidArgument("Invalid createAgent() tags. Expected an array of strings.");
    body.tags = options.tags;
  }
  if (typeof options.hidden === "boolean") body.hidden = options.hidden;
  const memfs = options.memfs !== false;
  Object.assign(body, memoryFields(options, memfs));
  if (options.baseTools != null) {
    if (!isStringList(options.baseTools) || !options.baseTools.every(isNonEmptyString)) {
      throw invalidArgument("Invalid createAgent() baseTools. Expected an array of tool names.");
    }
    // `tools` alone does not stop the agent type's defaults: both kinds of default go off.
    Object.assign(body, { tools: options.baseTools, include_base_tools: false, include_base_tool_rules: false });
  }
  return { body, memfs, personality: personalityOption(options, memfs) };
}

/** The reference rejects the session options a caller may try on `createAgent()`. */
function rejectSessionOptions(options) {
  if (options.allowedTools !== undefined || options.disallowedTools !== undefined) {
    throw unsupported("App-server createAgent() does not yet support allowedTools/disallowedTools.");
  }
  if (options.canUseTool !== undefined) throw unsupported("App-server createAgent() does not yet support canUseTool callbacks.");
  if (options.systemInfoReminder !== undefined) {
    throw unsupported("App-server createAgent() does not yet support systemInfoReminder overrides.");
  }
  if (options.dreaming?.behavior !== undefined) {
    throw unsupported("App-server createAgent() does not yet support dreaming.behavior overrides.");
  }
}

/** `memory`, `persona`, `human` and `skills` as `{memory_blocks?, block_ids?}` (in that order). */
function memoryFields(options, memfs) {
  const blocks = [];
  const blockIds = [];
  if (options.memory != null) {
    if (!Array.isArray(options.memory)) throw invalidArgument("Invalid createAgent() memory. Expected an array of memory blocks.");
    options.memory.forEach((item, i) => {
      if (typeof item === "string") throw unsupported("App-server createAgent() does not yet support memory preset names.");
      if (isObject(item) && "blockId" in item) {
        if (!isNonEmptyString(item.blockId)) {
          throw invalidArgument(`Invalid createAgent() memory[${i}].blockId. Expected a non-empty string.`);
        }
        blockIds.push(item.blockId);
      } else if (isObject(item) && isNonEmptyString(item.label) && typeof item.value === "string") {
        blocks.push(item);
      } else {
        throw invalidArgument(`Invalid createAgent() memory[${i}]. Expected {label, value} or {blockId}.`);
      }
    });
  }
  for (const label of ["persona", "human"]) {
    const value = options[label];
    if (value == null) continue;
    if (typeof value !== "string") throw invalidArgument(`Invalid createAgent() ${label}. Expected a string.`);
    blocks.push({ label, value });
  }
  for (const skill of inlineSkills(options.skills, memfs)) {
    blocks.push({ label: `skills/${skill.name}`, value: skill.instructions, description: skill.description });
  }
  const given = options.memory != null || options.persona != null || options.human != null || blocks.length > 0;
  return {
    ...(given ? { memory_blocks: blocks } : {}),
    ...(blockIds.length > 0 ? { block_ids: blockIds } : {}),
  };
}

/** `skills`: inline skills only (a directory path needs the reference's Node package). */
function inlineSkills(skills, memfs) {
  if (skills == null) return [];
  if (!Array.isArray(skills)) throw invalidArgument("Invalid createAgent() skills. Expected an array of skills.");
  const seen = new Set();
  const resolved = skills.map((skill, i) => {
    if (typeof skill === "string") {
      throw unsupported(
        `Skill directory paths ("${skill}") require a Node.js runtime. Pass an inline skill ({ name, description, instructions }) instead.`,
      );
    }
    if (!isObject(skill)) throw invalidArgument(`Invalid createAgent() skills[${i}]. Expected {name, description, instructions}.`);
    const { name, description, instructions, files } = skill;
    if (typeof name !== "string" || !SKILL_NAME.test(name)) {
      throw invalidArgument(
        `Invalid skill name "${typeof name === "string" ? name : "?"}". Skill names are directory names: lowercase letters, digits, ".", "_", "-" (e.g. "generating-voice-memos").`,
      );
    }
    if (!isNonEmptyString(instructions)) throw invalidArgument(`Skill "${name}" has empty instructions.`);
    if (!isNonEmptyString(description)) {
      throw invalidArgument(`Skill "${name}" has no description. The description is the skill's trigger text; it is required.`);
    }
    if (seen.has(name)) throw invalidArgument(`Duplicate skill name: "${name}".`);
    seen.add(name);
    if (isObject(files) && Object.keys(files).length > 0) {
      throw unsupported(
        "This backend does not yet support skill support files (scripts/, references/). Pass a skill with only SKILL.md.",
      );
    }
    return { name, description, instructions };
  });
  if (resolved.length > 0 && !memfs) {
    throw invalidArgument("createAgent() skills require the memory filesystem; remove memfs: false.");
  }
  return resolved;
}

/** `personality`: a preset name, checked against what the app server builds itself. */
function personalityOption(options, memfs) {
  const personality = options.personality;
  if (personality == null) return undefined;
  if (!PERSONALITIES.includes(personality)) {
    throw invalidArgument(
      `Invalid createAgent() personality '${typeof personality === "string" ? personality : "?"}'. Valid values: ${PERSONALITIES.join(", ")}.`,
    );
  }
  const conflicts = PRESET_CONFLICTS.filter((key) => options[key] != null);
  if (!memfs) conflicts.push("memfs: false");
  if (conflicts.length > 0) {
    throw unsupported(
      `createAgent() personality cannot be combined with ${conflicts.join(", ")}: the app server builds the preset's memory, prompt and tools itself.`,
    );
  }
  return personality;
}

/**
 * Remote backend: the `runtime_start` target of a session in create-agent mode, or, with a
 * personality, the `create_agent` command and the `agent_update` body of what the preset does
 * not take (`name`, `description`, `hidden`; `null` when none is set).
 */
export function remoteAgentCreation(options, pinGlobalAgent) {
  const { body, memfs, personality } = createAgentOptions(options);
  const pinGlobal = pinGlobalAgent ?? body.hidden !== true;
  if (personality === undefined) return { target: { kind: "createAgent", body, pinGlobal, memfs } };
  const { model, tags, name, description, hidden } = body;
  const update = Object.fromEntries(Object.entries({ name, description, hidden }).filter(([, v]) => v !== undefined));
  return {
    preset: { personality, model, tags, pin_global: pinGlobal },
    update: Object.keys(update).length > 0 ? update : null,
  };
}

/** Letta Cloud: the checked body fields and `memfs` for `CloudClient.createAgent` (crates/core/src/cloud/rest.rs). */
export function cloudAgentCreation(options) {
  const { body, memfs, personality } = createAgentOptions(options);
  if (personality !== undefined) {
    throw unsupported(
      'createAgent() personality presets need backend: "remote" (the app server builds them); this client does not bundle them for Letta Cloud.',
    );
  }
  return { ...body, memfs };
}
