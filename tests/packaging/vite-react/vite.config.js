// No plugins: the package's `.wasm` must load in a Vite build as it is (browser/load.js resolves
// it with `new URL(..., import.meta.url)`, which Vite turns into an emitted asset). JSX goes
// through Vite's own Oxc transform with React's automatic runtime, without @vitejs/plugin-react.
// Two pages: the recorded transcript (index.html) and a chat on `letta-agent-wasm/react`, whose
// test counts React's commits: React DOM's profiling build, since production builds drop
// `<Profiler>`'s callbacks.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  resolve: { alias: { "react-dom/client": "react-dom/profiling" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    rollupOptions: { input: { main: "index.html", chat: "chat.html" } },
  },
});
