// Conversations of the selected agent: start a new one, or resume one with its history.
function describe(conversation) {
  const when = conversation.last_message_at ?? conversation.updated_at ?? conversation.created_at;
  const date = when ? new Date(when).toLocaleString() : "";
  return [conversation.summary, date].filter(Boolean).join(" · ");
}

export function ConversationPanel({ conversations, currentId, onNew, onResume, disabled }) {
  return (
    <section className="panel" aria-labelledby="conversations-heading">
      <h2 id="conversations-heading">Conversations</h2>
      <button type="button" onClick={onNew} disabled={disabled} data-testid="new-conversation">
        New conversation
      </button>
      <ul className="pick-list" data-testid="conversation-list">
        {conversations.map((conversation) => (
          <li key={conversation.id}>
            <button
              type="button"
              className={conversation.id === currentId ? "picked" : ""}
              aria-pressed={conversation.id === currentId}
              aria-label={`Resume conversation ${conversation.id}`}
              data-testid="conversation-item"
              data-conversation-id={conversation.id}
              onClick={() => onResume(conversation.id)}
            >
              <span className="mono">{conversation.id}</span>
              <span className="muted small">{describe(conversation)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
