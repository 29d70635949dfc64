// Browser loader of the Cloud build: the same crate compiled with its `cloud` feature (fetch,
// the two status sockets, the Cloud session start). Bundled as its own chunk and imported only
// by the first Cloud call (browser/load.js), so browsers that talk to an app server never
// download it.
import initGlue, { CloudClient, setErrorFactory } from "../wasm/web-cloud/letta_agent_wasm.js";

/** Instantiates the Cloud build; resolves with the bindings the Cloud backend uses. */
export async function loadCloudGlue(input) {
  const source = input ?? new URL("../wasm/web-cloud/letta_agent_wasm_bg.wasm", import.meta.url);
  await initGlue({ module_or_path: source });
  return { CloudClient, setErrorFactory };
}
