// The instantiated WebAssembly bindings. Each platform loader (node/, browser/, react-native/)
// instantiates its own build and installs its glue module here, so the wrapper code in lib/
// is shared by every platform. A call made before that fails with a clear, typed error.
//
// The Cloud backend's classes (`CloudClient`) are in the Node and React Native builds, and in
// a second browser build (`wasm/web-cloud`, the crate's `cloud` feature) that browsers fetch only
// when an app calls `init({ cloud: true })`: the browser `/client` build stays within its size
// ceiling. `cloudWasm()` has them once loaded.

import { errorFromRust, LettaNotInitializedError } from "./errors.js";

/** @type {any} the wasm-bindgen exports (untyped glue) */
let glue = null;
/** @type {WebAssembly.Memory | null} */
let memory = null;
/** @type {any} */
let cloudGlue = null;

/** Called by each platform loader once its module is instantiated (`exports`: the instance's). */
export function install(bindings, exports) {
  // Errors built in Rust become instances of the exported classes (errors.js).
  bindings.setErrorFactory(errorFromRust);
  glue = bindings;
  memory = exports?.memory ?? null;
  if (bindings.CloudClient) cloudGlue = bindings;
}

/** The bindings with the Cloud classes (`CloudClient`, `CloudBackend`), or `null` if not loaded. */
export function cloudWasm() {
  return cloudGlue;
}

/** Bytes of linear memory the module holds now (for memory regression tests). */
export function memoryBytes() {
  return memory?.buffer.byteLength ?? 0;
}

/** True once a platform loader installed the bindings. */
export function isReady() {
  return glue !== null;
}

/** The wasm-bindgen exports; throws a typed error before initialization. */
export function wasm() {
  if (glue === null) {
    throw new LettaNotInitializedError(
      "letta-agent-wasm is not initialized: call `await init()` (exported by the package) before using it in a browser.",
    );
  }
  return glue;
}
