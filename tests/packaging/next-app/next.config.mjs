// The package loads its WebAssembly from its own directory in Node (node/load.js); Next's
// server bundle leaves it as it is installed.
export default {
  serverExternalPackages: ["letta-agent-wasm"],
};
