// An app that never imports `init` (React Native loads the package on import): its first call
// must work in a bundle that honours the package's `sideEffects`. tree-shaking.test.mjs
// bundles it with esbuild and runs it where WebAssembly does not exist.
import { createTranscriptAccumulator } from "letta-agent-wasm/client";

const transcript = createTranscriptAccumulator();
const rows = transcript.apply({ type: "assistant", uuid: "m-1", content: "first call" });
console.log(JSON.stringify(rows.map((row) => [row.kind, row.text])));
