// A tool call: its arguments as they stream, its status (streaming → ready → complete) and,
// once it ran, its output.
import { toolSummary } from "../chat/text.js";

const STATUS_LABELS = { streaming: "receiving arguments", ready: "ready", complete: "complete" };

export function ToolCard({ row, waiting }) {
  const { result } = row;
  const label = waiting && row.status !== "complete" ? "waiting for approval" : STATUS_LABELS[row.status];
  return (
    <div
      className={`row tool ${result?.isError ? "failed" : ""}`}
      data-testid="row"
      data-kind="tool_call"
      data-key={row.key}
      data-status={row.status}
      data-tool-call-id={row.toolCallId}
    >
      <div className="tool-head">
        <span className="tool-name">{row.toolName}</span>
        <span className="badge" data-status={row.status} data-testid="tool-status">
          {label}
        </span>
      </div>
      <pre className="tool-input" data-testid="tool-input">{toolSummary(row)}</pre>
      {result ? (
        <pre className={`tool-result ${result.isError ? "error" : ""}`} data-testid="tool-result" aria-label={result.isError ? "Tool error" : "Tool output"}>
          {result.content}
        </pre>
      ) : null}
    </div>
  );
}
