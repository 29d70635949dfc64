// The React Native app of the Hermes test: bundled by Metro from the installed package (the
// `react-native` export condition), run in the Hermes VM. Each check prints `ok - <name>` or
// `not ok - <name>: <why>`; the last line is `N passed, N failed`. hermes.test.mjs reads them.
//
// React Native's set-up: Metro runs it before this module (metro.config.cjs) once it is in the
// bundle, where an app's `react-native` import puts InitializeCore.
import "./initialize-core.js";
import {
  LettaAgentClient,
  createChat,
  createReactNativeWebSocketConstructor,
  createTranscriptAccumulator,
} from "letta-agent-wasm/client";
import captures from "./generated/captures.js";
import runVectors from "./generated/vectors.js";
import { createReplayServer } from "./replay-server.js";

const PROMPT = "Please run `echo hello && touch probe.txt` and tell me what it printed.";
const results = [];

function expect(condition, why) {
  if (!condition) throw new Error(why);
}

async function check(name, body) {
  try {
    await body();
    results.push(true);
    console.log(`ok - ${name}`);
  } catch (error) {
    results.push(false);
    console.log(`not ok - ${name}: ${error?.name ?? "Error"}: ${error?.message ?? error}`);
  }
}

/** One turn on `session`: every message, the transcript's rows after them, and the result. */
async function turn(session, text, onMessage = () => {}) {
  const transcript = createTranscriptAccumulator();
  await session.send(text);
  const messages = [];
  let rows = [];
  for await (const message of session.stream()) {
    messages.push(message);
    rows = transcript.apply(message);
    await onMessage(message);
  }
  transcript.free();
  return { messages, rows, result: messages[messages.length - 1] };
}

const commandsOf = (server, type) => server.written.filter((command) => command.type === type);

async function vectors(subject, expected) {
  const lines = [];
  await runVectors({ options: ["--only", subject], log: (line) => lines.push(String(line)) });
  const summary = lines[lines.length - 1];
  expect(summary === expected, `${lines.slice(-6).join(" | ")}`);
}

