// The agent's text, as it streams. Rendered as React text: whatever the model writes (HTML
// included) shows as characters and is never parsed as markup.
export function AssistantMessage({ text, rowKey }) {
  return (
    <div className="row assistant" data-testid="row" data-kind="assistant" data-key={rowKey}>
      <span className="who">Agent</span>
      <div className="text">{text}</div>
    </div>
  );
}
