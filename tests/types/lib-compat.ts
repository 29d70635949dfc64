// The declarations must compile without the DOM lib (a Node-only project with @types/node) and
// without the `esnext.disposable` lib: `scripts/test-types` checks this file in such setups.
import { LettaAgentClient, createTranscriptAccumulator, init, type InitInput, type SDKMessage, type TranscriptRow } from "letta-agent-wasm/client";
import * as root from "letta-agent-wasm";

export function rows(messages: readonly SDKMessage[]): readonly TranscriptRow[] {
  return createTranscriptAccumulator().applyMany(messages);
}

export async function start(url: string, wasm: InitInput): Promise<void> {
  await init(wasm);
  const client = new root.LettaAgentClient({ backend: "remote", url });
  const session = client.createSession("agent-1");
  await session[Symbol.asyncDispose]();
  await client[Symbol.asyncDispose]();
}

export const ClientClass: typeof root.LettaAgentClient = LettaAgentClient;
