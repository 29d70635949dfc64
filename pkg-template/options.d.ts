// Options of `createAgent()`, `createSession()`, `resumeSession()`, `prompt()` and `query()`:
// permission mode, `canUseTool`, SDK-hosted `tools`, toolset, dreaming, …

import type { ComputerSelector, LettaCodeCloudSandboxOptions, RepositoryResource } from "./backends.js";
import type { SendMessage } from "./messages.js";

/** How tool calls are approved. */
export type PermissionMode = "standard" | "acceptEdits" | "unrestricted" | "strict";

/**
 * Accepted as input and mapped: `"default"` → `"standard"`, `"bypassPermissions"` and
 * `"fullAccess"` → `"unrestricted"`.
 */
export type LegacyPermissionMode = "default" | "bypassPermissions" | "fullAccess";

export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh";

export type SkillSource = "bundled" | "global" | "agent" | "project";

export type DreamingTrigger = "off" | "step-count" | "compaction-event";
export type DreamingBehavior = "reminder" | "auto-launch";

/** Dreaming (reflection) settings of a session; sent as `set_reflection_settings`. */
export interface SessionDreamingOptions {
  /** Default `"step-count"`. */
  trigger?: DreamingTrigger;
  /** A positive integer; default 5. */
  stepCount?: number;
  /** Rejected at run time (`dreaming.behavior is not supported`). */
  behavior?: never;
}

/** Fully resolved dreaming settings (part of `SDKInitMessage`; never filled by this client). */
export interface EffectiveDreamingSettings {
  trigger: DreamingTrigger;
  behavior: DreamingBehavior;
  stepCount: number;
}

/** The base toolset of the client-side tools and extra tools to include, sent with every turn. */
export interface ClientToolsetPreference {
  base?: "auto" | "codex" | "codex_snake" | "default" | "gemini" | "gemini_snake" | "none";
  /** Non-empty tool names (deduplicated). */
  include?: readonly string[];
}

/** A permission grant offered with an approval request. */
export interface CanUseToolPermissionSuggestion {
  id: string;
  text: string;
}

/** What the app server sent with an approval request (optional fields only when the wire had them). */
export interface CanUseToolContext {
  /** The control request id (for logging and correlation). */
  requestId: string;
  /** Links the approval to its `tool_call` message. */
  toolCallId?: string;
  /** Passed through as the wire sent them. */
  permissionSuggestions?: CanUseToolPermissionSuggestion[];
  /** The path that triggered the check, when the tool was blocked on a path rule. */
  blockedPath?: string | null;
  /** File-edit diff previews, verbatim from the wire. */
  diffs?: unknown[];
}

export interface CanUseToolResponseAllow {
  behavior: "allow";
  message?: string;
  /** Replaces the tool's input (sent as `updated_input`, `null` when not given). */
  updatedInput?: Record<string, unknown> | null;
  /** Selected suggestions: ids, or objects with `id` / `suggestion_id` / `permission_suggestion_id`. */
  updatedPermissions?: unknown[];
}

export interface CanUseToolResponseDeny {
  behavior: "deny";
  /** Sent to the agent (default `"Denied by canUseTool callback"`). */
  message: string;
  /** Accepted for compatibility; not transmitted. */
  interrupt?: boolean;
}

export type CanUseToolResponse = CanUseToolResponseAllow | CanUseToolResponseDeny;

/**
 * Decides a tool approval. Called once per approval request (replays re-send the decision); a
 * thrown error denies with its message. Two-argument callbacks work.
 */
export type CanUseToolCallback = (
  toolName: string,
  toolInput: Record<string, unknown>,
  context: CanUseToolContext,
) => CanUseToolResponse | Promise<CanUseToolResponse>;

/** One part of an SDK-hosted tool's result. */
export type AgentToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** An SDK-hosted tool's result. */
export interface AgentToolResult<TDetails = unknown> {
  content: AgentToolResultContent[];
  /** Reported to the agent as a failed tool call. */
  isError?: boolean;
  /** Accepted for compatibility; not transmitted. */
  details?: TDetails;
}

