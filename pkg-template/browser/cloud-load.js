// Browser loader of the Cloud build: the same crate compiled with its `cloud` feature (fetch,
// the two status sockets, the Cloud session start). Bundled as its own chunk and imported
// only by `init({ cloud: true })`, so browsers that
// talk to an app server never download it.
import initGlue, { CloudClient, SessionDriver, TextFragment, TranscriptCore, setErrorFactory } from "../wasm/web-cloud/letta_agent_wasm.js";
import { CloudBackend } from "../lib/cloud.js";

/** Instantiates the Cloud build; resolves with `{bindings, exports}` for `runtime.js`. */
export async function loadCloudGlue(input) {
  const source = input ?? new URL("../wasm/web-cloud/letta_agent_wasm_bg.wasm", import.meta.url);
  const exports = await initGlue({ module_or_path: source });
  return { bindings: { CloudBackend, CloudClient, SessionDriver, TextFragment, TranscriptCore, setErrorFactory }, exports };
}
