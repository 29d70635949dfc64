// End to end: the demo page in headless Chromium, against the REAL Letta Code app server
// through letta-relay, with the offline scripted model — started by the same code as
// `scripts/demo` (scripts/demo-stack.mjs), on free loopback ports, and stopped afterwards.
// Needs the built page (scripts/build-page) and relay (cargo build --release -p letta-relay, or
// LETTA_RELAY_BIN naming another build of it).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startStack } from "../../scripts/demo-stack.mjs";
import { launchChromium } from "./support/chromium.mjs";
import { persistedTurns, readTranscript, recordToolStatuses, send, waitIdle } from "./support/page-reader.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const artifacts = join(repo, "target", "artifacts");
const stateDir = join(repo, "target", "e2e", "demo-state");
const XSS = "<img src=x onerror=alert(1)>";
const stamp = Date.now().toString(36);
const MARKER = `e2e-ran-${stamp}`;

let stack;
let browser;
let page;
const dialogs = [];
const pageErrors = [];

before(async () => {
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const started = Date.now();
  stack = await startStack({ stateDir, port: 0, mode: "offline", ttlS: 900, log: (line) => console.log(`# stack: ${line}`) });
  console.log(`# stack up in ${Date.now() - started} ms at ${stack.url}`);
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  await page.addInitScript(recordToolStatuses);
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

after(async () => {
  if (page && !page.isClosed()) await page.screenshot({ path: join(artifacts, "demo-e2e-last.png"), fullPage: true }).catch(() => {});
  await browser?.close();
  await stack?.stop();
});

test("the demo page runs agent turns over the real app server, and a reload resumes them exactly once", { timeout: 300_000 }, async (t) => {
  let before;

  await t.test("the page connects through the relay and creates an agent", async () => {
    await page.goto(stack.url);
    await page.locator("[data-testid='connection-state'][data-state='connected']").waitFor();
    await page.getByTestId("agent-name").fill(`e2e agent ${stamp}`);
    await page.locator("[data-testid='agent-model'] option").first().waitFor({ state: "attached" });
    assert.match(await page.getByTestId("agent-model").inputValue(), /offline-demo$/);
    await page.getByTestId("create-agent").click();
    await page.locator("[data-testid='agent-item']", { hasText: `e2e agent ${stamp}` }).waitFor();
    await waitIdle(page);
    assert.match(await page.getByTestId("conversation-id").textContent(), /^local-conv-/);
    await page.getByTestId("offline-model-notice").waitFor();
  });

  await t.test("the model picker lists the models and switches the conversation's model", async () => {
    const picker = page.getByTestId("model-picker");
    await page.locator("[data-testid='model-picker'] option[value$='/offline-demo-slow']").waitFor({ state: "attached" });
    const handles = await picker.locator("option").evaluateAll((options) => options.map((o) => o.value));
    assert.ok(handles.some((h) => h.endsWith("/offline-demo")), handles.join(", "));
    const slow = handles.find((h) => h.endsWith("/offline-demo-slow"));
    await picker.selectOption(slow);
    await page.waitForFunction((h) => document.querySelector("[data-testid='model-picker']").value === h, slow);
    const quick = handles.find((h) => h.endsWith("/offline-demo"));
    await picker.selectOption(quick);
    await page.waitForFunction((h) => document.querySelector("[data-testid='model-picker']").value === h, quick);
    assert.equal(await page.getByTestId("error-row").count(), 0);
  });

  await t.test("a shell command needs approval; once approved the tool card completes with its output", async () => {
    await send(page, `Please run \`touch e2e.txt && echo ${MARKER}\` and tell me what it printed.`);
    const approval = page.getByTestId("approval");
    await approval.waitFor();
    assert.match(await page.getByTestId("approval-input").textContent(), /touch e2e\.txt/);
    const card = page.locator("[data-kind='tool_call']");
    await card.waitFor();
    assert.notEqual(await card.getAttribute("data-status"), "complete", "no result before the approval");
    assert.equal(existsSync(join(stack.workspace, "e2e.txt")), false);
    await page.getByTestId("approve").click();
    await approval.waitFor({ state: "detached" });
    await page.locator("[data-kind='tool_call'][data-status='complete']").waitFor();
    assert.match(await card.getByTestId("tool-result").textContent(), new RegExp(MARKER));
    await page.locator("[data-kind='assistant']", { hasText: new RegExp(`printed 1 line:\\s+${MARKER}`) }).waitFor();
    await waitIdle(page);
    assert.ok(existsSync(join(stack.workspace, "e2e.txt")), "the command ran in the demo's workspace");
    const toolCallId = await card.getAttribute("data-tool-call-id");
    const statuses = (await page.evaluate(() => window.__toolStatuses))[toolCallId];
    console.log(`# tool card statuses: ${statuses.join(" → ")}`);
    assert.equal(statuses.at(-1), "complete");
    const order = ["streaming", "ready", "complete"];
    assert.deepEqual([...statuses].sort((a, b) => order.indexOf(a) - order.indexOf(b)), statuses, "statuses only move forward");
    assert.ok(statuses.includes("ready"), "the card was ready (arguments complete) before it completed");
  });

  await t.test("a slow turn can be aborted; a message queued meanwhile can be removed", async () => {
    const assistantRows = await page.locator("[data-kind='assistant']").count();
    await send(page, "[slow] Please tell me a long story.");
    await page.locator("[data-testid='turn-state'][data-busy='true']").waitFor();
    await page.locator("[data-kind='assistant']", { hasText: "You said: [slow]" }).waitFor();
    assert.equal(await page.locator("[data-kind='assistant']").count(), assistantRows + 1);
    await send(page, `a queued message ${stamp}`);
    const queued = page.getByTestId("queued-message");
    await queued.waitFor();
    assert.match(await queued.textContent(), new RegExp(`a queued message ${stamp}`));
    await page.getByTestId("remove-queued").click();
    await queued.waitFor({ state: "detached" });
    await page.getByTestId("abort").click();
    await page.getByTestId("error-row").filter({ hasText: /interrupted/i }).waitFor();
    await waitIdle(page);
    const rows = await readTranscript(page);
    assert.equal(rows.filter((r) => r.kind === "user" && r.text.includes("a queued message")).length, 0, "the removed message never ran");
    assert.ok(!rows.some((r) => r.kind === "assistant" && r.text.includes("before it ends.")), "the slow reply stopped early");
  });

  await t.test("a reply quoting HTML shows it as text: no element, no script", async () => {
    await send(page, `Please repeat this: ${XSS}`);
    await page.locator("[data-kind='assistant']", { hasText: XSS }).waitFor();
    await waitIdle(page);
    assert.equal(await page.locator("[data-testid='transcript'] img").count(), 0);
    assert.equal(await page.locator("img").count(), 0);
    await page.waitForTimeout(300);
    assert.deepEqual(dialogs, []);
    before = await readTranscript(page);
    await page.screenshot({ path: join(artifacts, "demo-e2e.png"), fullPage: true });
  });

  await t.test("a reload resumes the conversation with the same turns, each exactly once", async () => {
    const conversationId = await page.getByTestId("conversation-id").textContent();
    const expected = persistedTurns(before);
    const users = expected.filter((r) => r.kind === "user").map((r) => r.text);
    assert.deepEqual(
      users.map((text) => text.replace(/`.*`/, "`…`")),
      ["Please run `…` and tell me what it printed.", "[slow] Please tell me a long story.", `Please repeat this: ${XSS}`],
    );
    assert.equal(expected.filter((r) => r.kind === "tool_call").length, 1);
    assert.equal(new Set(expected.map((r) => r.key)).size, expected.length, "every row once");

    await page.reload();
    await page.locator("[data-testid='connection-state'][data-state='connected']").waitFor();
    await page.locator("[data-testid='conversation-id']", { hasText: conversationId }).waitFor();
    await waitIdle(page);
    assert.deepEqual(persistedTurns(await readTranscript(page)), expected);

    // The same through the conversation list: open another conversation, then resume this one.
    await page.getByTestId("new-conversation").click();
    await page.locator("[data-testid='conversation-id']", { hasNotText: conversationId }).waitFor();
    await page.locator(`[data-testid='conversation-item'][data-conversation-id='${conversationId}']`).click();
    await page.locator("[data-testid='conversation-id']", { hasText: conversationId }).waitFor();
    await waitIdle(page);
    const resumed = persistedTurns(await readTranscript(page));
    assert.deepEqual(resumed, expected);
    assert.equal(resumed.find((r) => r.kind === "tool_call").status, "complete");
    assert.match(resumed.find((r) => r.kind === "tool_call").result, new RegExp(MARKER));
    assert.equal(await page.locator("img").count(), 0);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(pageErrors, []);
  });

  await t.test("the recorded replay page still renders its recording (no server needed)", async () => {
    await page.goto(new URL("replay.html", stack.url).href);
    await page.locator("#transcript[data-done='true']").waitFor();
    const kinds = await page.locator("#transcript .row").evaluateAll((rows) => rows.map((row) => row.dataset.kind));
    assert.ok(kinds.includes("tool_call") && kinds.includes("assistant") && kinds.includes("user"), kinds.join(", "));
    assert.deepEqual(pageErrors, []);
  });
});
