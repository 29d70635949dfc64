// The chat's state in a few words: opening, idle, what the agent does, or why it stopped.
const LABELS = {
  connecting: "opening…",
  ready: "idle",
  streaming: "working…",
  "awaiting-approval": "waiting for your approval",
  error: "could not open",
  closed: "closed",
};
const CONNECTION = {
  reconnecting: "reconnecting (the other connection carries on)…",
  disconnected: "disconnected — reconnecting…",
};

export function ChatStatus({ chat, busy }) {
  const label = CONNECTION[chat.connection] ?? LABELS[chat.status];
  return (
    <span className="turn" data-testid="turn-state" data-busy={busy} data-status={busy ? "ready" : chat.status} data-connection={chat.connection}>
      {label}
      {chat.status === "error" ? (
        <button type="button" onClick={chat.retry} aria-label="Retry opening the conversation">
          Retry
        </button>
      ) : null}
    </span>
  );
}
