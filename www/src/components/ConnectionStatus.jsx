// Where the page is connected: the relay (the client's first call through it). The open
// conversation's own connection shows in its header (ChatStatus).
const LABELS = {
  connecting: "Connecting to the relay…",
  connected: "Connected",
  failed: "Not connected",
};

export function ConnectionStatus({ connection, onRetry }) {
  const { state, detail } = connection;
  return (
    <div className="connection" data-testid="connection-state" data-state={state} data-backend={connection.backend} role="status" aria-live="polite">
      <span className="dot" aria-hidden="true" />
      <span>{LABELS[state]}</span>
      {detail ? <span className="muted"> — {detail}</span> : null}
      {state === "failed" ? (
        <button type="button" onClick={onRetry} aria-label="Retry the connection">
          Retry
        </button>
      ) : null}
    </div>
  );
}
