// Browser and bundler loader: fetches the size-optimized .wasm next to this package with
// `new URL(..., import.meta.url)` (which Vite and webpack understand) and compiles it
// streaming. `init()` is memoized; it also accepts a URL, a Response, bytes or a module.
//
// The build `init()` loads has no Cloud backend. The Cloud build (the same crate with its
// `cloud` feature) is loaded by the first Cloud call (`lib/runtime.js` `loadCloudWasm()`), from
// its own chunk (cloud-load.js), so pages that only talk to an app server never fetch it.
// `init({ cloud: true })` is an alias of `init()` kept for earlier code; its `module_or_path`
// names the Cloud build's .wasm.
import initGlue, { SessionDriver, TextFragment, TranscriptCore, checkCloudOptions, setErrorFactory } from "../wasm/web/letta_agent_wasm.js";
import { install, isReady, setCloudLoader } from "../lib/runtime.js";

let pending = null;
/** Where the Cloud build's .wasm is (`init({ cloud: true, module_or_path })`), else next to the package's. */
let cloudSource;

setCloudLoader(() => import("./cloud-load.js").then(({ loadCloudGlue }) => loadCloudGlue(cloudSource)));

/** Instantiates the WebAssembly module once; later calls return the same promise. */
export function init(input) {
  const cloudAlias = input?.cloud === true;
  if (cloudAlias && input.module_or_path !== undefined) cloudSource = input.module_or_path;
  if (isReady()) return Promise.resolve();
  if (pending === null) {
    const source = (cloudAlias ? undefined : input) ?? new URL("../wasm/web/letta_agent_wasm_bg.wasm", import.meta.url);
    // Only the bindings the wrapper uses are installed, so a bundler can drop the rest of the glue.
    pending = initGlue({ module_or_path: source }).then(
      (exports) => install({ SessionDriver, TextFragment, TranscriptCore, checkCloudOptions, setErrorFactory }, exports),
      (error) => {
        pending = null; // a failed attempt can be retried
        throw error;
      },
    );
  }
  return pending;
}
