// The model's reasoning, collapsed by default.
export function Reasoning({ text, rowKey }) {
  return (
    <details className="row reasoning" data-testid="row" data-kind="reasoning" data-key={rowKey}>
      <summary>Reasoning</summary>
      <div className="text">{text}</div>
    </details>
  );
}
