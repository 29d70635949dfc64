// Runs under `node --jitless --conditions=react-native` (no WebAssembly, like Hermes): a chat
// store (createChat) through the React Native build, with its snapshot throttled on a timer (no
// animation frames), against the app server: an approval answered through the snapshot, then
// the rows. Prints one JSON line with the outcome.
import WebSocket from "ws";
import { LettaAgentClient, createChat, createReactNativeWebSocketConstructor } from "letta-agent-wasm/client";

const { LETTA_URL: url, LETTA_TOKEN: authToken, LETTA_MODEL: model } = process.env;
const client = new LettaAgentClient({ backend: "remote", url, authToken, WebSocket: createReactNativeWebSocketConstructor(WebSocket) });
const agentId = await client.createAgent({ model, memfs: false });
const chat = createChat({ client, agentId, throttle: 16 });
const snapshots = [];
let approved = 0;
const done = new Promise((resolve) => {
  chat.subscribe(() => {
    const snapshot = chat.getSnapshot();
    snapshots.push(snapshot.status);
    if (snapshot.approvals.length > 0) {
      approved += 1;
      snapshot.approvals[0].allow();
    }
    if (snapshot.status === "ready" && snapshot.rows.some((row) => row.kind === "tool_call" && row.result)) resolve(snapshot);
  });
});
await new Promise((resolve) => {
  const unsubscribe = chat.subscribe(() => chat.getSnapshot().status === "ready" && (unsubscribe(), resolve()));
});
chat.send("Please run `touch rn-chat.txt && echo rn-chat` and tell me what it printed.");
const final = await done;
chat.dispose();
await client.close();
console.log(
  JSON.stringify({
    webAssembly: typeof WebAssembly,
    approved,
    kinds: final.rows.map((row) => row.kind),
    tool: final.rows.find((row) => row.kind === "tool_call")?.result,
    snapshots: snapshots.length,
  }),
);
