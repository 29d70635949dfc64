// Deliberate mistakes: every line marked `// ✗` must fail to type-check, with exactly one error,
// and no other line may fail. `scripts/test-types` compares tsc's error lines with the marks, so
// a mistake the declarations let through (or an error for an unrelated reason) fails the test.
import {
  APIError,
  createChat,
  LettaAgentClient,
  CloudManagedSandboxExpiredError,
  createReactNativeWebSocketConstructor,
  createTranscriptAccumulator,
  extractStreamTextDelta,
  init,
  type LettaCodeSession,
  type LettaCodeSocketConstructor,
  type LettaError,
  type SDKMessage,
  type SDKProtocolMessage,
  type SDKResultMessage,
  type TranscriptRow,
} from "letta-agent-wasm/client";

declare const client: LettaAgentClient;
declare const session: LettaCodeSession;
declare const message: SDKMessage;
declare const result: SDKResultMessage;
declare const row: TranscriptRow;
declare const caught: unknown;
declare const WebSocket: LettaCodeSocketConstructor;

export async function mistakes(): Promise<void> {
  // The client's options.
  new LettaAgentClient({ url: "ws://127.0.0.1:8283" }); // ✗ backend is required
  new LettaAgentClient({ backend: "local", url: "ws://127.0.0.1:8283" }); // ✗ local is not portable
  new LettaAgentClient({ backend: "remote", url: "ws://127.0.0.1:8283", authToken: "t" }); // ✗ a token needs a header-capable WebSocket
  new LettaAgentClient({ backend: "remote", url: "ws://127.0.0.1:8283", computer: "laptop" }); // ✗ computer is Cloud-only
  new LettaAgentClient({ backend: "remote", url: "ws://127.0.0.1:8283", requestTimeoutMs: "60s" }); // ✗ timeout is a number
  new LettaAgentClient({ backend: "cloud", computer: "laptop", sandbox: { ttlMinutes: 5 } }); // ✗ computer and sandbox exclude each other
  new LettaAgentClient({ backend: "remote", url: "ws://x", WebSocket: (url: string) => url }); // ✗ not a constructor

  // Agents and sessions.
  await client.createAgent({ systemPrompt: { type: "preset", preset: "default" } }); // ✗ presets are not supported
  await client.createAgent({ personality: "grumpy" }); // ✗ not a Letta Code personality
  await client.createAgent({ memory: ["persona"] }); // ✗ memory preset names are not supported
  await client.createAgent({ skills: ["./skills/pdf"] }); // ✗ directory paths need the reference's Node package
  await client.createAgent({ skills: [{ name: "pdf", instructions: "Read PDFs." }] }); // ✗ a skill needs its description
  await client.createAgent({ baseTools: "web_search" }); // ✗ a list of tool names
  client.query({ prompt: "hi", options: { system: "s" } }); // ✗ query() needs a model
  client.query({ prompt: "hi", options: { model: "m", system: "s", disableMemoryGuard: "yes" } }); // ✗ a boolean
  await client.alpha.decisions.evaluate({ state: "s", questions: { q: { type: "rank", instructions: "i" } } }); // ✗ choice, score or noul
  const noulAnswer: number = (await client.alpha.decisions.evaluate({ state: "s", questions: { q: { type: "choice", instructions: "i", criteria: { a: "A" } } } })).answers.q.noul; // ✗ a choice answer has no noul
  const status: "ok" = (await session.mcpServerStatus())[0].status; // ✗ connected, failed or needs-auth
  await client.createAgent({ environment: "laptop" }); // ✗ createAgent takes no environment
  const agentNumber: number = await client.createAgent(); // ✗ resolves with the id string
  client.createSession(42); // ✗ the agent id is a string
  client.createSession("agent-1", { permissionMode: "yolo" }); // ✗ unknown permission mode
  client.createSession("agent-1", { stateless: true, model: "openai/gpt-4o" }); // ✗ stateless sessions cannot set the model
  client.createSession("agent-1", { reasoningEffort: "extreme" }); // ✗ unknown reasoning effort
  client.createSession("agent-1", { toolset: { base: "bash" } }); // ✗ unknown toolset base
  client.createSession("agent-1", { dreaming: { behavior: "reminder" } }); // ✗ dreaming.behavior is rejected
  client.createSession("agent-1", { skillSources: ["local"] }); // ✗ unknown skill source
  client.createSession("agent-1", { canUseTool: async () => ({ behavior: "maybe" }) }); // ✗ allow or deny
  client.createSession("agent-1", { canUseTool: () => ({ behavior: "deny" }) }); // ✗ a deny needs a message
  client.createSession("agent-1", { tools: [{ name: "t", parameters: {}, execute: () => ({ content: [{ type: "text" }] }) }] }); // ✗ text part without text
  client.createSession("agent-1", { outputFormat: { type: "json", schema: {} } }); // ✗ only json_schema
  client.createSession("agent-1", { mcpServers: { web: { type: "http" } } }); // ✗ an HTTP server needs its url
  client.resumeSession("conv-1", { cwd: 1 }); // ✗ cwd is a string
  await client.prompt("no tools, hi"); // ✗ prompt needs the agent id

  // Session methods.
  await session.send({ type: "text", text: "hi" }); // ✗ a string or an array of parts
  await session.send("hi", { otid: 1 }); // ✗ otid is a string
  await session.send([{ type: "image", source: { type: "base64", media_type: "image/bmp", data: "" } }]); // ✗ unsupported image type
  await session.changeDeviceState({}); // ✗ needs cwd or permissionMode
  await session.updateModel({ reasoningEffort: "max" }); // ✗ unknown reasoning effort
  await session.listMessages({ order: "newest" }); // ✗ asc or desc
  await session.removeQueuedMessage(); // ✗ needs the item id
  const unsubscribeCount: number = session.onDeviceStatus(() => undefined); // ✗ returns the unsubscribe function
  session.onDeviceStatus((status) => status.permissionMode === "default"); // ✗ statuses carry normalized modes
  await session.sendCommand({ kind: "sync" }); // ✗ a command needs a type
  const frame: SDKProtocolMessage = await session.sendCommand({ type: "ping" }); // ✗ fire-and-forget resolves with nothing
  await session.sendCommand({ type: "sync" }, { timeoutMs: "5s" }); // ✗ timeoutMs is a number
  session.close().then(() => undefined); // ✗ close() is synchronous
  for await (const streamed of session.stream()) if (streamed.type === "init") return; // ✗ the stream never yields init

  // Messages and results.
  console.log(result.errorCode.length); // ✗ errorCode exists only on failures
  if (result.success) console.log(result.error.length); // ✗ a success has no error
  if (!result.success) console.log(result.result.length); // ✗ a failure has no result text
  if (result.batch?.index === "0") return; // ✗ a batch index is a number
  if (message.type === "assistant") console.log(message.toolName); // ✗ text messages have no toolName
  if (message.type === "tool_result" && message.isError === "true") return; // ✗ isError is a boolean
  if (message.type === "error" && message.errorCode === "timeout") return; // ✗ not an SDKErrorCode

  // Transcript.
  if (row.kind === "assistant") console.log(row.toolInput); // ✗ text rows have no toolInput
  if (row.kind === "tool_call" && row.status === "done") return; // ✗ streaming, ready or complete
  row.key = "other"; // ✗ rows are read-only
  createTranscriptAccumulator().apply({ type: "assistant", content: "hi" }); // ✗ uuid is required
  createTranscriptAccumulator().rebase("history"); // ✗ a page or an array
  createTranscriptAccumulator().rebase([], { order: "newest" }); // ✗ asc or desc
  createTranscriptAccumulator().rows().push(row); // ✗ snapshots are read-only
  if (extractStreamTextDelta({})?.kind === "tool") return; // ✗ assistant or reasoning

  // Management facades.
  await client.agents.list({ orderBy: "name" }); // ✗ createdAt or lastRunCompletion
  await client.agents.update("agent-1", { model_settings: {} }); // ✗ camelCase options
  await client.conversations.create({ summary: "typed" }); // ✗ agentId is required
  await client.conversations.fork("conv-1", { messageId: 1 }); // ✗ message ids are strings
  await client.conversations.list({ archiveStatus: "deleted" }); // ✗ unarchived, archived or all
  const models: string[] = await client.models.list(); // ✗ resolves with ListModelsResult

  // Client, errors, loaders.
  if (client.backend === "local") return; // ✗ remote or cloud
  await client.close(true); // ✗ close takes no argument
  new CloudManagedSandboxExpiredError("sandbox-1"); // ✗ needs the conversation id too
  if ((caught as LettaError).code === "oops") return; // ✗ not a LettaErrorCode
  if ((caught as LettaError).name === "TypeError") return; // ✗ not a LettaErrorName
  if (caught instanceof APIError && caught.status === "404") return; // ✗ status is a number
  await init(42); // ✗ not a module source
  createChat({ client }); // ✗ needs agentId or conversationId
  if (createChat({ client, agentId: "a" }).getSnapshot().status === "idle") return; // ✗ not a ChatStatus
  createChat({ client, agentId: "a", throttle: "slow" }); // ✗ "frame" or a number
  createReactNativeWebSocketConstructor(WebSocket); // ✗ needs React Native's 3-argument class
  console.log(createReactNativeWebSocketConstructor.length, agentNumber, unsubscribeCount, frame, models, noulAnswer, status);
}
