// Entry of the demo page: ask the relay which backend it fronts, instantiate the WebAssembly
// module once (in Cloud mode the first Cloud call fetches the Cloud build), then render.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { init } from "letta-agent-wasm/client";
import { App } from "./App.jsx";
import { relayBackend } from "./chat/backend.js";
import "./app.css";

const root = createRoot(document.getElementById("root"));
try {
  const backend = await relayBackend();
  await init();
  root.render(
    <StrictMode>
      <App backend={backend} />
    </StrictMode>,
  );
} catch (error) {
  root.render(<p role="alert">Could not load the WebAssembly module: {String(error?.message ?? error)}</p>);
}
