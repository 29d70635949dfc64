// The instantiated WebAssembly bindings. Each platform loader (node/, browser/, react-native/)
// instantiates its own build and installs its glue module here, so the wrapper code in lib/
// is shared by every platform. A call made before that fails with a clear, typed error.
//
// The Cloud backend's classes (`CloudClient`) are in the Node and React Native builds. Browsers
// load a small build without them, and the Cloud build (`wasm/web-cloud`, the crate's `cloud`
// feature) on the first Cloud call (`loadCloudWasm()`, through the loader that browser/load.js
// sets): pages that only talk to an app server never fetch it, and `/client` stays within its
// size ceiling (bench/RESULTS.md, issue 40).

import { errorFromRust, LettaNotInitializedError } from "./errors.js";

/** @type {any} the wasm-bindgen exports (untyped glue) */
let glue = null;
/** @type {WebAssembly.Memory | null} */
let memory = null;
/** The bindings that have the Cloud classes, once there. @type {any} */
let cloudGlue = null;
/** Browsers: loads the Cloud build and resolves with its bindings. @type {(() => Promise<any>) | null} */
let cloudLoader = null;
/** The Cloud build's load in progress. @type {Promise<any> | null} */
let cloudLoading = null;

/** Called by each platform loader once its module is instantiated (`exports`: the instance's). */
export function install(bindings, exports) {
  // Errors built in Rust become instances of the exported classes (errors.js).
  bindings.setErrorFactory(errorFromRust);
  glue = bindings;
  memory = exports?.memory ?? null;
  if (bindings.CloudClient) cloudGlue = bindings;
}

/** Browsers: how the Cloud build is loaded when the installed build has no Cloud classes. */
export function setCloudLoader(load) {
  cloudLoader = load;
}

/** The bindings with the Cloud classes (`CloudClient`), or `null` while they are not loaded. */
export function cloudWasm() {
  return cloudGlue;
}

/**
 * The bindings with the Cloud classes, loading the Cloud build first where it is separate
 * (browsers). Concurrent callers share one load; a failed load rejects with
 * `LettaNotInitializedError` and can be retried.
 */
export function loadCloudWasm() {
  if (cloudGlue !== null) return Promise.resolve(cloudGlue);
  if (cloudLoader === null) {
    return Promise.reject(new LettaNotInitializedError('This build of letta-agent-wasm has no backend: "cloud".'));
  }
  cloudLoading ??= cloudLoader().then(
    (bindings) => {
      bindings.setErrorFactory(errorFromRust);
      cloudGlue = bindings;
      return bindings;
    },
    (error) => {
      cloudLoading = null;
      throw new LettaNotInitializedError(`The Cloud build of letta-agent-wasm could not be loaded: ${error?.message ?? error}`, { cause: error });
    },
  );
  return cloudLoading;
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
