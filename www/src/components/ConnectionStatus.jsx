// Where the page is connected: the relay's WebSocket and the open conversation's session.
const LABELS = {
  connecting: "Connecting to the relay…",
  connected: "Connected",
  failed: "Not connected",
};

export function ConnectionStatus({ connection, chatStatus, chatError, onRetry }) {
  const dropped = chatStatus === "closed" || chatStatus === "error";
  const state = connection.state === "connected" && dropped ? "disconnected" : connection.state;
  const detail = dropped ? chatError : connection.detail;
  return (
    <div className="connection" data-testid="connection-state" data-state={state} data-backend={connection.backend} role="status" aria-live="polite">
      <span className="dot" aria-hidden="true" />
      <span>{state === "disconnected" ? "Conversation disconnected" : LABELS[state]}</span>
      {detail ? <span className="muted"> — {detail}</span> : null}
      {state === "failed" || state === "disconnected" ? (
        <button type="button" onClick={onRetry} aria-label="Retry the connection">
          Retry
        </button>
      ) : null}
    </div>
  );
}