async function main() {
  expect(typeof WebAssembly === "undefined", "this engine has WebAssembly");
  await check("vectors: accumulator 34 passed, 0 failed", () => vectors("accumulator", "34 passed, 0 failed"));
  await check("vectors: extractStreamTextDelta 7 passed, 0 failed", () =>
    vectors("extractStreamTextDelta", "7 passed, 0 failed"),
  );

  const server = createReplayServer();
  const client = new LettaAgentClient({
    backend: "remote",
    url: "ws://replay.invalid/ws",
    authToken: "replay-token",
    WebSocket: createReactNativeWebSocketConstructor(server.WebSocket),
  });

  await check("a replayed real turn answered by canUseTool", async () => {
    const agentId = server.play(captures.approvalTurn);
    const asked = [];
    const session = client.createSession(agentId, {
      canUseTool: async (toolName, input) => (asked.push({ toolName, input }), { behavior: "allow" }),
    });
    const { messages, rows, result } = await turn(session, PROMPT);
    session.close();
    expect(result.type === "result" && result.success === true, `result ${JSON.stringify(result)}`);
    expect(asked.length === 1, `canUseTool asked ${asked.length} times`);
    expect(asked[0].toolName === "Bash" && asked[0].input.command === "echo hello && touch probe.txt", JSON.stringify(asked));
    const answers = commandsOf(server, "input").filter((c) => c.payload.kind === "approval_response");
    expect(answers.length === 1, `${answers.length} approval responses written`);
    expect(answers[0].payload.request_id === "perm-call_fake_1" && answers[0].payload.decision.behavior === "allow", JSON.stringify(answers));
    expect(messages.some((m) => m.type === "tool_result"), "no tool_result message");
    const tool = rows.find((row) => row.kind === "tool_call");
    expect(tool?.toolName === "Bash" && tool.status === "complete", `tool row ${JSON.stringify(tool)}`);
    expect(rows.some((row) => row.kind === "assistant" && /hello/.test(row.text)), "no assistant row quoting the output");
    expect(server.headers.every((h) => h?.Authorization === "Bearer replay-token"), JSON.stringify(server.headers));
  });

  await check("an SDK-hosted tool's execute answers the server's call", async () => {
    const agentId = server.play(captures.sdkToolTurn);
    const calls = [];
    const session = client.createSession(agentId, {
      toolset: { base: "none" },
      tools: [
        {
          name: "shell",
          label: "Shell (SDK-hosted)",
          description: "Runs a command in the SDK process",
          parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
          execute: async (toolCallId, args) => {
            calls.push({ toolCallId, args });
            return { content: [{ type: "text", text: `ran ${args.command} in React Native` }] };
          },
        },
      ],
    });
    const { rows, result } = await turn(session, "Please run `echo sdk-hosted` and tell me what it printed.");
    session.close();
    expect(result.success === true, `result ${JSON.stringify(result)}`);
    expect(calls.length === 1, `execute called ${calls.length} times`);
    const request = captures.sdkToolTurn.find((l) => l.frame.type === "external_tool_call_request").frame;
    expect(calls[0].toolCallId === request.tool_call_id && calls[0].args.command === "echo sdk-hosted", JSON.stringify(calls));
    const responses = commandsOf(server, "external_tool_call_response");
    expect(responses.length === 1, `${responses.length} tool responses written`);
    expect(responses[0].request_id === request.request_id, JSON.stringify(responses[0]));
    expect(responses[0].result?.content?.[0]?.text === "ran echo sdk-hosted in React Native", JSON.stringify(responses[0]));
    const start = commandsOf(server, "runtime_start")[0];
    expect(start.external_tools?.[0]?.tools?.[0]?.name === "shell", "the tool was not registered");
    expect(rows.some((row) => row.kind === "tool_call" && row.toolName === "shell" && row.status === "complete"), "no complete shell row");
  });

  await check("createChat: the replayed turn, its approval allowed from the snapshot", async () => {
    const agentId = server.play(captures.approvalTurn);
    const chat = createChat({ client, agentId, throttle: 0 });
    const seen = new Set();
    let allowed = 0;
    const settled = new Promise((resolve) => {
      chat.subscribe(() => {
        const snapshot = chat.getSnapshot();
        seen.add(snapshot.status);
        if (snapshot.status === "awaiting-approval" && allowed === 0) {
          allowed += 1;
          snapshot.approvals[0].allow();
        }
        if (allowed > 0 && snapshot.status === "ready") resolve(snapshot);
      });
    });
    await chat.send(PROMPT);
    const snapshot = await settled;
    chat.dispose();
    expect(seen.has("streaming") && seen.has("awaiting-approval"), `statuses ${[...seen].join(", ")}`);
    const kinds = snapshot.rows.map((row) => row.kind);
    expect(kinds[0] === "user" && kinds.includes("tool_call") && kinds.includes("assistant"), `rows ${kinds.join(", ")}`);
    const tool = snapshot.rows.find((row) => row.kind === "tool_call");
    expect(tool.toolName === "Bash" && tool.status === "complete", `tool row ${JSON.stringify(tool)}`);
    const answers = commandsOf(server, "input").filter((c) => c.payload.kind === "approval_response");
    expect(answers.length === 1 && answers[0].payload.decision.behavior === "allow", JSON.stringify(answers));
  });

  await check("abort() ends the turn as cancelled", async () => {
    const agentId = server.play(captures.approvalTurn, { abort: true });
    const session = client.createSession(agentId, { canUseTool: () => ({ behavior: "allow" }) });
    let aborted = false;
    const { result } = await turn(session, PROMPT, async (message) => {
      if (!aborted && message.type === "reasoning") {
        aborted = true;
        await session.abort();
      }
    });
    session.close();
    expect(aborted, "no reasoning message before the abort");
    expect(commandsOf(server, "abort_message").length === 1, "abort_message not written once");
    expect(result.type === "result" && result.success === false, `result ${JSON.stringify(result)}`);
    expect([result.stopReason, result.errorCode].some((r) => r === "cancelled" || r === "interrupted"), JSON.stringify(result));
  });

  await check("stdio mcpServers are a typed error (no child processes)", async () => {
    const session = client.createSession(server.play(captures.approvalTurn), { mcpServers: { local: { command: "node", args: ["server.js"] } } });
    let error = null;
    try {
      await session.send("hello");
    } catch (thrown) {
      error = thrown;
    }
    session.close();
    expect(error?.name === "LettaUnsupportedError", `${error?.name}: ${error?.message}`);
  });
  await client.close();

  await check("a Cloud REST call through an injected fetch", async () => {
    const requests = [];
    const fetch = async (url, init) => {
      requests.push({ url: String(url), method: init?.method ?? "GET", headers: init?.headers ?? {} });
      const body = JSON.stringify([{ id: "agent-rn-1", name: "From React Native" }]);
      return { status: 200, headers: { get: () => "application/json" }, text: async () => body };
    };
    const cloud = new LettaAgentClient({ backend: "cloud", apiKey: "rn-key", apiBaseUrl: "https://cloud.invalid", fetch });
    const agents = await cloud.agents.list();
    await cloud.close();
    expect(agents.length === 1 && agents[0].id === "agent-rn-1", JSON.stringify(agents));
    expect(requests.length === 1, `${requests.length} requests`);
    const [request] = requests;
    expect(request.method === "GET" && request.url.startsWith("https://cloud.invalid/v1/agents"), JSON.stringify(request));
    const auth = typeof request.headers.get === "function" ? request.headers.get("authorization") : request.headers.Authorization ?? request.headers.authorization;
    expect(auth === "Bearer rn-key", `authorization ${auth}`);
  });
}

main()
  .catch((error) => {
    results.push(false);
    console.log(`not ok - the app: ${error?.name}: ${error?.message}`);
  })
  .finally(() => {
    const passed = results.filter(Boolean).length;
    console.log(`${passed} passed, ${results.length - passed} failed`);
  });
