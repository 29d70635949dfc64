// The transcript: the accumulator's rows, with the page's own rows (the user's messages not yet
// in history, error rows) placed after the row that was last when they happened. Rows keep
// their object identity while unchanged, so the memoized row components skip them.
import { Fragment, useEffect, useRef } from "react";
import { TranscriptRow } from "./TranscriptRow.jsx";
import { UserMessage } from "./UserMessage.jsx";
import { ErrorRow } from "./ErrorRow.jsx";
import { placeExtras } from "../chat/placement.js";

function Extra({ extra }) {
  if (extra.type === "user") return <UserMessage text={extra.text} pending />;
  return <ErrorRow text={extra.text} />;
}

export function Transcript({ rows, extras, waitingFor, status, synced }) {
  const end = useRef(null);
  const { after, trailing } = placeExtras(rows, extras);
  const count = rows.length + extras.length;
  useEffect(() => {
    // Braces: scrollIntoView returns a promise in newer browsers, and an effect may return only a cleanup.
    end.current?.scrollIntoView({ block: "end" });
  }, [count]);

  return (
    <div
      className="transcript"
      role="log"
      aria-label="Transcript"
      aria-live="polite"
      data-testid="transcript"
      data-status={status}
      data-synced={synced}
    >
      {rows.length === 0 && extras.length === 0 ? <p className="muted">No messages yet.</p> : null}
      {(after.get(null) ?? []).map((extra) => (
        <Extra key={extra.id} extra={extra} />
      ))}
      {rows.map((row) => (
        <Fragment key={row.key}>
          <TranscriptRow row={row} waiting={row.kind === "tool_call" && waitingFor.has(row.toolCallId)} />
          {(after.get(row.key) ?? []).map((extra) => (
            <Extra key={extra.id} extra={extra} />
          ))}
        </Fragment>
      ))}
      {trailing.map((extra) => (
        <Extra key={extra.id} extra={extra} />
      ))}
      <div ref={end} />
    </div>
  );
}
