// A message the user sent. `pending`: sent from this page, not yet read back from history.
export function UserMessage({ text, pending = false, rowKey }) {
  return (
    <div className="row user" data-testid="row" data-kind="user" data-key={rowKey} data-pending={pending || undefined}>
      <span className="who">You</span>
      <div className="text">{text}</div>
    </div>
  );
}
