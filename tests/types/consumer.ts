// Type-checked, never run: uses the whole public API of `letta-agent-wasm/client` (and the root
// entry) the way an application would. `scripts/test-types` requires `tsc --strict --noEmit`
// to pass on it (with TypeScript 7 and 5.9, `nodenext` and `bundler` resolution).
import WebSocket from "ws";
import * as root from "letta-agent-wasm";
import { toThreadMessages, useLettaChat, useLettaChatStore, useLettaRuntime } from "letta-agent-wasm/react";
import {
  APIError,
  CloudManagedSandboxExpiredError,
  ConversationForkHydrationError,
  LettaAgentClient,
  LettaConnectionError,
  createChat,
  type ChatApproval,
  type ChatSnapshot,
  LettaTimeoutError,
  RepositoriesClient,
  createReactNativeWebSocketConstructor,
  createTranscriptAccumulator,
  extractStreamTextDelta,
  init,
  type AgentFreeQueryOptions,
  type AgentSkill,
  type AgentTool,
  type AlphaClient,
  type BlockReference,
  type CanUseToolCallback,
  type CreateBlock,
  type DecisionAnswer,
  type DecisionChoiceAnswer,
  type DecisionChoiceQuestion,
  type DecisionEvaluateParams,
  type DecisionJsonValue,
  type DecisionNoulAnswer,
  type DecisionNoulQuestion,
  type DecisionQuestion,
  type DecisionRequestOptions,
  type DecisionResult,
  type DecisionScoreAnswer,
  type DecisionScoreQuestion,
  type DecisionUsage,
  type DecisionsClient,
  type LettaCodePersonalityId,
  type McpServerStatus,
  type McpServers,
  type MemoryItem,
  type QueryOptions,
  type LettaCodeClientSessionOptions,
  type McpServerConfig,
  type OutputFormat,
  type LettaCodeReactNativeSocketConstructor,
  type LettaCodeSession,
  type LettaError,
  type ListMessagesResult,
  type PortableLettaAgentClientOptions,
  type SDKMessage,
  type SDKProtocolMessage,
  type SDKResultMessage,
  type SDKStreamMessage,
  type SessionDeviceStatus,
  type TranscriptRow,
} from "letta-agent-wasm/client";

/** Compile-time type equality: `assertEqual<A, B>(true)` fails to compile unless A and B are identical. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertEqual = <A, B>(proof: Equal<A, B>): void => void proof;

/** Exhaustiveness: every SDKMessage type handled below. */
function describe(message: SDKMessage): string {
  switch (message.type) {
    case "init":
      return `init ${message.agentId ?? "agent-free"} ${message.sessionId} ${message.model} ${message.tools?.join(",")}`;
    case "assistant":
    case "reasoning":
      return `${message.type} ${message.content} ${message.uuid} ${message.otid ?? ""} ${message.seqId?.toFixed(0)} ${message.runId}`;
    case "tool_call":
      return `${message.toolName}(${JSON.stringify(message.toolInput)}) ${message.rawArguments?.length} ${message.toolCallId}`;
    case "tool_result":
      return `${message.toolCallId}: ${message.isError ? "error" : "ok"} ${message.content.trim()}`;
    case "result":
      if (message.success) return `ok ${message.result ?? ""} ${message.durationMs}ms ${message.runIds?.length}`;
      return `failed ${message.errorCode.toUpperCase()} ${message.error} ${message.recoverable} ${message.approvalConflict === true}`;
    case "error":
      return `error ${message.message} ${message.stopReason} ${message.errorCode ?? "-"} ${message.errorDetail}`;
    case "retry":
      return `retry ${message.reason} ${message.attempt}/${message.maxAttempts} in ${message.delayMs}ms`;
    case "queue_update":
      return message.queue.map((item) => `${item.id} ${item.kind} ${item.source} ${item.clientMessageId} ${item.enqueuedAt}`).join();
    case "loop_status":
      return `${message.status.toLowerCase()} ${message.activeRunIds.join()}`;
    case "stream_event": {
      const delta = extractStreamTextDelta(message.event);
      return `${message.uuid} ${message.event.message_type ?? "?"} ${delta === null ? "" : `${delta.kind}: ${delta.text}`}`;
    }
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

function renderRow(row: TranscriptRow): string {
  if (row.kind === "tool_call") {
    const result = row.result === undefined ? "" : ` → ${row.result.isError ? "!" : ""}${row.result.content}`;
    return `${row.key} ${row.toolName} ${row.status} ${row.argumentsComplete} ${JSON.stringify(row.toolInput)} ${row.rawArguments ?? ""}${result}`;
  }
  const kind: "user" | "assistant" | "reasoning" = row.kind;
  return `${row.key} ${kind}: ${row.text} ${row.uuid ?? ""} ${row.otid ?? ""} ${row.runId ?? ""} ${row.seqId ?? 0}`;
}

const bash: AgentTool<{ command: string }, { exitCode: number }> = {
  name: "RunLocal",
  label: "Run locally",
  description: "Runs a command in the browser sandbox",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  async execute(toolCallId, args) {
    return { content: [{ type: "text", text: `${toolCallId}: ${args.command}` }], details: { exitCode: 0 } };
  },
};

const screenshot: AgentTool = {
  name: "Screenshot",
  parameters: { type: "object", properties: {} },
  execute: (_id, _args, signal) => {
    signal?.throwIfAborted();
    return { content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }], isError: false };
  },
};

