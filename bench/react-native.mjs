// React Native figures of the installed package (bench/run rn): the size of the release bundle
// Metro makes of a one-call app (bench/react-native-app.js), raw and gzip -9, and as Hermes
// bytecode (hermesc of the current React Native release, and of Hermes 0.12, whose VM runs
// here); and the package's start-up in the Hermes 0.12 VM: milliseconds from the bundle's first
// line to the end of its first call, over RUNS processes. Runs in target/rn-test (the project
// of tests/react-native, with Metro and Hermes), where bench/run copies it.
//
//   node bench-react-native.mjs LABEL [RUNS]
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { compile, hermes, metroBundle, runInVm } from "./support/hermes.mjs";

const label = process.argv[2] ?? "package";
const runs = Number(process.argv[3] ?? 15);
const root = resolve(".");
const work = mkdtempSync(join(tmpdir(), "letta-rn-bench-"));
const size = (path) => statSync(path).size;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  copyFileSync(join(root, "bench-react-native-app.js"), join(root, "app", "bench-app.js"));
  const bundle = await metroBundle(root, join(root, "app", "bench-app.js"), join(work, "app.bundle"));
  const current = await compile(bundle, join(work, "app-current.hbc"), hermes.currentHermesc);
  const old = await compile(bundle, join(work, "app-0.12.hbc"));
  const startups = [];
  for (let i = 0; i < runs; i++) {
    const output = await runInVm(old);
    const ms = /startup-ms (\d+)/.exec(output)?.[1];
    if (ms === undefined) throw new Error(`no start-up figure in the VM's output: ${output.slice(0, 500)}`);
    startups.push(Number(ms));
  }
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
  console.log(`${label}: React Native bundle (Metro, release, one-call app)`);
  console.log(`  bundle:            ${size(bundle).toLocaleString("en")} B raw (${kb(size(bundle))}), ${gzipSync(readFileSync(bundle), { level: 9 }).length.toLocaleString("en")} B gzip -9`);
  console.log(`  Hermes bytecode:   ${size(current).toLocaleString("en")} B (hermesc ${hermes.currentVersion}), ${size(old).toLocaleString("en")} B (hermesc ${hermes.version})`);
  console.log(`  start-up in Hermes ${hermes.version}: median ${median(startups)} ms, ${Math.min(...startups)}–${Math.max(...startups)} ms over ${runs} runs`);
} finally {
  rmSync(join(root, "app", "bench-app.js"), { force: true });
  rmSync(work, { recursive: true, force: true });
}
