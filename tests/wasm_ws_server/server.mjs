// A loopback app-server stand-in for the browser WebSocket test (tests/wasm_websocket.rs):
// replays the recorded turn (real-app-server-turn.jsonl). Every command is answered with its
// recorded response (request id patched; a bare `{type}_response` success for commands the
// recording lacks), the turn's frames stream after the user `input`, the rest after the
// approval's answer. On the path `/close` it closes every connection once open.
//
//   node server.mjs <capture.jsonl> [time limit in s]
// prints `ws://127.0.0.1:<port>` once listening; exits on SIGTERM or after the time limit.
import { readFileSync } from "node:fs";
import { WebSocketServer } from "ws";

const [capturePath, limitSeconds = "300"] = process.argv.slice(2);
const lines = readFileSync(capturePath, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));

const responses = new Map(); // command type → recorded response frame
const segments = { create_message: [], approval_response: [] }; // frames streamed after each input
let segment = null;
for (const { dir, frame } of lines) {
  if (dir === "send") {
    segment = frame.type === "input" ? segments[frame.payload?.kind] ?? null : null;
    const answer = lines.find((l) => l.dir === "recv" && frame.request_id !== undefined && l.frame.request_id === frame.request_id);
    if (answer && frame.type !== "input") responses.set(frame.type, answer.frame);
    if (frame.type === "input" && frame.payload?.kind === "create_message") responses.set("input", answer?.frame);
  } else if (dir === "recv" && segment !== null && !(segment === segments.create_message && frame.type === "input_accepted")) {
    segment.push(frame);
    if (frame.type === "turn_finished") segment = null;
  }
}

const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
server.on("connection", (socket, request) => {
  if (request.url === "/close") {
    socket.close(1000, "closing as asked");
    return;
  }
  socket.on("message", (data) => {
    let command;
    try {
      command = JSON.parse(String(data));
    } catch {
      return;
    }
    const reply = (frame) => socket.send(JSON.stringify(frame));
    if (command.type === "input") {
      const kind = command.payload?.kind;
      if (kind === "create_message") reply({ ...responses.get("input"), request_id: command.request_id });
      for (const frame of segments[kind] ?? []) reply(frame);
      return;
    }
    const recorded = responses.get(command.type) ?? { type: `${command.type}_response`, success: true };
    reply({ ...recorded, request_id: command.request_id });
  });
});
server.on("listening", () => console.log(`ws://127.0.0.1:${server.address().port}`));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
setTimeout(() => process.exit(0), Number(limitSeconds) * 1000).unref();
