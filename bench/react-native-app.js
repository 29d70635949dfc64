// The app of bench/react-native.mjs: the package's first call in a React Native bundle. It prints
// the milliseconds from the bundle's first line (Metro's `__BUNDLE_START_TIME__`) to the end of
// that call: loading the package (the wasm2js module's instantiation) and one accumulator apply.
import { createTranscriptAccumulator } from "letta-agent-wasm/client";

const transcript = createTranscriptAccumulator();
transcript.apply({ type: "assistant", uuid: "m-1", content: "first call" });
console.log(`startup-ms ${Date.now() - __BUNDLE_START_TIME__}`);
