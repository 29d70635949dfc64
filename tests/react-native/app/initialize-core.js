// The globals that React Native's own JavaScript set-up (react-native/Libraries/Core/
// InitializeCore) installs before an app's first module, for a bundle that does not include
// react-native itself: Metro runs this module first (getModulesRunBeforeMainModule in
// metro.config.cjs), as it runs InitializeCore in an app.
//
// - `AbortController` / `AbortSignal`: the `abort-controller` package, as React Native installs them;
// - `queueMicrotask`: a job on a resolved Promise, with a thrown error rethrown from a timer,
//   as React Native defines it where the engine has none;
// - `navigator.product === "ReactNative"`, how libraries (and this package's MCP loader) tell
//   React Native apart from Node.
//
// `setTimeout` / `clearTimeout` are the VM's own (React Native installs its own timers; the
// package only needs the standard functions). No WebSocket or fetch: the tests pass theirs to
// the client, as an app passes React Native's.
// The CommonJS build, as React Native imports it (the package's `browser` build reads `self`).
import { AbortController, AbortSignal } from "abort-controller/dist/abort-controller";

const global = globalThis;

if (typeof global.AbortController !== "function") {
  global.AbortController = AbortController;
  global.AbortSignal = AbortSignal;
}

if (typeof global.queueMicrotask !== "function") {
  let resolved = null;
  global.queueMicrotask = function queueMicrotask(callback) {
    if (typeof callback !== "function") throw new TypeError("queueMicrotask expects a function");
    (resolved ??= Promise.resolve()).then(callback).catch((error) =>
      setTimeout(() => {
        throw error;
      }, 0),
    );
  };
}

if (global.navigator === undefined) global.navigator = { product: "ReactNative" };