const approve: CanUseToolCallback = async (toolName, toolInput, context) => {
  console.log(context.requestId, context.toolCallId, context.blockedPath, context.diffs?.length);
  if (toolName === "Bash" && typeof toolInput.command === "string" && toolInput.command.startsWith("rm")) {
    return { behavior: "deny", message: "No deleting", interrupt: true };
  }
  const suggestion = context.permissionSuggestions?.[0];
  return { behavior: "allow", updatedInput: null, updatedPermissions: suggestion ? [suggestion.id] : [] };
};

async function collectTurn(session: LettaCodeSession): Promise<SDKResultMessage | undefined> {
  const stream = session.stream();
  assertEqual<typeof stream, AsyncGenerator<SDKStreamMessage, void, unknown>>(true);
  for await (const message of stream) {
    console.log(describe(message));
    if (message.type === "result") return message;
  }
  return undefined;
}

export async function main(url: string, token: string): Promise<void> {
  await init();
  await init(new URL("./letta_agent_wasm_bg.wasm", "https://example.test/assets/"));
  await init({ cloud: true });
  await root.init(fetch("/letta_agent_wasm_bg.wasm"));

  const options: PortableLettaAgentClientOptions = {
    backend: "remote",
    url,
    authToken: token,
    WebSocket,
    requestTimeoutMs: 60_000,
    pinGlobalAgent: false,
  };
  const client = new LettaAgentClient(options);
  const backend: "remote" | "cloud" = client.backend;
  console.log(backend, client.computer, client.environment);
  const browserClient = new LettaAgentClient({ backend: "remote", url: "wss://relay.example.test/ws", WebSocket: globalThis.WebSocket });
  await browserClient.close();
  // Declared for source compatibility with the reference SDK (rejected at run time here).
  const cloudOptions: PortableLettaAgentClientOptions = { backend: "cloud", apiKey: "sk-…", webSocketAuth: "query", computer: { deviceId: "dev-1" } };
  console.log(cloudOptions.backend);

  const agentId: string = await client.createAgent({ name: "typed", model: "openai/gpt-4o", memfs: false, tags: ["sdk"], hidden: true });
  // Memory inputs, skills, pinned tools and personality presets.
  const project: CreateBlock = { label: "project", value: "The typed project.", description: "What we build", limit: 5000, read_only: false };
  const shared: BlockReference = { blockId: "block-1" };
  const memory: MemoryItem[] = [project, shared];
  const skill: AgentSkill = { name: "greeting-card", description: "When asked for a card", instructions: "Write four lines." };
  const personality: LettaCodePersonalityId = "memo";
  await client.createAgent({ memory, persona: "I am typed.", human: "A typist.", skills: [skill], baseTools: ["web_search"], embedding: "openai/text-embedding-3-small" });
  await client.createAgent({ personality, name: "Letta", description: "From a preset", model: "openai/gpt-4o" });
  const sessionOptions: LettaCodeClientSessionOptions = {
    permissionMode: "acceptEdits",
    canUseTool: approve,
    tools: [bash, screenshot],
    toolset: { base: "codex", include: ["WebFetch"] },
    allowedTools: ["Bash", "RunLocal"],
    skillSources: ["bundled", "project"],
    dreaming: { trigger: "step-count", stepCount: 10 },
    model: "openai/gpt-4o",
    reasoningEffort: "high",
    cwd: "/work",
  };
  await using session = client.createSession(agentId, sessionOptions);
  const stateless = client.createSession(agentId, { stateless: true, permissionMode: "bypassPermissions" });
  stateless.close();
  // MCP servers and structured output.
  const mcpServers: McpServers = {
    files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/work"], env: { DEBUG: "1" }, cwd: "/work" },
    remote: { type: "http", url: "https://mcp.example.test/mcp", headers: { "X-Team": "sdk" } },
    legacy: { type: "sse", url: "https://mcp.example.test/sse" },
  };
  const outputFormat: OutputFormat = { type: "json_schema", schema: { type: "object", properties: { city: { type: "string" } } }, maxRetries: 1 };
  await using structured = client.createSession(agentId, { mcpServers, outputFormat });
  const answer = await client.prompt("the city, please", agentId, { outputFormat });
  if (answer.success) console.log(answer.structuredOutput);
  else if (answer.errorCode === "structured_output_error") console.log(answer.errorDetail);
  console.log(structured.sessionId);
  const statuses: McpServerStatus[] = await structured.mcpServerStatus();
  const entry: McpServerConfig | undefined = mcpServers.files;
  for (const status of statuses) console.log(status.name, status.status === "needs-auth", status.tools.length, status.error ?? "", entry);

  const ready = await session.ready();
  console.log(ready.agentId.length, ready.conversationId, ready.model ?? "no model", ready.tools?.includes("RunLocal"));
  const ids: (string | null)[] = [session.agentId, session.conversationId, session.sessionId];
  console.log(ids, session.sandbox);

  await session.send("no tools, say hi", { otid: "otid-1" });
  await session.send([{ type: "text", text: "and this" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }]);
  const result = await collectTurn(session);
  if (result !== undefined && !result.success) console.log(result.errorCode, result.errorDetail ?? result.error);
  if (result?.batch !== undefined) console.log(result.batch.id, result.batch.index + 1, "of", result.batch.size);

  const page: ListMessagesResult = await session.listMessages({ limit: 50, order: "desc", before: "message-1" });
  for (const message of page.messages) console.log(message.id, message.message_type);
  console.log(page.nextBefore ?? "first page", page.hasMore === true);
  const boot = await session.bootstrapState({ limit: 20 });
  console.log(boot.agentId, boot.conversationId, boot.model, boot.tools, boot.messages.length);

  const transcript = createTranscriptAccumulator();
  let rows: readonly TranscriptRow[] = transcript.rows();
  await session.send("no tools, once more");
  const batch: SDKMessage[] = [];
  for await (const message of session.stream()) {
    rows = transcript.apply(message);
    batch.push(message);
  }
  rows = transcript.applyMany(batch);
  rows = transcript.rebase(page, { order: "desc" });
  rows = transcript.rebase(boot);
  rows = transcript.rebase(page.messages);
  console.log(rows.map(renderRow).join("\n"));
  transcript.reset();
  transcript.free();
  {
    using scoped = createTranscriptAccumulator();
    scoped.apply({ type: "assistant", content: "hi", uuid: "m-1", otid: null, seqId: 1, runId: "run-1" });
  }

  const models = await session.listModels();
  const first = models.entries[0];
  if (first !== undefined) {
    const updated = await session.updateModel({ modelHandle: first.handle, reasoningEffort: "low" });
    console.log(updated.appliedTo, updated.modelHandle, updated.modelSettings?.temperature);
  }
  console.log(models.availableHandles?.length, models.byokProviderAliases?.["lc-anthropic"]);
  await session.updateModel("openai/gpt-4o-mini");

  const recovered = await session.recoverPendingApprovals({ timeoutMs: 5_000 });
  if (!recovered.recovered) console.log(recovered.detail, recovered.unsupported);
  await session.changeDeviceState({ cwd: "/tmp" });
  await session.changeDeviceState({ permissionMode: "strict" });
  await session.changeDeviceState({ cwd: "/work", permissionMode: "fullAccess" });
  const removed = await session.removeQueuedMessage("queue-item-1");
  console.log(removed.itemId, removed.removed);

  const status: SessionDeviceStatus = await session.getDeviceStatus({ timeoutMs: 2_000 });
  for (const pending of status.pendingControlRequests) {
    for (const diff of pending.diffs ?? []) {
      if (diff.mode === "advanced") console.log(diff.fileName, diff.hunks[0]?.lines[0]?.type);
      else console.log(diff.fileName, diff.reason);
    }
    console.log(pending.requestId, pending.toolName, pending.blockedPath, pending.permissionSuggestions[0]?.text);
  }
  console.log(status.isOnline, status.isProcessing, status.permissionMode, status.workingDirectory, status.memoryDirectory, status.raw);
  const unsubscribe: () => void = session.onDeviceStatus((next) => console.log(next.isProcessing));
  unsubscribe();

  await session.sendCommand({ type: "resume_queue" });
  const info: SDKProtocolMessage = await session.sendCommand({ type: "app_server_info" }, { responseType: "app_server_info_response" });
  console.log(info.type, info.request_id);
  type SyncResponse = SDKProtocolMessage<"sync_response"> & { success: boolean; error?: string };
  const sync = await session.sendCommand<SyncResponse>(
    { type: "sync", runtime: { agent_id: agentId, conversation_id: ready.conversationId } },
    { predicate: (frame) => frame.type === "sync_response", timeoutMs: 5_000 },
  );
  console.log(sync.success, sync.error);
  const maybe = await session.sendCommand({ type: "ping" }, {});
  console.log(maybe?.type);
  await session.abort();

  const resumed = client.resumeSession(ready.conversationId, { canUseTool: (toolName) => ({ behavior: "deny", message: `not ${toolName}` }) });
  resumed.close();
  const once: SDKResultMessage = await client.prompt("no tools, one shot", agentId, { permissionMode: "unrestricted" });
  console.log(once.success ? once.result : once.error);

  const agents = await client.agents.list({ limit: 10, orderBy: "lastRunCompletion", query: "typed", tags: ["sdk"], matchAllTags: true });
  const agent = await client.agents.retrieve(agents[0]?.id ?? agentId);
  console.log(agent.name, agent.model, agent.tags?.length);
  await client.agents.update(agentId, { description: null, modelSettings: { temperature: 0.2 }, contextWindowLimit: 32_000 });
  const conversations = await client.conversations.list({ agentId, orderBy: "lastMessageAt", archiveStatus: "all" });
  const created = await client.conversations.create({ agentId, summary: "typed" });
  await client.conversations.update(created.id, { archived: true });
  const retrieved = await client.conversations.retrieve(conversations[0]?.id ?? created.id);
  const history = await client.conversations.listMessages(retrieved.id, { order: "asc", limit: 5 });
  console.log(retrieved.agent_id, retrieved.last_message_at, history.messages.length);
  try {
    const fork = await client.conversations.fork(created.id, { messageId: "message-1", hidden: true });
    console.log(fork.id);
  } catch (error) {
    if (error instanceof ConversationForkHydrationError) console.log(error.conversationId, error.code, error.cause);
  }
  await client.agents.delete(agentId);
  const catalog = await client.models.list();
  console.log(catalog.entries.map((entry) => `${entry.id} ${entry.label} ${entry.description ?? ""}`));

  try {
    const queryOptions: QueryOptions = { model: "openai/gpt-4o", system: "You are terse.", disableMemoryGuard: true, allowedTools: ["Read"] };
    const legacy: AgentFreeQueryOptions = queryOptions;
    await using query = client.query({ prompt: "hi", options: legacy });
    for await (const message of query) console.log(message.type, query.conversationId, query.agentId);
    // Experimental Cloud decisions (client.alpha throws on a remote client).
    const alpha: AlphaClient = client.alpha;
    const decisions: DecisionsClient = alpha.decisions;
    const mood: DecisionChoiceQuestion<{ happy: string; upset: string }> = { type: "choice", instructions: "Mood?", criteria: { happy: "pleased", upset: "annoyed" } };
    const urgency: DecisionScoreQuestion = { type: "score", instructions: "Urgency?", criteria: ["low", "high"] };
    const refund: DecisionNoulQuestion = { type: "noul", instructions: "Refund?" };
    const evidence: DecisionJsonValue = { messages: ["late again"] };
    const params: DecisionEvaluateParams<{ mood: typeof mood; urgency: DecisionScoreQuestion; refund: DecisionNoulQuestion }> = {
      state: { evidence },
      questions: { mood, urgency, refund },
      sessionId: "s-1",
      trace: { source: "typed" },
      provider: { allowFallbacks: false },
    };
    const request: DecisionRequestOptions = { signal: new AbortController().signal, timeoutMs: 10_000 };
    const decision: DecisionResult<typeof params.questions> = await decisions.evaluate(params, request);
    const choice: "happy" | "upset" = decision.answers.mood.choice;
    const chosen: DecisionChoiceAnswer<"happy" | "upset"> = decision.answers.mood;
    const score: DecisionScoreAnswer = decision.answers.urgency;
    const noul: DecisionNoulAnswer = decision.answers.refund;
    const anyAnswer: DecisionAnswer<DecisionQuestion> = noul;
    const usage: DecisionUsage = decision.usage;
    const inline = await client.alpha.decisions.evaluate({ state: "s", questions: { pick: { type: "choice", instructions: "i", criteria: { a: "A", b: "B" } } } });
    const picked: "a" | "b" = inline.answers.pick.choice;
    console.log(choice, chosen.confidence, score.legend, anyAnswer.type, usage.cost, decision.model, picked, urgency.criteria, refund.type);
    // Cloud-only clients: typed for source compatibility, they throw on this client.
    const computers = await client.computers.list({ onlineOnly: true, limit: 5 });
    const computer = computers.computers[0] ?? (await client.computers.get("device-1"));
    const resolved = await client.computers.resolve({ name: computer.name });
    console.log(computer.status, computer.connectionId, computer.metadata?.os, resolved.connectionId);
    const attached = await client.agents.repositories.attach(agentId, "repo-1", { permissions: "read", recompile: false });
    console.log(attached.isPrimary, (await client.agents.repositories.list(agentId)).length);
    await client.agents.repositories.detach(agentId, attached.id);
    const repositories = new RepositoriesClient({ backend: "cloud", apiKey: "sk-…" });
    const repo = await client.repositories.create({ name: "notes" });
    const listing = await repositories.files.list(repo.id, { pathPrefix: "docs/", depth: 1 });
    const file = await repositories.files.read(repo.id, { path: listing.files[0]?.path ?? "README.md" });
    await repositories.files.update(repo.id, { path: file.path, content: "new", precondition: { contentSha256: file.contentSha256 } });
    const versions = await repositories.versions.list(repo.id, { path: file.path, limit: 3 });
    console.log((await repositories.list({ limit: 10 })).hasNextPage, versions[0]?.author_name ?? "unknown");
  } catch (caught) {
    const error = caught as LettaError;
    switch (error.code) {
      case "unsupported":
      case "invalid_argument":
        console.log(error.name, error.message);
        break;
      case "managed_sandbox_expired":
        console.log(error.sandboxId, error.conversationId);
        break;
      default:
        console.log(error.code);
    }
    if (caught instanceof CloudManagedSandboxExpiredError) console.log(caught.sandboxId);
    if (caught instanceof APIError) console.log(caught.status, caught.code === "api_error");
    if (caught instanceof LettaTimeoutError || caught instanceof LettaConnectionError) console.log(caught.code, caught.name);
  }
  await client.close();
  await client[Symbol.asyncDispose]();
}

