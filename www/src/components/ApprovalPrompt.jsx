// A tool call waiting for the user's decision (an approval of the chat's snapshot).
import { useEffect, useRef } from "react";

function describeInput(input) {
  if (typeof input?.command === "string") return input.command;
  return JSON.stringify(input, null, 2);
}

export function ApprovalPrompt({ approval }) {
  const allow = useRef(null);
  useEffect(() => {
    allow.current?.focus();
  }, [approval]);
  return (
    <section className="approval" role="alertdialog" aria-labelledby="approval-title" aria-describedby="approval-input" data-testid="approval">
      <h3 id="approval-title">
        Allow <span className="mono">{approval.toolName}</span> to run?
      </h3>
      {typeof approval.input?.description === "string" ? <p className="muted">{approval.input.description}</p> : null}
      <pre id="approval-input" data-testid="approval-input">{describeInput(approval.input)}</pre>
      <div className="buttons">
        <button ref={allow} type="button" className="primary" onClick={() => approval.allow()} data-testid="approve">
          Allow
        </button>
        <button type="button" onClick={() => approval.deny("The user denied this in the demo page.")} data-testid="deny">
          Deny
        </button>
      </div>
    </section>
  );
}
