#!/usr/bin/env node
// The demo's offline model: a scripted, OpenAI-compatible chat endpoint on loopback. It is not
// an AI: it follows a few fixed rules so the demo (and its end-to-end test) can drive the real
// Letta Code app server through complete turns with no account and no network. Zero
// dependencies.
//
//   node scripts/offline-model.mjs [--port 0] [--log FILE.jsonl]
// The log holds one line per request: `{at, method, path, body, model, said, tool}` (the tests
// read what the model was asked from it).
// Prints `offline model listening on http://127.0.0.1:<port>/v1` once ready. Other scripts
// import `startOfflineModel()`.
//
// Routes:
//   GET  /v1/models               model ids: offline-demo and offline-demo-2 (quick; two, so
//                                 that switching models can be tried) and offline-demo-slow
//   POST /v1/chat/completions     streamed (SSE) or plain JSON, decided by `stream`
//
// The script, applied to each request:
//   0. a user message holds `[[script <JSON>]]` → what the JSON says (see `scriptedStep`): call
//                                               named tools with given arguments, then answer
//                                               with given text or JSON, turn by turn
//   1. the last message is a tool result      → reasoning, then a summary of the output
//   2. the user asks to run a `backticked` command and a shell-like tool is offered
//                                             → reasoning, then a call of that tool whose
//                                               arguments stream in small fragments
//   3. anything else                          → reasoning, then a reply quoting the user's text
// `[slow]` in the user's text (or the model offline-demo-slow) streams slowly: long enough to
// press Abort, or to queue another message.
import { createServer } from "node:http";
import { appendFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const OFFLINE_MODELS = ["offline-demo", "offline-demo-2", "offline-demo-slow"];
const SHELL_TOOLS = ["Bash", "bash", "shell", "shell_command", "run_shell_command", "exec_command"];
// The pause between two streamed chunks of a quick reply; the soak benchmark sets it to 0.
const QUICK_MS = Number(process.env.LETTA_OFFLINE_MODEL_QUICK_MS ?? 12);
// The pause of a slow reply: long enough for a person to press Abort in the demo; scripts/test
// sets a shorter one, which still leaves the tests seconds to queue, cut or abort mid-turn.
const SLOW_MS = Number(process.env.LETTA_OFFLINE_MODEL_SLOW_MS ?? 350);

const wait = (ms) => new Promise((done) => setTimeout(done, ms));

/** The text of a message's content: a string, or the text parts of an array. */
function textParts(content) {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : ""));
}

/** What the user typed: the last user message without the server's `<system-reminder>` parts. */
export function userText(messages) {
  const user = [...messages].reverse().find((m) => m?.role === "user");
  return textParts(user?.content)
    .map((part) => part.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ""))
    .join("")
    .trim();
}

function shellTool(tools) {
  for (const name of SHELL_TOOLS) {
    const tool = (tools ?? []).find((t) => (t?.function?.name ?? t?.name) === name);
    if (tool) return tool.function ?? tool;
  }
  return undefined;
}

/** Arguments for the shell tool, shaped after its JSON schema. */
function shellArguments(tool, command) {
  const properties = tool.parameters?.properties ?? {};
  const args = {};
  if (properties.command?.type === "array") args.command = ["bash", "-lc", command];
  else if (properties.cmd && !properties.command) args.cmd = command;
  else args.command = command;
  if (properties.description) args.description = `Runs ${command}`;
  return args;
}

const SCRIPT_RE = /\[\[script (\{[\s\S]*?\})\]\]/;
let scriptedCalls = 0;

/**
 * A call's arguments with each string value `"$result:<k>.<field>"` replaced by that field of
 * the k-th tool result of the turn (parsed as JSON), so a script can pass on an id a tool made
 * (e.g. the `taskId` TaskCreate returns to TaskUpdate). Other values are kept as they are.
 */