/** Progress callback of a tool (partial updates have no wire form: this client's drops them). */
export type AgentToolUpdateCallback<TDetails = unknown> = (update: Partial<AgentToolResult<TDetails>>) => void;

/** A tool that runs in this process when the agent calls it. */
export interface AgentTool<TArgs extends Record<string, unknown> = Record<string, unknown>, TDetails = unknown> {
  /** Tool name (non-empty; what the agent calls). */
  name: string;
  /** Display label (default: the name). */
  label?: string;
  /** Shown to the model (default `""`). */
  description?: string;
  /** JSON Schema of the arguments (an object). */
  parameters: Record<string, unknown>;
  /**
   * Runs the tool; a thrown error is reported to the agent as the tool's error. Returning
   * nothing reports an empty result. `signal` aborts when the session closes; what `onUpdate`
   * is given is dropped (partial results have no wire form).
   */
  execute(
    toolCallId: string,
    args: TArgs,
    signal?: AbortSignal,
    onUpdate?: AgentToolUpdateCallback<TDetails>,
  ): AgentToolResult<TDetails> | void | Promise<AgentToolResult<TDetails> | void>;
}

/**
 * An MCP server the session connects to (spec §1.4); its tools become SDK-hosted tools named
 * `mcp__<server>__<tool>`. `stdio` starts a child process and works in Node only (elsewhere the
 * session's start rejects with `LettaUnsupportedError`); `http` (Streamable HTTP) and `sse` work
 * everywhere. `close()` ends the child processes and HTTP sessions. Checked when the session
 * starts (its first call rejects with `LettaInvalidArgumentError`), not in `createSession()`.
 */
export type McpServerConfig =
  | { type?: "stdio"; command: string; args?: readonly string[]; env?: Record<string, string>; cwd?: string }
  | { type: "http" | "sse"; url: string; headers?: Record<string, string> };

/** The `mcpServers` option: MCP servers keyed by server name. */
export type McpServers = Record<string, McpServerConfig>;

/**
 * One MCP server of a session (`session.mcpServerStatus()`): `connected`, or `failed` (it did not
 * start, or it stopped since: `error` says why) or `needs-auth` (it answered with an
 * authorization challenge). `tools` are the hosted names of its tools (`mcp__<server>__<tool>`).
 */
export interface McpServerStatus {
  name: string;
  status: "connected" | "failed" | "needs-auth";
  tools: string[];
  error?: string;
}

/**
 * Structured output (spec §1.8). The mode is chosen once per session from the model catalog:
 * native (`response_format` on each input) when the model supports it, else the reserved
 * `StructuredOutput` tool (it runs without an approval). Up to `maxRetries` (default 2)
 * corrective turns are sent; then the result fails with `errorCode: "structured_output_error"`.
 * Checked when the session starts, like `mcpServers`.
 */
export interface OutputFormat {
  type: "json_schema";
  /** JSON Schema (draft 2020-12) of the value. */
  schema: Record<string, unknown>;
  /** Corrective follow-up turns, a non-negative integer (default 2). */
  maxRetries?: number;
}

/** How a lost connection is replaced. */
export interface ReconnectOptions {
  /** Failed opens of the second socket in a row before the session stops replacing it (default 5). */
  maxAttempts?: number;
  /** The first retry's delay in ms; doubled per failure, jittered (default 250). */
  backoffMs?: number;
}

