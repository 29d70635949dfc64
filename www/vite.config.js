// Vite config of the demo page. Two pages: the live chat (index.html) and the replay of a
// recorded stream (replay.html). `npm run dev` proxies the WebSocket, the ticket, the relay's
// config and (Cloud mode) the /v1/ API and its sockets to a running relay (DEMO_RELAY_URL,
// default the demo's http://127.0.0.1:8080).
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const relay = process.env.DEMO_RELAY_URL ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
  // The package loads its .wasm with `new URL(..., import.meta.url)`: keep it out of pre-bundling.
  optimizeDeps: { exclude: ["letta-agent-wasm"] },
  build: {
    target: "es2022",
    rollupOptions: { input: { main: "index.html", replay: "replay.html" } },
  },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/ws": { target: relay, ws: true },
      "/ticket": { target: relay },
      "/relay-config": { target: relay },
      "/v1": { target: relay, ws: true },
    },
  },
});
