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

/** Progress callback of a tool (accepted for compatibility; this client never passes one). */
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
   * nothing reports an empty result. `signal` and `onUpdate` are never passed by this client.
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
  /** Exact client-tool allowlist, sent with every turn (deduplicated). */
  allowedTools?: readonly string[];
  /** Sent with every turn. */
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
  mcpServers?: Record<string, McpServerConfig>;
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

/** Options of `createAgent()`: the agent's creation body. */
export interface CreateAgentOptions {
  /** Display name. */
  name?: string;
  description?: string;
  /** Model handle. */
  model?: string;
  /** Embedding model. */
  embedding?: string;
  /** The complete system prompt (presets are not supported by this backend). */
  systemPrompt?: string;
  tags?: readonly string[];
  /** Hide from default listings; also decides `pin_global` unless `pinGlobalAgent` is set. */
  hidden?: boolean;
  /** Enable the git-backed memory filesystem (default `true`; `false` is faster). */
  memfs?: boolean;
  /** Rejected: pass `environment`/`computer` to `createSession()` instead. */
  environment?: never;
}

/** Options of an agent-free `query()` (needs Letta Cloud; this client rejects `query()`). */
export interface AgentFreeQueryOptions extends LettaCodeSessionOptionsBase {
  /** Model handle of the ephemeral conversation. */
  model: string;
  /** The complete system prompt. */
  system: string;
  /** Resume an agent-free conversation (creation fields are then ignored). */
  conversationId?: string;
  modelSettings?: Record<string, unknown>;
  parentAgentId?: string;
  name?: string;
  isSubagent?: boolean;
  contextWindowLimit?: number | null;
}

export interface QueryParams {
  prompt: SendMessage;
  options: AgentFreeQueryOptions;
}
