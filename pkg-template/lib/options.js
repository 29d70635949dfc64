// Validation of client options, session options and session targets, with the reference
// SDK's error texts (spec §1.2, §1.4, §1.6, §3.1). This is the one home of option checks: it
// turns what the caller passed into the normalized configuration the Rust core reads strictly
// (its shape is documented in crates/core/src/session/options.rs). Checking option shapes is what
// JavaScript does in a few bytes, where the same checks cost kilobytes of WebAssembly. Defaults
// are not applied here: an option left out stays out, and the core applies its default once.
// (Arguments of session calls, by contrast, are checked by the core: both backends share it.)
//
// Every function takes the JSON view of the caller's value (`JSON.parse(JSON.stringify(x))`),
// which is what travels to the core: `undefined` members are gone, functions removed.

import { invalidArgument } from "./errors.js";
import { isNonEmptyString, isObject, positiveInteger } from "./values.js";

const PORTABLE_BACKEND_ERROR =
  'The portable "@letta-ai/letta-agent-sdk/client" entry point supports backend: "remote" and backend: "cloud" only. Import from "@letta-ai/letta-agent-sdk" for local execution.';
const SKILL_SOURCES = ["bundled", "global", "agent", "project"];
const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"];
const DREAMING_TRIGGERS = ["off", "step-count", "compaction-event"];
const TOOLSET_BASES = ["auto", "codex", "codex_snake", "default", "gemini", "gemini_snake", "none"];
const REMOVED_OPTIONS = ["systemPrompt", "disallowedTools", "systemInfoReminder", "includePartialMessages", "memfsStartup"];

/** A value as error texts show it (`?` for non-strings). */
const shown = (value) => (typeof value === "string" ? value : "?");
const dedup = (list) => [...new Set(list)];
const stringList = (value) => (Array.isArray(value) && value.every((item) => typeof item === "string") ? value : null);

/** `requestTimeoutMs` of either backend: absent, or a positive integer (each backend has its default). */
function requestTimeout(o) {
  const requestTimeoutMs = positiveInteger(o.requestTimeoutMs);
  if (requestTimeoutMs === null) throw invalidArgument("Invalid requestTimeoutMs. Expected a positive integer.");
  return requestTimeoutMs;
}

/**
 * The client options of `backend: "cloud"` (JSON view, `fetch` and WebSocket removed), with
 * what both backends share checked here (`requestTimeoutMs`); the Cloud-only options are
 * checked by the Rust core (crates/core/src/cloud/config.rs), which reads these strictly.
 */
export function cloudClientOptions(o) {
  return { ...o, requestTimeoutMs: requestTimeout(o) };
}

/** `new LettaAgentClient(options)`'s first check, for either backend: `options` is an object. */
export function clientOptionsObject(o) {
  if (!isObject(o)) throw invalidArgument("LettaAgentClient options must be an object.");
  return o;
}

/**
 * Validates `new LettaAgentClient(options)` of the remote backend (JSON view of the object
 * `clientOptionsObject` accepted, WebSocket removed); returns
 * `{url, authToken, requestTimeoutMs, pinGlobalAgent}` with the URL normalized.
 */
export function clientConfig(o) {
  const backend = o.backend;
  if (backend == null || backend === "local") throw invalidArgument(PORTABLE_BACKEND_ERROR);
  if (backend !== "remote") {
    throw invalidArgument(`Invalid Letta Code backend '${shown(backend)}'. Valid values: local, remote, cloud.`);
  }
  for (const key of ["computer", "environment"]) {
    if (o[key] != null) {
      throw invalidArgument(
        `LettaAgentClient ${key} is only valid with backend: "cloud"; remote url selects the app-server runtime.`,
      );
    }
  }
  if (o.sandbox != null) throw invalidArgument('LettaAgentClient sandbox options are only valid with backend: "cloud".');
  if (!isNonEmptyString(o.url)) throw invalidArgument("LettaAgentClient remote backend requires a non-empty url.");
  const url = normalizeAppServerUrl(o.url.trim());
  if (o.authToken != null && !isNonEmptyString(o.authToken)) {
    throw invalidArgument("app-server auth token must not be empty");
  }
  const requestTimeoutMs = requestTimeout(o);
  const pinGlobalAgent = typeof o.pinGlobalAgent === "boolean" ? o.pinGlobalAgent : undefined;
  return { url, authToken: o.authToken ?? undefined, requestTimeoutMs, pinGlobalAgent };
}

/** `scheme://rest` → `[scheme, rest]`, or `null`. */
function splitScheme(url) {
  const at = url.indexOf("://");
  return at < 0 ? null : [url.slice(0, at), url.slice(at + 3)];
}

