// Headless Chromium for every browser test: Debian's /usr/bin/chromium driven by playwright-core
// (the caller passes its own `chromium` export, resolved from its scratch project), a fresh empty
// profile per launch, and the flags this closed network needs (without the background-networking
// ones Chromium keeps dialing out).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches Chromium; resolves to `{context, newPage(), close()}`. */
export async function launchChromium(chromium, options = {}) {
  const profile = mkdtempSync(join(tmpdir(), "letta-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
    timeout: 60_000,
    ...options,
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
