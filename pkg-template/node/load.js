// Node loader: instantiates the speed-optimized build synchronously from the package
// directory on import, so no `init()` call is needed (and CommonJS `require` works).
import { readFileSync } from "node:fs";
import * as glue from "../wasm/node/letta_agent_wasm.js";
import { install, isReady } from "../lib/runtime.js";
import { CloudBackend } from "../lib/cloud.js";

if (!isReady()) {
  const exports = glue.initSync({ module: readFileSync(new URL("../wasm/node/letta_agent_wasm_bg.wasm", import.meta.url)) });
  // The stdio MCP transport (child processes) is Node's alone: its import is here, where
  // browser and React Native bundlers never look (lib/mcp.js).
  const loadStdioTransport = () => import("@modelcontextprotocol/sdk/client/stdio.js");
  install({ ...glue, CloudBackend, loadStdioTransport }, exports);
}

/** Already done on import in Node; kept so that code written for browsers runs unchanged. */
export async function init() {}
