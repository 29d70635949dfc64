export * from "letta-agent-wasm";
