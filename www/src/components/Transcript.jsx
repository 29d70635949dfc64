// The transcript: the chat's rows (the user's own messages included), then why the latest turn
// stopped early and the latest problem, if any. Rows keep their object identity while unchanged,
// so the memoized row components skip them.
import { useEffect, useRef } from "react";
import { TranscriptRow } from "./TranscriptRow.jsx";
import { ErrorRow } from "./ErrorRow.jsx";

/** Why the latest turn did not end well, in one line (nothing when it did). */
function turnProblem(result) {
  if (result === null || result.success) return null;
  const why = result.errorCode === "interrupted" || result.stopReason === "cancelled" ? "Turn interrupted" : "Turn failed";
  return `${why} (${result.stopReason ?? result.errorCode ?? "error"})${result.errorDetail ? `: ${result.errorDetail}` : ""}`;
}

export function Transcript({ chat, waitingFor, synced, problem }) {
  const end = useRef(null);
  const { rows } = chat;
  const turn = turnProblem(chat.lastResult);
  const error = chat.error && chat.error.message !== chat.lastResult?.errorDetail ? chat.error.message : null;
  useEffect(() => {
    // Braces: scrollIntoView returns a promise in newer browsers, and an effect may return only a cleanup.
    end.current?.scrollIntoView({ block: "end" });
  }, [rows.length]);

  return (
    <div className="transcript" role="log" aria-label="Transcript" aria-live="polite" data-testid="transcript" data-status={chat.status} data-synced={synced}>
      {rows.length === 0 ? <p className="muted">No messages yet.</p> : null}
      {rows.map((row) => (
        <TranscriptRow key={row.key} row={row} waiting={row.kind === "tool_call" && waitingFor.has(row.toolCallId)} />
      ))}
      {turn ? <ErrorRow text={turn} /> : null}
      {error ? <ErrorRow text={error} /> : null}
      {problem ? <ErrorRow text={problem} /> : null}
      <div ref={end} />
    </div>
  );
}
