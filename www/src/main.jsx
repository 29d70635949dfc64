// Entry of the demo page: instantiate the WebAssembly module once, then render.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { init } from "letta-agent-wasm/client";
import { App } from "./App.jsx";
import "./app.css";

const root = createRoot(document.getElementById("root"));
try {
  await init();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} catch (error) {
  root.render(<p role="alert">Could not load the WebAssembly module: {String(error?.message ?? error)}</p>);
}
