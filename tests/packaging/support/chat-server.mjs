// A scripted app server for the browser chat tests (loopback, Node's `ws`): enough of the
// Letta Code protocol for a chat to open a conversation and stream long replies. It answers
// `runtime_start` (the primary's and the standby's), `sync` and `conversation_messages_list`
// (empty history); an `input` is accepted, and the reply streams to the socket that sent it
// as `deltas` assistant fragments of one message (`burst` per millisecond; `deltas:N` in the
// message asks for N), then its stop
// reason, an idle status and `turn_finished`. It counts the sockets open at any time.
import { WebSocketServer } from "ws";

const RUNTIME = { agent_id: "agent-scripted", conversation_id: "conv-scripted" };

/** Starts the server; `{url, open(), opened(), stop()}` (`open()`: sockets open now). */
export async function startChatServer({ deltas = 2_500, burst = 10 } = {}) {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((ready) => server.once("listening", ready));
  const sockets = new Set();
  let opened = 0;
  let turns = 0;
  server.on("connection", (socket) => {
    sockets.add(socket);
    opened += 1;
    let seq = 0;
    const send = (frame) => socket.send(JSON.stringify(frame));
    const event = (frame) => {
      seq += 1;
      send({ ...frame, runtime: RUNTIME, event_seq: seq, idempotency_key: `${frame.type}:${seq}:${opened}` });
    };
    socket.on("close", () => sockets.delete(socket));
    socket.on("message", async (data) => {
      let command;
      try {
        command = JSON.parse(String(data));
      } catch {
        return;
      }
      const { type, request_id } = command;
      if (type === "runtime_start") {
        send({ type: "runtime_start_response", request_id, success: true, runtime: RUNTIME, agent: { id: RUNTIME.agent_id, model: "scripted/model" }, conversation: { id: RUNTIME.conversation_id } });
      } else if (type === "sync") {
        send({ type: "sync_response", request_id, success: true });
      } else if (type === "conversation_messages_list") {
        send({ type: "conversation_messages_list_response", request_id, success: true, messages: [], has_more: false });
      } else if (type === "input" && command.payload?.kind === "create_message") {
        // `deltas:N` in the message asks for a reply of N fragments instead.
        const asked = /deltas:(\d+)/.exec(JSON.stringify(command.payload.messages))?.[1];
        const count = asked ? Number(asked) : deltas;
        turns += 1;
        const run = `run-${turns}`;
        send({ type: "input_accepted", request_id, accepted: true, disposition: "started" });
        event({ type: "update_loop_status", loop_status: { status: "PROCESSING_API_RESPONSE", active_run_ids: [run] } });
        for (let i = 1; i <= count; i++) {
          event({ type: "stream_delta", delta: { id: `msg-${turns}`, message_type: "assistant_message", run_id: run, seq_id: i, content: [{ type: "text", text: `w${i} ` }] } });
          if (i % burst === 0) await new Promise((tick) => setTimeout(tick, 1));
          if (socket.readyState !== socket.OPEN) return;
        }
        event({ type: "stream_delta", delta: { message_type: "stop_reason", run_id: run, stop_reason: "end_turn", seq_id: count + 1 } });
        event({ type: "update_loop_status", loop_status: { status: "WAITING_ON_INPUT", active_run_ids: [] } });
        event({ type: "turn_finished", turn_id: `turn-${turns}`, stop_reason: "end_turn", run_id: run });
      } else if (request_id !== undefined) {
        send({ type: `${type}_response`, request_id, success: true });
      }
    });
  });
  const limit = setTimeout(() => stop(), 300_000);
  limit.unref();
  function stop() {
    clearTimeout(limit);
    for (const socket of sockets) socket.terminate();
    return new Promise((done) => server.close(done));
  }
  return { url: `ws://127.0.0.1:${server.address().port}/ws`, open: () => sockets.size, opened: () => opened, stop };
}
