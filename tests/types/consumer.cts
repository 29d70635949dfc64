// A CommonJS TypeScript module (compiled to `require()`): the ESM-only package's types must
// resolve through the `types` condition and be usable from CommonJS (Node >= 20.19 runs
// `require()` of the package's ES modules).
import { LettaAgentClient, createTranscriptAccumulator, type SDKStreamMessage } from "letta-agent-wasm/client";
import root = require("letta-agent-wasm");

export async function turn(url: string): Promise<string> {
  const client = new LettaAgentClient({ backend: "remote", url });
  const session = client.createSession(await client.createAgent({ memfs: false }));
  const transcript = root.createTranscriptAccumulator();
  await session.send("no tools, hi");
  let last: SDKStreamMessage | undefined;
  for await (const message of session.stream()) {
    transcript.apply(message);
    last = message;
  }
  session.close();
  await client.close();
  createTranscriptAccumulator().free();
  return last?.type === "result" && last.success ? (last.result ?? "") : "failed";
}
