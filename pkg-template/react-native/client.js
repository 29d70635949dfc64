// The React Native entry. The loader is a bare import, with no binding taken from it: Metro's
// inlineRequires (on in React Native apps) defers a module until a binding of it is read, and
// tree-shaking bundlers drop re-exports nobody uses, so an app that never calls `init` would
// otherwise never load the build.
import "./load.js";
export * from "../lib/client.js";

/** Already done on import; kept so that code written for browsers runs unchanged. */
export async function init() {}
