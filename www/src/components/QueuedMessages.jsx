// Messages sent during a turn wait in the app server's queue (queue_update); each can be removed.
function text(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === "string" ? part : (part?.text ?? ""))).join("");
  return "";
}

export function QueuedMessages({ queue }) {
  if (queue.length === 0) return null;
  return (
    <section className="queue" aria-labelledby="queue-heading">
      <h3 id="queue-heading">Queued ({queue.length})</h3>
      <ul data-testid="queue">
        {queue.map((item) => (
          <li key={item.id} data-testid="queued-message">
            <span className="text">{text(item.content)}</span>
            <button type="button" onClick={item.remove} aria-label={`Remove queued message: ${text(item.content)}`} data-testid="remove-queued">
              Remove
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
