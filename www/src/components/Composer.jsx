// The message box: Enter sends (Shift+Enter for a new line); during a turn a sent message is
// queued; Abort interrupts the running turn.
import { useState } from "react";

const EXAMPLES = [
  ["Run a command", "Please run `touch demo.txt && ls -l` and tell me what it printed."],
  ["Slow reply", "[slow] Tell me about this demo, slowly."],
  ["Quote me", "Is this shown as text? <b>bold</b> <img src=x onerror=alert(1)>"],
];

export function Composer({ onSend, onAbort, busy, disabled }) {
  const [text, setText] = useState("");
  const submit = (event) => {
    event.preventDefault();
    const message = text.trim();
    if (message === "" || disabled) return;
    onSend(message);
    setText("");
  };
  const onKeyDown = (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={3}
        placeholder={disabled ? "Open a conversation first" : "Message the agent (Enter sends, Shift+Enter for a new line)"}
        aria-label="Message"
        disabled={disabled}
        data-testid="composer-input"
      />
      <div className="buttons">
        <button type="submit" className="primary" disabled={disabled || text.trim() === ""} data-testid="send">
          {busy ? "Queue" : "Send"}
        </button>
        <button type="button" onClick={onAbort} disabled={disabled || !busy} aria-label="Abort the running turn" data-testid="abort">
          Abort
        </button>
        <span className="examples" aria-label="Example messages">
          {EXAMPLES.map(([label, example]) => (
            <button key={label} type="button" className="link" onClick={() => setText(example)} disabled={disabled}>
              {label}
            </button>
          ))}
        </span>
      </div>
    </form>
  );
}