/** A URL as an error message may show it: no user info, no query or fragment (credentials). */
function redact(url) {
  const parts = splitScheme(url.split(/[?#]/)[0]);
  if (parts === null) return "(unparseable)";
  const [scheme, rest] = parts;
  return `${scheme}://${rest.slice(rest.lastIndexOf("@") + 1)}`;
}

/**
 * Spec §3.1: `http:`→`ws:`, `https:`→`wss:`, other schemes rejected; an empty or `/` path
 * becomes `/ws`; a `channel` query parameter is removed, other parameters kept.
 */
function normalizeAppServerUrl(url) {
  const parts = splitScheme(url);
  if (parts === null) throw invalidArgument(`Invalid app-server URL: ${redact(url)}`);
  const given = parts[0].toLowerCase();
  const scheme = given === "ws" || given === "http" ? "ws" : given === "wss" || given === "https" ? "wss" : null;
  if (scheme === null) throw invalidArgument(`Unsupported app-server URL protocol: ${given}:`);
  let rest = parts[1];
  let fragment = "";
  let query;
  const hash = rest.indexOf("#");
  if (hash >= 0) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  const question = rest.indexOf("?");
  if (question >= 0) [rest, query] = [rest.slice(0, question), rest.slice(question + 1)];
  const slash = rest.indexOf("/");
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? "" : rest.slice(slash);
  if (authority.slice(authority.lastIndexOf("@") + 1) === "") {
    throw invalidArgument(`Invalid app-server URL: ${redact(url)}`);
  }
  let out = `${scheme}://${authority}${path === "" || path === "/" ? "/ws" : path}`;
  const kept = (query ?? "").split("&").filter((pair) => pair !== "" && pair.split("=")[0] !== "channel");
  if (kept.length > 0) out += `?${kept.join("&")}`;
  if (fragment !== "") out += `#${fragment}`;
  return out;
}

function optionalString(o, key) {
  const value = o[key];
  if (value == null) return undefined;
  if (!isNonEmptyString(value)) throw invalidArgument(`Invalid ${key}. Expected a non-empty string.`);
  return value;
}

/**
 * Validates the options of `createSession()` / `resumeSession()` / `query()` (the JSON view that
 * {@link splitOptions} made, with `hasCanUseTool` and the tool definitions); `action` names the
 * call in error texts, `cloud` says whether Cloud's placement options (`computer`, `environment`,
 * `sandbox`, `resources`: read by the Cloud start in Rust) are allowed. Returns the normalized
 * options the core reads, without the placement options.
 */
export function sessionOptions(o, action, cloud) {
  for (const removed of REMOVED_OPTIONS) {
    if (o[removed] != null) throw invalidArgument(`${removed} is not supported by the Letta Agent SDK.`);
  }
  for (const cloudOnly of cloud ? [] : ["computer", "environment", "sandbox"]) {
    if (o[cloudOnly] != null) {
      throw invalidArgument(`${action}() ${cloudOnly} options are only valid with backend: "cloud".`);
    }
  }
  if (!cloud && Array.isArray(o.resources) && o.resources.length > 0) {
    throw invalidArgument(`${action}() resources are only valid with backend: "cloud".`);
  }
  if (o.filesystemConfinement != null) {
    throw invalidArgument(`${action}() filesystemConfinement is not supported with backend: "remote".`);
  }
  if (o.stateless != null && typeof o.stateless !== "boolean") {
    throw invalidArgument("Invalid stateless. Expected a boolean.");
  }
  const stateless = o.stateless === true;
  const model = optionalString(o, "model");
  const reasoningEffort = optionalString(o, "reasoningEffort");
  if (reasoningEffort !== undefined && !REASONING_EFFORTS.includes(reasoningEffort)) {
    throw invalidArgument(
      `Invalid reasoningEffort '${reasoningEffort}'. Valid values: ${REASONING_EFFORTS.join(", ")}.`,
    );
  }
  const dreaming = dreamingOptions(o.dreaming);
  if (stateless) {
    const set = { model: model !== undefined, reasoningEffort: reasoningEffort !== undefined, dreaming: dreaming !== undefined, resources: o.resources != null };
    for (const [key, isSet] of Object.entries(set)) {
      if (isSet) {
        throw invalidArgument(`stateless sessions cannot set ${key} because it changes persisted agent configuration.`);
      }
    }
  }
  let skillSources;
  if (o.skillSources != null) {
    const list = stringList(o.skillSources);
    if (list === null) throw invalidArgument("Invalid skillSources. Expected an array of skill sources.");
    const unknown = list.find((source) => !SKILL_SOURCES.includes(source));
    if (unknown !== undefined) {
      throw invalidArgument(`Invalid skill source '${unknown}'. Valid values: ${SKILL_SOURCES.join(", ")}.`);
    }
    skillSources = dedup(list);
  }
  let allowedTools;
  if (o.allowedTools != null) {
    const list = stringList(o.allowedTools);
    if (list === null) throw invalidArgument("Invalid allowedTools. Expected an array of tool names.");
    allowedTools = dedup(list);
  }
  const cwd = optionalString(o, "cwd");
  return {
    reconnect: reconnectOptions(o.reconnect),
    // Mapped (legacy names, unknown values) by the core, which maps a device-state update too.
    permissionMode: o.permissionMode,
    cwd,
    stateless,
    skillSources,
    model,
    reasoningEffort,
    allowedTools,
    toolset: toolsetOptions(o.toolset) ?? loadedTools(allowedTools),
    dreaming,
    hasCanUseTool: o.hasCanUseTool === true,
    tools: toolDefinitions(o.tools),
    // Tools answered "allow" without asking `canUseTool` (structured-output.js adds its own).
    autoAllowedTools: [],
    // Checked by their lazily loaded modules (mcp.js, structured-output.js) before the start.
    mcpServers: o.mcpServers ?? undefined,
    outputFormat: o.outputFormat ?? undefined,
  };
}

/** `reconnect`: absent or `true` (the defaults), `false` (one socket), or `{maxAttempts?, backoffMs?}`. */
function reconnectOptions(value) {
  if (value == null || typeof value === "boolean") return value ?? undefined;
  const policy = isObject(value) ? { maxAttempts: positiveInteger(value.maxAttempts), backoffMs: positiveInteger(value.backoffMs) } : null;
  if (policy === null || policy.maxAttempts === null || policy.backoffMs === null) {
    throw invalidArgument("Invalid reconnect. Expected a boolean or {maxAttempts, backoffMs} with positive integers.");
  }
  return policy;
}

function dreamingOptions(value) {
  if (value == null) return undefined;
  if (!isObject(value)) throw invalidArgument("Invalid dreaming. Expected an object.");
  if (value.behavior != null) {
    throw invalidArgument("Invalid dreaming.behavior. dreaming.behavior is not supported; use dreaming.trigger.");
  }
  const trigger = value.trigger ?? undefined;
  if (trigger !== undefined && !DREAMING_TRIGGERS.includes(trigger)) {
    throw invalidArgument(`Invalid dreaming.trigger '${shown(trigger)}'. Valid values: ${DREAMING_TRIGGERS.join(", ")}.`);
  }
  const stepCount = positiveInteger(value.stepCount);
  if (stepCount === null) throw invalidArgument("Invalid dreaming.stepCount. Expected a positive integer.");
  return { trigger, stepCount };
}

/**
 * Bundled client tools the harness loads only when asked: `allowedTools` filters the loaded
 * tools, so naming one of these there without loading it leaves the agent without it. They go
 * into `client_toolset.include` (an explicit `toolset` wins); other names are never sent there,
 * since the harness fails a turn on an include it does not know.
 */
const LOADABLE_TOOLS = ["Bash", "Edit", "Glob", "Grep", "LS", "Read", "Write"];

/** The toolset that loads what `allowedTools` names of {@link LOADABLE_TOOLS}, if any. */
function loadedTools(allowedTools) {
  const include = allowedTools?.filter((name) => LOADABLE_TOOLS.includes(name)) ?? [];
  return include.length > 0 ? { include } : undefined;
}

function toolsetOptions(value) {
  if (value == null) return undefined;
  if (!isObject(value)) throw invalidArgument("Invalid toolset. Expected an object.");
  const base = value.base ?? undefined;
  if (base !== undefined && !TOOLSET_BASES.includes(base)) {
    throw invalidArgument(`Invalid toolset.base '${shown(base)}'. Valid values: ${TOOLSET_BASES.join(", ")}.`);
  }
  let include;
  if (value.include != null) {
    const list = stringList(value.include);
    if (list === null || !list.every(isNonEmptyString)) {
      throw invalidArgument("Invalid toolset.include. Expected an array of non-empty tool names.");
    }
    include = dedup(list);
  }
  return { base, include };
}

const invalidTool = (i) => invalidArgument(`Invalid tools[${i}]. Expected {name, description, parameters, execute}.`);

/** The definitions of the SDK-hosted tools ({@link splitOptions} checked the array and `execute`). */
function toolDefinitions(value) {
  return (value ?? []).map((tool, i) => {
    if (!isNonEmptyString(tool.name) || !isObject(tool.parameters)) throw invalidTool(i);
    const text = (member) => (typeof member === "string" ? member : undefined);
    return { name: tool.name, label: text(tool.label), description: text(tool.description), parameters: tool.parameters };
  });
}

const requireId = (value, action) => {
  if (!isNonEmptyString(value)) throw invalidArgument(`${action}() requires a non-empty agent id.`);
  return value;
};

/**
 * What a session starts, from the wrapper's description (`{kind: "createSession", agentId}`,
 * `{kind: "resumeSession", id}`, `{kind: "createAgent", body, pinGlobal, memfs}` or `{kind: "query", …}`,
 * JSON view; the management connection builds its target itself). Returns `{target, action}`:
 * `target` is what the core reads, `action` the call's name for error texts.
 */
export function sessionTarget(description) {
  switch (description?.kind) {
    case "createSession":
      return { target: { kind: "newConversation", agentId: requireId(description.agentId, "createSession") }, action: "createSession" };
    case "resumeSession": {
      const id = requireId(description.id, "resumeSession");
      // Spec §1.3: the prefix alone decides whether this is a conversation id.
      const conversation = id.startsWith("conv-") || id.startsWith("local-conv-");
      const target = conversation ? { kind: "resumeConversation", conversationId: id } : { kind: "resumeAgent", agentId: id };
      return { target, action: "resumeSession" };
    }
    case "createAgent":
      // Checked and built by agent-creation.js: `{kind, body, pinGlobal, memfs}`.
      return { target: description, action: "createAgent" };
    case "query":
      // Checked and built by `queryTarget()`.
      return { target: description.target, action: "query" };
    default:
      throw invalidArgument("Invalid session target.");
  }
}

/** Options `query()` does not take (they change an agent's persisted configuration). */
const NOT_IN_QUERY = ["reasoningEffort", "stateless", "dreaming", "resources", "filesystemConfinement"];

/**
 * `query({options})`: `{target, options}`. `target` is the agent-free conversation: resumed by
 * `conversationId`, else created with `body` (wire names); `disableMemoryGuard` goes with the
 * start (app-server backends). `options` are the session options left. As in the reference,
 * `model` and `system` are required even to resume.
 */
export function queryTarget(options) {
  const { model, system, conversationId, modelSettings, parentAgentId, name, isSubagent, contextWindowLimit, disableMemoryGuard, ...rest } =
    options ?? {};
  for (const key of NOT_IN_QUERY) {
    if (rest[key] !== undefined) throw invalidArgument(`query() does not accept ${key}.`);
  }
  if (conversationId !== undefined && !isNonEmptyString(conversationId)) {
    throw invalidArgument("query() conversationId must be a non-empty string.");
  }
  if (!isNonEmptyString(model)) throw invalidArgument("query() requires a non-empty model.");
  if (typeof system !== "string") throw invalidArgument("query() requires a system prompt.");
  const target = { kind: "agentFree", disableMemoryGuard: disableMemoryGuard === true };
  if (conversationId !== undefined) {
    target.conversationId = conversationId;
  } else {
    const text = (value) => (typeof value === "string" ? value : undefined);
    target.body = {
      model,
      system,
      parent_agent_id: text(parentAgentId),
      name: text(name),
      is_subagent: typeof isSubagent === "boolean" ? isSubagent : undefined,
      model_settings: isObject(modelSettings) ? modelSettings : undefined,
      context_window_limit: positiveInteger(contextWindowLimit) ?? undefined,
    };
  }
  return { target, options: rest };
}

/**
 * Splits session options into their JSON view (validated by {@link sessionOptions}) and the
 * functions the session keeps (`canUseTool`, tools' `execute`); `action` names the call.
 */
export function splitOptions(options, action) {
  if (options !== undefined && !isObject(options)) throw invalidArgument(`${action}() options must be an object.`);
  const { canUseTool, tools, ...rest } = options ?? {};
  if (canUseTool !== undefined && typeof canUseTool !== "function") {
    throw invalidArgument("Invalid canUseTool. Expected a function.");
  }
  const executors = new Map();
  let toolDefinitions;
  if (tools !== undefined) {
    if (!Array.isArray(tools)) throw invalidArgument("Invalid tools. Expected an array.");
    toolDefinitions = tools.map((tool, i) => {
      if (!isObject(tool) || typeof tool.execute !== "function") throw invalidTool(i);
      const { execute, ...definition } = tool;
      executors.set(definition.name, execute);
      return definition;
    });
  }
  const plain = JSON.parse(JSON.stringify({ ...rest, tools: toolDefinitions, hasCanUseTool: canUseTool !== undefined }));
  return { plain, canUseTool, executors };
}
