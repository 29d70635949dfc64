// No plugins: the package's `.wasm` must load in a Vite build as it is (browser/load.js resolves
// it with `new URL(..., import.meta.url)`, which Vite turns into an emitted asset). JSX goes
// through Vite's own Oxc transform with React's automatic runtime, without @vitejs/plugin-react.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  build: { outDir: "dist", emptyOutDir: true },
});
