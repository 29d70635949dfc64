// Runs under `node --jitless --conditions=react-native` (no WebAssembly, like Hermes): one
// session turn against the app server through the React Native build, with the `ws` package
// adapted by createReactNativeWebSocketConstructor. Prints one JSON line with the outcome.
import WebSocket from "ws";
import { LettaAgentClient, createReactNativeWebSocketConstructor } from "letta-agent-wasm/client";

const { LETTA_URL: url, LETTA_TOKEN: authToken, LETTA_MODEL: model } = process.env;
const client = new LettaAgentClient({
  backend: "remote",
  url,
  authToken,
  WebSocket: createReactNativeWebSocketConstructor(WebSocket),
});
const agentId = await client.createAgent({ model, memfs: false });
const session = client.createSession(agentId);
await session.send("no tools, hello from React Native");
const types = [];
let result;
for await (const message of session.stream()) {
  types.push(message.type);
  if (message.type === "result") result = message;
}
session.close();
await client.close();
console.log(JSON.stringify({ webAssembly: typeof WebAssembly, types, result }));
