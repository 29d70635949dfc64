// Tracks whether the WebAssembly module has been instantiated, so that a call made too early
// fails with a clear, typed error instead of a TypeError from deep inside the glue.

let ready = false;

/** Called by each platform loader once the module is instantiated. */
export function markReady() {
  ready = true;
}

/** True once the WebAssembly module is instantiated. */
export function isReady() {
  return ready;
}

/** Throws a typed error when the module is not instantiated yet. */
export function assertReady() {
  if (!ready) {
    const error = new Error(
      "letta-agent-wasm is not initialized: call `await init()` (exported by the package) before using it in a browser.",
    );
    error.name = "LettaNotInitializedError";
    error.code = "not_initialized";
    throw error;
  }
}
