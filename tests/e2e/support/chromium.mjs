// Headless Chromium for the end-to-end test (the shared launcher in tests/support/).
import { chromium } from "playwright-core";
import { launchChromium as launch } from "../../support/chromium.mjs";

/** Launches Chromium; resolves to `{context, newPage(), close()}`. */
export function launchChromium() {
  return launch(chromium, { viewport: { width: 1280, height: 900 } });
}
