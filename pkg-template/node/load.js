// Node loader: instantiates the WebAssembly module synchronously from the package directory,
// so `import` is enough and no `init()` call is needed.
import { readFileSync } from "node:fs";
import { initSync } from "../wasm/letta_agent_wasm.js";
import { isReady, markReady } from "../lib/runtime.js";

if (!isReady()) {
  initSync({ module: readFileSync(new URL("../wasm/letta_agent_wasm_bg.wasm", import.meta.url)) });
  markReady();
}

/** Already done on import in Node; kept so that code written for browsers runs unchanged. */
export async function init() {}
