// Browser and bundler loader: fetches the .wasm next to this package with
// `new URL(..., import.meta.url)` (which Vite and webpack understand) and compiles it
// streaming. `init()` is memoized; it also accepts a URL, a Response, bytes or a module.
import initWasm from "../wasm/letta_agent_wasm.js";
import { isReady, markReady } from "../lib/runtime.js";

let pending = null;

/** Instantiates the WebAssembly module once; later calls return the same promise. */
export function init(input) {
  if (isReady()) return Promise.resolve();
  if (pending === null) {
    const source = input ?? new URL("../wasm/letta_agent_wasm_bg.wasm", import.meta.url);
    pending = initWasm({ module_or_path: source }).then(
      () => markReady(),
      (error) => {
        pending = null; // a failed attempt can be retried
        throw error;
      },
    );
  }
  return pending;
}
