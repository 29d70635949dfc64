export * from "letta-agent-wasm/client";
