// Browser and bundler loader: fetches the size-optimized .wasm next to this package with
// `new URL(..., import.meta.url)` (which Vite and webpack understand) and compiles it
// streaming. `init()` is memoized; it also accepts a URL, a Response, bytes or a module, or
// `{module_or_path}`. The build has both backends; `init({ cloud: true })`, which once loaded a
// separate Cloud build, is the same call.
import initGlue, { CloudClient, SessionDriver, TextFragment, TranscriptCore, setErrorFactory } from "../wasm/web/letta_agent_wasm.js";
import { install, isReady } from "../lib/runtime.js";

let pending = null;

/** The module's location or bytes in `init()`'s argument (`{cloud: true}` alone means the default). */
function source(input) {
  const options = input !== null && typeof input === "object" && ("cloud" in input || "module_or_path" in input);
  const given = options ? input.module_or_path : input;
  return given ?? new URL("../wasm/web/letta_agent_wasm_bg.wasm", import.meta.url);
}

/** Instantiates the WebAssembly module once; later calls return the same promise. */
export function init(input) {
  if (isReady()) return Promise.resolve();
  if (pending === null) {
    // Only the bindings the wrapper uses are installed, so a bundler can drop the rest of the glue.
    pending = initGlue({ module_or_path: source(input) }).then(
      (exports) => install({ CloudClient, SessionDriver, TextFragment, TranscriptCore, setErrorFactory }, exports),
      (error) => {
        pending = null; // a failed attempt can be retried
        throw error;
      },
    );
  }
  return pending;
}
