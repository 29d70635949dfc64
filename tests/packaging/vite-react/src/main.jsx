// Replays the recorded demo stream through the package's transcript accumulator (one batch per
// animation frame, then a rebase onto the recorded history) and renders the rows with React.
// Rows are memoized by object identity: untouched rows keep theirs, so they are not re-rendered.
import { StrictMode, memo, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { createTranscriptAccumulator, init } from "letta-agent-wasm/client";

const stats = { renders: 0, snapshotRows: 0 };
window.__transcriptStats = stats;

const Row = memo(function Row({ row }) {
  stats.renders += 1;
  if (row.kind !== "tool_call") {
    return (
      <li data-key={row.key} data-kind={row.kind}>
        <p className="text">{row.text}</p>
      </li>
    );
  }
  return (
    <li data-key={row.key} data-kind={row.kind} data-status={row.status}>
      <span className="tool-name">{row.toolName}</span>
      <code className="tool-input">{JSON.stringify(row.toolInput)}</code>
      {row.result && (
        <pre className="tool-result" data-error={String(row.result.isError)}>
          {row.result.content}
        </pre>
      )}
    </li>
  );
});

async function replay(onRows) {
  await init();
  const recording = await (await fetch(new URL("./recorded/session.json", document.baseURI))).json();
  const transcript = createTranscriptAccumulator();
  const batch = 4;
  for (let i = 0; i < recording.messages.length; i += batch) {
    onRows(transcript.applyMany(recording.messages.slice(i, i + batch)));
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  const rows = transcript.rebase(recording.history, { order: recording.historyOrder });
  transcript.free();
  return rows;
}

function App() {
  const [rows, setRows] = useState([]);
  const [state, setState] = useState("loading");
  useEffect(() => {
    let live = true;
    const show = (next) => {
      if (!live) return;
      stats.snapshotRows += next.length;
      setRows(next);
    };
    replay(show).then(
      (final) => {
        show(final);
        if (live) setState("done");
      },
      (error) => {
        console.error(error);
        if (live) setState(`error: ${error.message}`);
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <ol id="rows" data-state={state}>
      {rows.map((row) => (
        <Row key={row.key} row={row} />
      ))}
    </ol>
  );
}

createRoot(document.getElementById("app")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
