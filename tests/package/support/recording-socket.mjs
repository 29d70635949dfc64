// A `ws` WebSocket class that records every frame the package writes (parsed), for tests that
// check what goes on the wire to the real app server.
import WebSocket from "ws";

/** `{Socket, sent}`: pass `Socket` as the client's `WebSocket`; `sent` fills with the frames. */
export function recordingSocket() {
  const sent = [];
  class RecordingSocket extends WebSocket {
    send(data, ...rest) {
      sent.push(JSON.parse(String(data)));
      return super.send(data, ...rest);
    }
  }
  return { Socket: RecordingSocket, sent };
}

/** The `create_message` inputs among `sent`. */
export const turnInputs = (sent) => sent.filter((f) => f.type === "input" && f.payload?.kind === "create_message");
