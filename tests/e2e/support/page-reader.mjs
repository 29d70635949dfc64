// What the demo page shows, read from its DOM (the data-testid / data-* attributes of the
// components), and waits expressed in the page's own terms.

/** Installed before the page's scripts: records every status each tool card shows, in order. */
export function recordToolStatuses() {
  window.__toolStatuses = {};
  const note = (element) => {
    if (!(element instanceof HTMLElement) || element.dataset.kind !== "tool_call") return;
    const id = element.dataset.toolCallId;
    const seen = (window.__toolStatuses[id] ??= []);
    if (seen.at(-1) !== element.dataset.status) seen.push(element.dataset.status);
  };
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      if (mutation.type === "attributes") note(mutation.target);
      for (const node of mutation.addedNodes) {
        note(node);
        if (node instanceof HTMLElement) node.querySelectorAll("[data-kind='tool_call']").forEach(note);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
}

/** The transcript as shown: one entry per row (error rows included), in order. */
export function readTranscript(page) {
  return page.locator("[data-testid='transcript'] :is([data-testid='row'], [data-testid='error-row'])").evaluateAll((elements) =>
    elements.map((element) => {
      const text = (selector) => element.querySelector(selector)?.textContent ?? undefined;
      if (element.dataset.testid === "error-row") return { kind: "error", text: element.textContent };
      if (element.dataset.kind === "tool_call") {
        return {
          kind: "tool_call",
          key: element.dataset.key,
          name: text(".tool-name"),
          status: element.dataset.status,
          input: text("[data-testid='tool-input']"),
          result: text("[data-testid='tool-result']"),
        };
      }
      return { kind: element.dataset.kind, key: element.dataset.key, pending: element.dataset.pending === "true", text: text(".text") };
    }),
  );
}

/** The rows a conversation keeps (what history has): everything but the page's error rows. */
export function persistedTurns(rows) {
  return rows.filter((row) => row.kind !== "error").map(({ pending: _pending, ...row }) => row);
}

/** Waits until no turn runs and the rows are the conversation's history again. */
export async function waitIdle(page, timeout = 60_000) {
  await page.locator("[data-testid='turn-state'][data-busy='false'][data-status='ready']").waitFor({ timeout });
  await page.locator("[data-testid='transcript'][data-synced='true']").waitFor({ timeout });
}

/** Types a message into the composer and sends it. */
export async function send(page, text) {
  await page.getByTestId("composer-input").fill(text);
  await page.getByTestId("send").click();
}
