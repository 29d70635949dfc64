// Replays a recorded stream (SDK messages and the history page listed after the turn) through
// the package's transcript accumulator, one batch per animation frame, then rebases onto the
// history page: the rows stay exactly once. Untouched rows keep their object identity, so the
// renderer skips them, as React.memo would.
import { init, createTranscriptAccumulator } from "letta-agent-wasm/client";
import recording from "./recorded/session.json";
import "./style.css";

const transcript = document.getElementById("transcript");
const status = document.getElementById("status");
const replayButton = document.getElementById("replay");
const rendered = new WeakMap(); // row object → its element

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text; // text only: never HTML from the model
  return node;
}

// History carries `<system-reminder>` parts inside user messages; the user never typed them.
function withoutSystemReminders(text) {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
}

function renderRow(row) {
  const node = element("div", "row");
  node.dataset.kind = row.kind;
  node.dataset.key = row.key;
  if (row.kind === "reasoning") {
    const details = element("details");
    details.append(element("summary", "", "Reasoning"), element("div", "", row.text));
    node.append(details);
  } else if (row.kind === "tool_call") {
    const head = element("div", "tool-head");
    const badge = element("span", "status", row.status);
    badge.dataset.status = row.status;
    head.append(element("span", "", row.toolName), badge);
    node.append(head, element("pre", "tool-input", JSON.stringify(row.toolInput)));
    if (row.result) {
      node.append(element("pre", `tool-result${row.result.isError ? " error" : ""}`, row.result.content));
    }
  } else {
    node.textContent = row.kind === "user" ? withoutSystemReminders(row.text) : row.text;
  }
  return node;
}

function render(rows) {
  const nodes = rows.map((row) => {
    let node = rendered.get(row);
    if (node === undefined) {
      node = renderRow(row);
      rendered.set(row, node);
    }
    return node;
  });
  transcript.replaceChildren(...nodes);
}

async function replay(recording) {
  replayButton.disabled = true;
  const accumulator = createTranscriptAccumulator();
  const batchSize = 3;
  for (let i = 0; i < recording.messages.length; i += batchSize) {
    render(accumulator.applyMany(recording.messages.slice(i, i + batchSize)));
    status.textContent = `streaming… ${Math.min(i + batchSize, recording.messages.length)}/${recording.messages.length} messages`;
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
  }
  const rows = accumulator.rebase(recording.history, { order: recording.historyOrder });
  render(rows);
  status.textContent = `done: ${recording.messages.length} messages, ${rows.length} rows after rebasing onto history`;
  transcript.dataset.done = "true";
  accumulator.free();
  replayButton.disabled = false;
}

try {
  await init();
  replayButton.addEventListener("click", () => {
    transcript.dataset.done = "false";
    replay(recording);
  });
  await replay(recording);
} catch (error) {
  status.textContent = `failed: ${error.message}`;
  throw error;
}