function withResults(args, results) {
  const fill = (value) => {
    if (typeof value === "string") {
      const match = /^\$result:(\d+)\.([\w.]+)$/.exec(value);
      if (!match) return value;
      let found;
      try {
        found = JSON.parse(results[Number(match[1])] ?? "");
      } catch {
        return value;
      }
      for (const key of match[2].split(".")) found = found?.[key];
      return found ?? value;
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(args);
}

/**
 * Rule 0. The script is `{"turns": [step, …]}` or one step; a step is `{"calls"?: [{name,
 * args}], "text"?: string, "json"?: value}`; a call's string argument `"$result:<k>.<field>"`
 * is a field of the turn's k-th tool result (see `withResults`). The step of a request is `turns[k]` (the last one
 * when k is past the end), k = the user messages after the one with the script (so corrective
 * follow-ups get the next step). Within the turn the model makes the step's calls one per
 * request, then answers with `json` (serialized), `text`, or a summary of the last tool output.
 * Returns undefined when no user message holds a script.
 */
function scriptedStep(messages) {
  const users = messages.map((m, i) => [m, i]).filter(([m]) => m?.role === "user");
  let script;
  let k = 0;
  for (let u = users.length - 1; u >= 0; u--) {
    const match = SCRIPT_RE.exec(textParts(users[u][0].content).join(""));
    if (match) {
      try {
        script = JSON.parse(match[1]);
      } catch {
        return undefined;
      }
      k = users.length - 1 - u;
      break;
    }
  }
  if (script === undefined) return undefined;
  const turns = Array.isArray(script.turns) && script.turns.length > 0 ? script.turns : [script];
  const step = turns[Math.min(k, turns.length - 1)];
  const lastUser = users.at(-1)[1];
  const results = messages.slice(lastUser + 1).filter((m) => m?.role === "tool").map((m) => textParts(m.content).join(""));
  const calls = Array.isArray(step.calls) ? step.calls : [];
  if (results.length < calls.length) {
    const { name, args } = calls[results.length];
    return { call: { id: `call_scripted_${Date.now().toString(36)}_${++scriptedCalls}`, name, args: withResults(args ?? {}, results) } };
  }
  if (step.json !== undefined) return { text: JSON.stringify(step.json) };
  if (typeof step.text === "string") return { text: step.text };
  return { summary: true };
}

/** Decides the reply to one chat completion request. */
export function planReply(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const model = typeof body?.model === "string" && body.model !== "" ? body.model : OFFLINE_MODELS[0];
  const said = userText(messages);
  const slow = /\[slow\]/i.test(said) || model.endsWith("-slow");
  const plan = { model, delayMs: slow ? SLOW_MS : QUICK_MS, reasoning: "", text: "", toolCall: undefined };
  const last = messages.at(-1);
  const scripted = scriptedStep(messages);
  if (scripted?.call) {
    plan.reasoning = `The script says to call ${scripted.call.name}.`;
    plan.toolCall = scripted.call;
    return plan;
  }
  if (scripted?.text !== undefined) {
    plan.reasoning = "The script gives the answer.";
    plan.text = scripted.text;
    return plan;
  }
  if (last?.role === "tool") {
    const output = textParts(last.content).join("").trim();
    const lines = output === "" ? 0 : output.split("\n").length;
    plan.reasoning = "The command has finished. I will summarize what it printed.";
    plan.text =
      lines === 0
        ? "The command finished without printing anything."
        : `The command finished and printed ${lines} line${lines === 1 ? "" : "s"}:\n\n${output.slice(0, 600)}`;
    return plan;
  }
  const command = [...said.matchAll(/`([^`]+)`/g)].at(-1)?.[1];
  const tool = shellTool(body?.tools);
  if (command && tool && /\b(run|execute|exec)\b/i.test(said)) {
    plan.reasoning = `The user asked me to run a shell command. I will call ${tool.name} with: ${command}`;
    plan.toolCall = { id: `call_offline_${Date.now().toString(36)}`, name: tool.name, args: shellArguments(tool, command) };
    return plan;
  }
  plan.reasoning = slow
    ? "This is a slow turn: I will answer in many small pieces, so there is time to abort it."
    : "No command to run. I will answer by quoting the message.";
  plan.text = `You said: ${said || "(nothing)"}\n\nI am the offline scripted demo model: I can run a \`backticked\` shell command when you ask me to, and I quote everything else.`;
  if (slow) plan.text += " This reply streams slowly, one small piece at a time, so that you can press Abort before it ends.".repeat(3);
  return plan;
}

/** Cuts text into fragments of 3–9 characters, the way a model streams tokens. */
function fragments(text, size = 9) {
  const out = [];
  for (let i = 0, n = 0; i < text.length; n++) {
    const step = 3 + (n % (size - 2));
    out.push(text.slice(i, i + step));
    i += step;
  }
  return out;
}

function chunk(plan, id, delta, finishReason = null) {
  return {
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: plan.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

const USAGE = { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 };

/** Streams `plan` as server-sent events; stops early when the client goes away (an abort). */
async function streamPlan(req, res, plan, id) {
  let gone = false;
  res.on("close", () => (gone = true));
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = async (event) => {
    if (gone) return;
    res.write(`data: ${JSON.stringify(event)}\n\n`);
    await wait(plan.delayMs);
  };
  await send(chunk(plan, id, { role: "assistant", content: "" }));
  for (const part of fragments(plan.reasoning)) await send(chunk(plan, id, { reasoning_content: part }));
  for (const part of fragments(plan.text)) await send(chunk(plan, id, { content: part }));
  if (plan.toolCall) {
    const { id: callId, name, args } = plan.toolCall;
    await send(chunk(plan, id, { tool_calls: [{ index: 0, id: callId, type: "function", function: { name, arguments: "" } }] }));
    for (const part of fragments(JSON.stringify(args), 7)) {
      await send(chunk(plan, id, { tool_calls: [{ index: 0, function: { arguments: part } }] }));
    }
  }
  await send(chunk(plan, id, {}, plan.toolCall ? "tool_calls" : "stop"));
  await send({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: plan.model, choices: [], usage: USAGE });
  if (!gone) res.end("data: [DONE]\n\n");
}

function completion(plan, id) {
  const message = { role: "assistant", content: plan.text || null, reasoning_content: plan.reasoning };
  if (plan.toolCall) {
    const { id: callId, name, args } = plan.toolCall;
    message.tool_calls = [{ id: callId, type: "function", function: { name, arguments: JSON.stringify(args) } }];
  }
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: plan.model,
    choices: [{ index: 0, message, finish_reason: plan.toolCall ? "tool_calls" : "stop" }],
    usage: USAGE,
  };
}

function sendJson(res, status, value) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

/** Starts the model on 127.0.0.1; resolves to `{url, port, close()}` (url ends in /v1). */
export function startOfflineModel({ port = 0, log } = {}) {
  let counter = 0;
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (data) => (raw += data));
    req.on("end", async () => {
      const path = new URL(req.url, "http://127.0.0.1").pathname.replace(/\/+$/, "");
      if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
        const data = OFFLINE_MODELS.map((id) => ({ id, object: "model", created: 0, owned_by: "offline-scripted-demo" }));
        sendJson(res, 200, { object: "list", data });
        return;
      }
      if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
        sendJson(res, 404, { error: { message: `offline model: no route ${req.method} ${path}` } });
        return;
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        sendJson(res, 400, { error: { message: "offline model: the body is not JSON" } });
        return;
      }
      const plan = planReply(body);
      if (log) {
        const entry = { at: new Date().toISOString(), method: req.method, path, body, model: plan.model, said: userText(body.messages ?? []), tool: plan.toolCall?.name };
        appendFileSync(log, `${JSON.stringify(entry)}\n`);
      }
      const id = `chatcmpl-offline-${++counter}`;
      try {
        if (body.stream) await streamPlan(req, res, plan, id);
        else sendJson(res, 200, completion(plan, id));
      } catch (error) {
        res.destroy(error);
      }
    });
  });
  return new Promise((resolveStart, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const actual = server.address().port;
      resolveStart({
        port: actual,
        url: `http://127.0.0.1:${actual}/v1`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const model = await startOfflineModel({ port: Number(option("--port", "0")), log: option("--log") });
  console.log(`offline model listening on ${model.url} (models: ${OFFLINE_MODELS.join(", ")})`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => model.close().then(() => process.exit(0)));
}
