// Bad input from the network, through a loopback WebSocket server that plays the app server:
// malformed JSON, non-object frames, unknown types, a tool call without an id and a 5 MB
// frame. The session must neither crash nor hang, must yield what the spec says, and must
// complete the next turn.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket, { WebSocketServer } from "ws";
import { LettaAgentClient } from "letta-agent-wasm/client";

const runtime = { agent_id: "agent-fake", conversation_id: "conv-fake" };
let server;
let url;
let turn = 0;
const received = [];

function delta(fields) {
  return JSON.stringify({ type: "stream_delta", runtime, delta: { run_id: `run-${turn}`, ...fields } });
}

function finish(socket, text, binary = false) {
  const send = (frame) => (binary ? socket.send(Buffer.from(frame), { binary: true }) : socket.send(frame));
  send(delta({ message_type: "assistant_message", id: `m-${turn}`, content: text, seq_id: 90 }));
  send(delta({ message_type: "stop_reason", stop_reason: "end_turn", seq_id: 91 }));
  send(JSON.stringify({ type: "turn_finished", runtime, turn_id: `t-${turn}`, run_id: `run-${turn}`, stop_reason: "end_turn" }));
}

before(async () => {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 16 * 1024 * 1024 });
  await new Promise((resolve) => server.once("listening", resolve));
  url = `ws://127.0.0.1:${server.address().port}/ws`;
  server.on("connection", (socket, request) => {
    assert.equal(request.headers.authorization, "Bearer test-token");
    // A client asking for binary frames gets every frame as UTF-8 bytes in a binary message.
    const binary = request.headers["x-frames"] === "binary";
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      received.push(frame);
      if (frame.type === "runtime_start") {
        socket.send(JSON.stringify({ type: "runtime_start_response", request_id: frame.request_id, success: true, runtime, agent: { id: runtime.agent_id, model: "m/x" }, conversation: { id: runtime.conversation_id } }));
      } else if (frame.type === "input" && frame.payload?.kind === "create_message") {
        turn += 1;
        socket.send(JSON.stringify({ type: "input_accepted", request_id: frame.request_id, runtime, accepted: true, disposition: "started" }));
        if (turn === 1) {
          socket.send("{not json");
          socket.send("[1,2,3]");
          socket.send("42");
          socket.send("null");
          socket.send('"a string"');
          socket.send(JSON.stringify({ type: "totally_unknown_frame", runtime, payload: { x: 1 } }));
          socket.send(JSON.stringify({ type: "stream_delta", runtime, delta: "not an object" }));
          socket.send(JSON.stringify({ type: "stream_delta", runtime: { agent_id: "other", conversation_id: "elsewhere" }, delta: { message_type: "assistant_message", content: "not mine", run_id: "run-x" } }));
          socket.send(`{"type":"stream_delta","delta":{"message_type":"assistant_message","content":"${"x".repeat(5 * 1024 * 1024)}`);
          socket.send(delta({ message_type: "assistant_message", id: "big", content: "y".repeat(5 * 1024 * 1024), seq_id: 1 }));
          socket.send(delta({ message_type: "tool_call_message", id: "no-id-call", tool_call: { name: "Bash", arguments: "{}" }, seq_id: 2 }));
        } else if (binary) {
          // A well-formed frame except for one byte that is not UTF-8: dropped whole, not read
          // with a replacement character.
          const [head, tail] = delta({ message_type: "assistant_message", id: "bad-bytes", content: "BAD@BYTE", seq_id: 5 }).split("@");
          socket.send(Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(tail)]), { binary: true });
          finish(socket, `turn ${turn} done in binary`, true);
        } else {
          finish(socket, `turn ${turn} done`);
        }
      }
    });
  });
});

after(() => new Promise((resolve) => server.close(resolve)));

test("malformed frames are dropped, a tool call without an id fails the turn, and the next turn completes", async () => {
  const client = new LettaAgentClient({ backend: "remote", url, authToken: "test-token", WebSocket, requestTimeoutMs: 5000 });
  const session = client.createSession(runtime.agent_id);
  await session.send("first");
  const first = [];
  for await (const message of session.stream()) first.push(message);
  const big = first.find((m) => m.type === "assistant");
  assert.equal(big.content.length, 5 * 1024 * 1024, "the valid 5 MB frame is delivered whole");
  assert.ok(!first.some((m) => m.type === "assistant" && m.content === "not mine"), "another runtime's frame is ignored");
  const error = first.find((m) => m.type === "error");
  assert.equal(error.errorCode, "protocol_error");
  assert.match(error.message, /^Missing tool_call_id in tool_call_message \(uuid=no-id-call\)$/);
  assert.equal(error.recoverable, false);
  const result = first.at(-1);
  assert.equal(result.type, "result");
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "protocol_error");

  await session.send("second");
  const second = [];
  for await (const message of session.stream()) second.push(message);
  assert.equal(second.at(-1).type, "result");
  assert.equal(second.at(-1).success, true);
  assert.equal(second.at(-1).result, "turn 2 done");
  assert.ok(!received.some((f) => JSON.stringify(f).includes("test-token")), "the token never travels in a frame");
  session.close();
  await client.close();
});

