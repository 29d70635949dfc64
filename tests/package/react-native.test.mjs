// The React Native build (the Rust compiled to JavaScript with wasm2js), run where WebAssembly
// does not exist: `node --jitless` disables it, standing in for Hermes. The `react-native`
// export condition selects that build.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startPeer } from "./support/real-peer.mjs";

const run = promisify(execFile);
const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");
const jitless = ["--jitless", "--conditions=react-native"];
let peer;

before(async () => {
  peer = await startPeer();
});

after(async () => {
  await peer?.stop();
});

for (const subject of ["accumulator", "extractStreamTextDelta"]) {
  test(`the vectors pass on the React Native build without WebAssembly (${subject})`, async () => {
    const vectors = join(repoRoot, "tests", "vectors", "check-vectors.mjs");
    const { stdout } = await run(process.execPath, [...jitless, vectors, "entry-client.mjs", "--only", subject]);
    assert.match(stdout, subject === "accumulator" ? /^34 passed, 0 failed$/m : /^7 passed, 0 failed$/m);
  });
}

test("a session turn against the real app server completes on the React Native build", async () => {
  const env = { ...process.env, LETTA_URL: peer.url, LETTA_TOKEN: peer.token, LETTA_MODEL: peer.model };
  const { stdout } = await run(process.execPath, [...jitless, "support/rn-session.mjs"], { env, timeout: 120_000 });
  const outcome = JSON.parse(stdout.trim().split("\n").at(-1));
  assert.equal(outcome.webAssembly, "undefined", "no WebAssembly in this engine");
  assert.ok(outcome.types.includes("reasoning"));
  assert.equal(outcome.result.success, true);
  assert.match(outcome.result.result, /hello from React Native/);
});

test("a chat store (createChat, throttled on a timer) runs an approved tool turn on the React Native build", async () => {
  const env = { ...process.env, LETTA_URL: peer.url, LETTA_TOKEN: peer.token, LETTA_MODEL: peer.model };
  const { stdout } = await run(process.execPath, [...jitless, "support/rn-chat.mjs"], { env, timeout: 120_000 });
  const outcome = JSON.parse(stdout.trim().split("\n").at(-1));
  assert.equal(outcome.webAssembly, "undefined", "no WebAssembly in this engine");
  assert.equal(outcome.approved, 1, "the approval was in the snapshot once");
  assert.equal(outcome.kinds[0], "user", "the user's own message first");
  assert.ok(outcome.kinds.includes("tool_call"));
  assert.equal(outcome.tool.isError, false);
  assert.match(outcome.tool.content, /rn-chat/);
});