/** React Native: its WebSocket takes headers as the third argument. */
declare const ReactNativeWebSocket: LettaCodeReactNativeSocketConstructor;
export const nativeClient = new LettaAgentClient({
  backend: "remote",
  url: "wss://agents.example.test",
  authToken: "token",
  WebSocket: createReactNativeWebSocketConstructor(ReactNativeWebSocket),
});

// The root entry exports the same API.
assertEqual<typeof root.LettaAgentClient, typeof LettaAgentClient>(true);
assertEqual<typeof root.createTranscriptAccumulator, typeof createTranscriptAccumulator>(true);

/** A chat store as an app uses it (createChat; the React hooks below). */
export async function chatStore(client: LettaAgentClient, agentId: string): Promise<void> {
  const chat = createChat({ client, agentId, historyLimit: 20, throttle: "frame", sessionOptions: { canUseTool: (toolName) => (toolName === "Read" ? { behavior: "allow" } : undefined) } });
  const unsubscribe = chat.subscribe(() => {
    const snapshot: ChatSnapshot = chat.getSnapshot();
    const labels: Record<ChatSnapshot["status"], string> = { connecting: "…", ready: "idle", streaming: "busy", "awaiting-approval": "asks", error: "!", closed: "x" };
    console.log(labels[snapshot.status], snapshot.conversationId, snapshot.connection, snapshot.history.hasMore, snapshot.lastResult?.success);
    for (const row of snapshot.rows) console.log(renderRow(row));
    const approval: ChatApproval | undefined = snapshot.approvals[0];
    if (approval?.toolName === "Bash") approval.allow({ command: "ls" });
    else approval?.deny("no");
    for (const item of snapshot.queue) void item.remove();
    for (const entry of snapshot.outbox) if (entry.state === "failed") console.log(entry.error?.message, entry.content);
    if (snapshot.error) console.log(snapshot.error.code, snapshot.error.message);
  });
  await chat.send("hello");
  await chat.send([{ type: "text", text: "parts too" }]);
  await chat.stop();
  await chat.loadOlder();
  await chat.retry();
  await chat.getSnapshot().session?.listModels();
  unsubscribe();
  chat[Symbol.dispose]();
  const resumed = createChat({ client, conversationId: "conv-1" });
  resumed.dispose();
  const session = client.createSession(agentId);
  await session.respondToApproval("call_1", { behavior: "deny", message: "later" });
  createChat({ session, throttle: 0 }).dispose();
}

/** The React bindings' types (called as a component would). */
export function chatComponent(client: LettaAgentClient): string {
  const chat = useLettaChat({ client, agentId: "agent-1" });
  const none = useLettaChat(null);
  const count = useLettaChatStore(null, (snapshot) => snapshot.rows.length);
  const adapter = useLettaRuntime(chat);
  const messages = toThreadMessages(chat.rows);
  void chat.send("hi");
  return `${chat.status} ${none.status} ${count} ${adapter.isRunning} ${messages[0]?.role ?? "none"}`;
}
