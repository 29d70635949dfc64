#!/usr/bin/env node
// Accumulator benchmark through the installed package's JS API (not a test: it prints figures).
//
// A synthetic stream of N turns with ids as a real stream has them: one runId per turn, seqId
// rising from 1 within each run, one uuid and otid per reasoning message and per assistant
// message, one toolCallId per call. Each turn: 20 reasoning fragments, a tool call whose JSON
// arguments arrive in 10 fragments, its tool result, 50 assistant fragments, a result.
// For N = 100 and N = 2,000 (6,000 rows at the end) it prints, for `apply` and for `applyMany`
// in batches of 50: messages per second over the whole run, and the mean µs per message over
// the first and the last tenth of the messages. Each figure is the median of 5 runs.
import { createTranscriptAccumulator } from "letta-agent-wasm/client";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH = 50;

function syntheticStream(turns) {
  const messages = [];
  for (let t = 0; t < turns; t++) {
    const runId = `run-${t}`;
    let seqId = 0;
    const reasoningId = `message-${t}-reasoning`;
    for (let i = 0; i < 20; i++) {
      messages.push({ type: "reasoning", content: `thought ${i} `, uuid: reasoningId, otid: `${reasoningId}-otid`, seqId: ++seqId, runId });
    }
    const args = JSON.stringify({ command: `ls -la /tmp/work-${t}`, description: "List the working directory" });
    const step = Math.ceil(args.length / 10);
    const toolCallId = `call-${t}`;
    for (let i = 0; i < 10; i++) {
      const fragment = args.slice(i * step, (i + 1) * step);
      messages.push({ type: "tool_call", toolCallId, toolName: "Bash", toolInput: { raw: fragment }, rawArguments: fragment, uuid: `message-${t}-tool`, runId });
    }
    messages.push({ type: "tool_result", toolCallId, content: `total 0\ndrwxr-xr-x work-${t}\n`, isError: false, uuid: `message-${t}-return`, runId });
    const assistantId = `message-${t}-assistant`;
    for (let i = 0; i < 50; i++) {
      messages.push({ type: "assistant", content: `word${i} `, uuid: assistantId, otid: `${assistantId}-otid`, seqId: ++seqId, runId });
    }
    messages.push({ type: "result", success: true, durationMs: 1000, conversationId: "conv-1", runIds: [runId] });
  }
  return messages;
}

function measure(messages, mode) {
  const acc = createTranscriptAccumulator();
  const step = mode === "apply" ? 1 : BATCH;
  const tenth = Math.floor(messages.length / 10);
  // Time is sampled at call boundaries: [start, end of the first tenth, start of the last tenth, end].
  let firstEnd = -1;
  let lastStart = -1;
  let tFirstEnd = 0;
  let tLastStart = 0;
  const t0 = performance.now();
  for (let i = 0; i < messages.length; i += step) {
    if (firstEnd < 0 && i >= tenth) [firstEnd, tFirstEnd] = [i, performance.now()];
    if (lastStart < 0 && i >= messages.length - tenth) [lastStart, tLastStart] = [i, performance.now()];
    if (step === 1) acc.apply(messages[i]);
    else acc.applyMany(messages.slice(i, i + step));
  }
  const t1 = performance.now();
  const rows = acc.rows().length;
  acc.free();
  return {
    perSecond: messages.length / ((t1 - t0) / 1000),
    firstUs: ((tFirstEnd - t0) * 1000) / firstEnd,
    lastUs: ((t1 - tLastStart) * 1000) / (messages.length - lastStart),
    rows,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(`accumulator benchmark: node ${process.version}, median of ${RUNS} runs`);
for (const turns of [100, 2000]) {
  const messages = syntheticStream(turns);
  for (const mode of ["apply", "applyMany"]) {
    measure(messages, mode); // warm-up
    const runs = Array.from({ length: RUNS }, () => measure(messages, mode));
    const perSecond = median(runs.map((r) => r.perSecond));
    const firstUs = median(runs.map((r) => r.firstUs));
    const lastUs = median(runs.map((r) => r.lastUs));
    const label = mode === "apply" ? "apply" : `applyMany(${BATCH})`;
    console.log(
      `N=${String(turns).padEnd(5)} ${label.padEnd(14)} ${messages.length} msgs → ${runs[0].rows} rows: ` +
        `${Math.round(perSecond).toLocaleString("en-US")} msgs/s; µs/msg first tenth ${firstUs.toFixed(3)}, ` +
        `last tenth ${lastUs.toFixed(3)}, last/first ${(lastUs / firstUs).toFixed(2)}`,
    );
  }
}
