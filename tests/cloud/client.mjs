// A raw test client of the stand-in: fetch for REST, two `ws` sockets for the status relay
// (acking every `seq` as a Cloud client must), and waits with time limits.
import WebSocket from "ws";

/** Waits until `predicate()` is truthy (checked on every event and every 20 ms), or fails. */
export async function until(predicate, what, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const value = predicate();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `fetch` against the stand-in: `{status, body, text, headers}`. */
export async function rest(standIn, method, path, { query, body, key = standIn.apiKey, form, headers = {} } = {}) {
  const url = new URL(path, standIn.url);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
  const init = { method, headers: { "X-Letta-Source": "letta-agent-sdk", ...headers } };
  if (key !== null) init.headers.Authorization = `Bearer ${key}`;
  if (form) init.body = form;
  else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, bytes, headers: response.headers };
}

/** The status-relay URL of one channel. */
export function relayUrl(standIn, connectionId, runtime, channel, token) {
  const url = new URL(`/v1/environments/${connectionId}/status/ws`, standIn.url.replace(/^http/, "ws"));
  if (runtime.agent_id) url.searchParams.set("agentId", runtime.agent_id);
  url.searchParams.set("conversationId", runtime.conversation_id);
  url.searchParams.set("channel", channel);
  if (token) url.searchParams.set("token", token);
  return url.toString();
}

/** Opens one socket; resolves with it, or rejects with the refused upgrade's status. */
export function openSocket(url, options) {
  return new Promise((resolve, reject) => {
    const socket = options === undefined ? new WebSocket(url) : new WebSocket(url, options);
    socket.once("open", () => resolve(socket));
    socket.once("unexpected-response", (_request, response) => reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode })));
    socket.once("error", reject);
  });
}

/**
 * Both relay sockets for `runtime` on `connectionId`, header auth (`auth: "header"`) or a
 * `token` query parameter (`auth: "query"`, no constructor options); `headers` replaces the
 * header-mode headers (e.g. only a relay's ticket cookie). Every frame is recorded as
 * `{channel, frame}`; every numeric `seq` is acked on its socket unless `ack: false`.
 */
export async function openRelay(standIn, connectionId, runtime, { auth = "header", key = standIn.apiKey, ack = true, headers } = {}) {
  const options = auth === "header" ? { headers: headers ?? { Authorization: `Bearer ${key}` } } : undefined;
  const token = auth === "query" ? key : undefined;
  const [control, stream] = await Promise.all(
    ["control", "stream"].map((channel) => openSocket(relayUrl(standIn, connectionId, runtime, channel, token), options)),
  );
  const relay = { control, stream, frames: [], closed: { control: false, stream: false } };
  for (const [channel, socket] of Object.entries({ control, stream })) {
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      relay.frames.push({ channel, frame });
      if (ack && typeof frame.seq === "number") socket.send(JSON.stringify({ type: "ack", seq: frame.seq }));
    });
    socket.on("close", () => (relay.closed[channel] = true));
  }
  relay.send = (frame) => control.send(JSON.stringify(frame));
  relay.of = (type) => relay.frames.filter((f) => f.frame.type === type);
  relay.close = () => {
    control.close();
    stream.close();
  };
  return relay;
}

/** `runtime_start` as a Cloud session sends it; resolves with the response frame. */
export async function startRuntime(relay, runtime) {
  relay.send({
    type: "runtime_start",
    request_id: `runtime-start-${Date.now()}`,
    client_info: { name: "@letta-ai/letta-agent-sdk", title: "Letta Agent SDK" },
    ...(runtime.agent_id ? { agent_id: runtime.agent_id } : {}),
    conversation_id: runtime.conversation_id,
    recover_approvals: false,
    force_device_status: true,
    mode: "standard",
  });
  const found = await until(() => relay.of("runtime_start_response")[0], "runtime_start_response");
  return found.frame;
}

/** Sends one user message; resolves once its `turn_finished` arrived. */
export async function runTurn(relay, runtime, text) {
  const before = relay.of("turn_finished").length;
  relay.send({
    type: "input",
    runtime,
    payload: { kind: "create_message", messages: [{ role: "user", content: text, client_message_id: `cm-${Date.now()}` }], exclude_interactive_tools: true },
  });
  const finished = await until(() => relay.of("turn_finished")[before], "turn_finished", 90_000);
  return finished.frame;
}