/** Options every session accepts (see {@link LettaCodeClientSessionOptions}). */
export interface LettaCodeSessionOptionsBase {
  /**
   * Exact client-tool allowlist, sent with every turn (deduplicated). The bundled tools it names
   * (`Bash`, `Edit`, `Glob`, `Grep`, `LS`, `Read`, `Write`) are also loaded: they go into the
   * turn's `client_toolset.include` unless `toolset` is given (the harness loads them only when
   * asked, and a name in the allowlist alone does not).
   */
  allowedTools?: readonly string[];
  /** Sent with every turn; wins over what `allowedTools` would load. */
  toolset?: ClientToolsetPreference;
  /** Default `"standard"` (always sent). */
  permissionMode?: PermissionMode | LegacyPermissionMode;
  /** Working directory of the runtime scope. */
  cwd?: string;
  /**
   * Remote sessions: survive a dropped connection (default `true`). The session keeps a second
   * socket on its conversation, so a turn goes on when one drops; when both drop, the turn ends
   * `stream_closed` and the next call reconnects. `false` keeps one socket (a drop closes the
   * session, as in the reference SDK).
   */
  reconnect?: boolean | ReconnectOptions;
  /** Subset of skill sources; `[]` disables all. */
  skillSources?: readonly SkillSource[];
  /** Called for tool approvals; without it approvals end the turn as `approval_conflict`. */
  canUseTool?: CanUseToolCallback;
  /** Tools that run in this process (registered with `runtime_start`). */
  tools?: readonly AgentTool[];
  /** MCP servers keyed by server name, run by this process (see {@link McpServerConfig}). */
  mcpServers?: McpServers;
  /** Structured output: each turn's result carries a validated `structuredOutput` (spec §1.8). */
  outputFormat?: OutputFormat;
  /** Cloud only: a computer to run on (rejected by the remote backend). */
  computer?: ComputerSelector;
  /** @deprecated Alias of `computer` (Cloud only; rejected by the remote backend). */
  environment?: ComputerSelector;
  /** Cloud only (rejected by the remote backend). */
  sandbox?: LettaCodeCloudSandboxOptions;
  /** Ignored by remote and Cloud sessions. */
  env?: Record<string, string>;
  /** Local execution only (rejected by this client). */
  filesystemConfinement?: "memory";
}

/** A session that may change the agent's persisted configuration. */
export interface LettaCodeStatefulSessionOptions extends LettaCodeSessionOptionsBase {
  stateless?: false;
  /** Applied after start with `update_model` (a handle if it contains `/`, else a model id). */
  model?: string;
  reasoningEffort?: ReasoningEffort;
  dreaming?: SessionDreamingOptions;
  /** Cloud only: repositories attached for the session (non-empty is rejected remotely). */
  resources?: readonly RepositoryResource[];
}

/** A session without MemFS; it cannot change persisted configuration. */
export interface LettaCodeStatelessSessionOptions extends LettaCodeSessionOptionsBase {
  stateless: true;
  model?: never;
  reasoningEffort?: never;
  dreaming?: never;
  resources?: never;
}

/** Options of `createSession()`, `resumeSession()` and `prompt()`. */
export type LettaCodeClientSessionOptions = LettaCodeStatefulSessionOptions | LettaCodeStatelessSessionOptions;

/** Alias of {@link LettaCodeClientSessionOptions}. */
export type CreateSessionOptions = LettaCodeClientSessionOptions;

/** Letta Code's personality presets (what the app server builds from the name). */
export type LettaCodePersonalityId = "memo" | "tutorial" | "blank" | "linus" | "kawaii";

/** A memory block to create with the agent (the Letta API's `CreateBlock`). */
export interface CreateBlock {
  /** Its label (`persona`, `human`, or your own, e.g. `project`). */
  label: string;
  value: string;
  description?: string | null;
  limit?: number;
  read_only?: boolean;
  hidden?: boolean | null;
  metadata?: Record<string, unknown> | null;
  tags?: string[] | null;
  base_template_id?: string | null;
  deployment_id?: string | null;
  entity_id?: string | null;
  is_template?: boolean;
  preserve_on_migration?: boolean | null;
  project_id?: string | null;
  template_id?: string | null;
  template_name?: string | null;
}

/** An existing block, attached by id. */
export interface BlockReference {
  blockId: string;
}

/** A `memory` item: a new block, or an existing one by id (preset names are not supported). */
export type MemoryItem = CreateBlock | BlockReference;