/**
 * An emitter-style WebSocket (`on` / `off`, no `addEventListener`), as some injected
 * implementations are: `ws`'s own emitter interface, which hands `message` listeners the
 * frame's bytes (a Buffer), not an event.
 */
class EmitterSocket {
  static last = null;
  #socket;
  constructor(address, options) {
    this.#socket = new WebSocket(address, { headers: { ...options?.headers, "x-frames": "binary" } });
    EmitterSocket.last = this.#socket;
  }
  get readyState() {
    return this.#socket.readyState;
  }
  on(name, listener) {
    this.#socket.on(name, listener);
  }
  off(name, listener) {
    this.#socket.off(name, listener);
  }
  send(text) {
    this.#socket.send(text);
  }
  close() {
    this.#socket.close();
  }
}

test("an emitter-style socket with binary frames: UTF-8 frames are read, others dropped, listeners removed on close", async () => {
  const client = new LettaAgentClient({ backend: "remote", url, authToken: "test-token", WebSocket: EmitterSocket, requestTimeoutMs: 5000 });
  const session = client.createSession(runtime.agent_id);
  await session.send("over binary frames");
  const messages = [];
  for await (const message of session.stream()) messages.push(message);
  const result = messages.at(-1);
  assert.equal(result.type, "result");
  assert.equal(result.success, true, JSON.stringify(result));
  assert.match(result.result, /done in binary$/);
  assert.ok(!messages.some((m) => m.type === "error"), JSON.stringify(messages));
  assert.ok(!JSON.stringify(messages).includes("BAD"), "the frame with a byte that is not UTF-8 is dropped");
  assert.ok(messages.some((m) => m.type === "assistant" && /done in binary$/.test(m.content)), "binary UTF-8 frames are read");
  const socket = EmitterSocket.last;
  assert.ok(["open", "message", "close", "error"].every((name) => socket.listenerCount(name) >= 1));
  session.close();
  assert.deepEqual(
    ["open", "message", "close", "error"].map((name) => socket.listenerCount(name)),
    [0, 0, 0, 0],
    "close() detaches every listener it attached",
  );
  await client.close();
});

test("bad call arguments are typed errors from the core (the reference's texts) and write nothing", async () => {
  const { LettaClosedError, LettaInvalidArgumentError } = await import("letta-agent-wasm/client");
  const client = new LettaAgentClient({ backend: "remote", url, authToken: "test-token", WebSocket, requestTimeoutMs: 5000, reconnect: false });
  assert.throws(() => client.createSession(""), (e) => e instanceof LettaInvalidArgumentError && e.message === "createSession() requires a non-empty agent id.");
  assert.throws(() => client.createSession("agent-fake", 7), (e) => e instanceof LettaInvalidArgumentError && e.message === "createSession() options must be an object.");
  const session = client.createSession(runtime.agent_id);
  await session.ready();
  const written = received.length;
  const invalid = (message) => (error) => error instanceof LettaInvalidArgumentError && error.code === "invalid_argument" && error.message === message;
  await assert.rejects(session.send(42), invalid("send() message must be a string or an array of content parts"));
  await assert.rejects(session.send(undefined), invalid("send() message must be a string or an array of content parts"));
  await assert.rejects(session.send("x", { otid: 5 }), invalid("send() otid must be a non-empty string"));
  await assert.rejects(session.send("x", { otid: " " }), invalid("send() otid must be a non-empty string"));
  await assert.rejects(session.removeQueuedMessage(5), invalid("Invalid queue item id. Expected a non-empty string."));
  await assert.rejects(session.sendCommand(null), invalid("Invalid command. Expected a protocol command object."));
  await assert.rejects(session.sendCommand([1]), invalid("Invalid command. Expected a protocol command object."));
  await assert.rejects(session.sendCommand({ type: "" }), invalid("Invalid command. Expected a non-empty type."));
  await assert.rejects(session.sendCommand({ type: "x" }, { timeoutMs: 1.5 }), invalid("Invalid timeoutMs. Expected a positive integer."));
  await assert.rejects(session.recoverPendingApprovals({ timeoutMs: 0 }), invalid("Invalid timeoutMs. Expected a positive integer."));
  assert.equal(received.length, written, JSON.stringify(received.slice(written)));
  session.close();
  await assert.rejects(session.send("x"), (e) => e instanceof LettaClosedError && e.message === "Session is closed");
  await client.close();
});
