// React Native loader: Hermes has no WebAssembly, so this module loads the same Rust compiled to
// JavaScript (binaryen's wasm2js) when it is imported (client.js imports it for that alone).
// Loading is synchronous; `init()` is not needed. It relies on `TextEncoder`/`TextDecoder`
// (React Native ≥ 0.74 has both); request nonces use `crypto.getRandomValues` where a polyfill
// provides it, else `Math.random`. Older engines need polyfills for the two encoders (see the
// package README).
import * as glue from "../wasm/rn/letta_agent_wasm.js";
import { install, isReady } from "../lib/runtime.js";

if (!isReady()) install(glue);