/**
 * A skill seeded into the new agent's memory: the block `skills/<name>`, kept by the server as
 * the skill's `SKILL.md`, which the agent owns and can edit like any other memory.
 */
export interface AgentSkill {
  /** Directory name: lowercase letters, digits, `.`, `_`, `-` (e.g. `"generating-voice-memos"`). */
  name: string;
  /** Trigger text: when the agent should load the skill (always visible to it). Non-blank. */
  description: string;
  /** The `SKILL.md` body (markdown, without frontmatter). Non-blank. */
  instructions: string;
  /**
   * Support files (`scripts/…`) need the reference SDK's Node package: any is rejected here
   * (`LettaUnsupportedError`), as are directory paths in place of a skill.
   */
  files?: Record<string, never>;
}

/**
 * Options of `createAgent()`: the agent's creation body. Checked when called (the promise
 * rejects with `LettaInvalidArgumentError` / `LettaUnsupportedError`, with the reference's texts).
 */
export interface CreateAgentOptions {
  /**
   * A Letta Code personality preset (opt-in). On the remote backend the app server builds the
   * preset agent itself (`name`, `description`, `model`, `tags` and `hidden` apply on top); it
   * cannot be combined with `persona`, `human`, `memory`, `skills`, `baseTools`, `systemPrompt`,
   * `embedding` or `memfs: false` (`LettaUnsupportedError`). Letta Cloud rejects it: the presets
   * are Letta Code's and this client does not bundle them.
   */
  personality?: LettaCodePersonalityId;
  /** Display name. */
  name?: string;
  description?: string;
  /** Model handle. */
  model?: string;
  /** Embedding model. */
  embedding?: string;
  /** The complete system prompt (preset names are not supported: `LettaUnsupportedError`). */
  systemPrompt?: string;
  tags?: readonly string[];
  /** Hide from default listings; also decides `pin_global` unless `pinGlobalAgent` is set. */
  hidden?: boolean;
  /** Enable the git-backed memory filesystem (default `true`; `false` is faster). */
  memfs?: boolean;
  /** Memory blocks to create, or existing blocks by id (before `persona` and `human`). */
  memory?: readonly MemoryItem[];
  /** The `persona` block's value. */
  persona?: string;
  /** The `human` block's value. */
  human?: string;
  /** Inline skills seeded into the agent's memory (needs memfs). */
  skills?: readonly AgentSkill[];
  /**
   * Server-side tools to attach, exactly (`[]` for none). Without it the harness attaches its
   * defaults (`web_search`, `fetch_webpage`). Client-side tools (`Bash`, `Edit`, …) come from
   * the harness at run time and are not affected.
   */
  baseTools?: readonly string[];
  /** Rejected: pass `environment`/`computer` to `createSession()` instead. */
  environment?: never;
}

/**
 * Options of `query()`: a conversation without an agent, created with `model` and `system`, or
 * resumed by `conversationId` (`model` and `system` are still required, and ignored then).
 * Remote: the app server creates such conversations through Letta Cloud (an offline app server
 * answers with an error from the first iteration). Cloud: needs an explicit `computer`.
 */
export interface QueryOptions extends LettaCodeSessionOptionsBase {
  /** Model handle of the conversation. */
  model: string;
  /** The complete system prompt. */
  system: string;
  /** Resume a conversation created by `query()` (non-blank; creation fields are then ignored). */
  conversationId?: string;
  modelSettings?: Record<string, unknown>;
  parentAgentId?: string;
  name?: string;
  isSubagent?: boolean;
  contextWindowLimit?: number | null;
  /**
   * Turn off the runtime's memory guard for this conversation (app-server backends: sent as the
   * start's `execution_settings`). Cloud rejects it from the first iteration.
   */
  disableMemoryGuard?: boolean;
}

/** @deprecated Use {@link QueryOptions}. */
export type AgentFreeQueryOptions = QueryOptions;

export interface QueryParams {
  prompt: SendMessage;
  options: QueryOptions;
}
