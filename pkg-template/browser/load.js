// Browser and bundler loader: fetches the size-optimized .wasm next to this package with
// `new URL(..., import.meta.url)` (which Vite and webpack understand) and compiles it
// streaming. `init()` is memoized; it also accepts a URL, a Response, bytes or a module.
// `init({ cloud: true })` loads the Cloud build instead (the same module plus `backend: "cloud"`;
// `module_or_path` may name its .wasm), so browsers that only talk to an app server never fetch it.
import initGlue, { SessionDriver, TextFragment, TranscriptCore, setErrorFactory } from "../wasm/web/letta_agent_wasm.js";
import { install, isReady } from "../lib/runtime.js";

let pending = null;

/** Instantiates the WebAssembly module once; later calls return the same promise. */
export function init(input) {
  if (isReady()) return Promise.resolve();
  if (pending === null) {
    if (input?.cloud === true) {
      pending = import("./cloud-load.js")
        .then(({ loadCloudGlue }) => loadCloudGlue(input.module_or_path))
        .then(
          ({ bindings, exports }) => install(bindings, exports),
          (error) => {
            pending = null;
            throw error;
          },
        );
      return pending;
    }
    const source = input ?? new URL("../wasm/web/letta_agent_wasm_bg.wasm", import.meta.url);
    // Only the bindings the wrapper uses are installed, so a bundler can drop the rest of the glue.
    pending = initGlue({ module_or_path: source }).then(
      (exports) => install({ SessionDriver, TextFragment, TranscriptCore, setErrorFactory }, exports),
      (error) => {
        pending = null; // a failed attempt can be retried
        throw error;
      },
    );
  }
  return pending;
}
