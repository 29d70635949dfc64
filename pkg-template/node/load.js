// Node loader: instantiates the speed-optimized build synchronously from the package
// directory on import, so no `init()` call is needed (and CommonJS `require` works).
//
// A bundler that takes the package into a server bundle (Next.js server rendering, for one)
// moves the `.wasm` out of the package directory, so that the file is not found here: the
// module then stays uninitialized, importing it still works (a server render of a chat opens
// nothing), and a call that needs it throws `LettaNotInitializedError` until `init(bytes)`.
import { readFileSync } from "node:fs";
import * as glue from "../wasm/node/letta_agent_wasm.js";
import { install, isReady } from "../lib/runtime.js";

/** Instantiates `module` (bytes or a compiled module) and installs the bindings. */
function instantiate(module) {
  const exports = glue.initSync({ module });
  // The stdio MCP transport (child processes) is Node's alone: its import is here, where
  // browser and React Native bundlers never look (lib/mcp.js).
  const loadStdioTransport = () => import("@modelcontextprotocol/sdk/client/stdio.js");
  install({ ...glue, loadStdioTransport }, exports);
}

/** The package's own `.wasm`, or `undefined` where a bundler moved it. */
function ownModule() {
  try {
    return readFileSync(new URL("../wasm/node/letta_agent_wasm_bg.wasm", import.meta.url));
  } catch {
    return undefined;
  }
}

if (!isReady()) {
  const module = ownModule();
  if (module !== undefined) instantiate(module);
}

/**
 * Already done on import in Node; kept so that code written for browsers runs unchanged. Where
 * a bundler moved the `.wasm` (see above), `init(bytes)` instantiates these bytes (or a module).
 */
export async function init(input) {
  if (isReady()) return;
  const module = input?.module_or_path ?? input;
  if (module instanceof WebAssembly.Module || ArrayBuffer.isView(module) || module instanceof ArrayBuffer) instantiate(module);
}
