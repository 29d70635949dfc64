// Agents: the list (select one) and a small form to create one with a model from the catalog.
import { useState } from "react";
import { isOfflineModel } from "../chat/text.js";

export function AgentPanel({ agents, catalog, selectedId, onSelect, onCreate, disabled }) {
  const [name, setName] = useState("");
  const [model, setModel] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const chosen = model || catalog.find((m) => isOfflineModel(m.handle))?.handle || catalog[0]?.handle || "";

  const create = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onCreate({ name: name.trim(), model: chosen });
      setName("");
    } catch (caught) {
      setError(caught.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="agents-heading">
      <h2 id="agents-heading">Agents</h2>
      <ul className="pick-list" data-testid="agent-list">
        {agents.length === 0 ? <li className="muted">No agents yet.</li> : null}
        {agents.map((agent) => (
          <li key={agent.id}>
            <button
              type="button"
              className={agent.id === selectedId ? "picked" : ""}
              aria-pressed={agent.id === selectedId}
              data-testid="agent-item"
              data-agent-id={agent.id}
              onClick={() => onSelect(agent.id)}
            >
              {agent.name || agent.id}
            </button>
          </li>
        ))}
      </ul>
      <form className="create-agent" onSubmit={create}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="demo agent" data-testid="agent-name" />
        </label>
        <label>
          Model
          <select value={chosen} onChange={(e) => setModel(e.target.value)} data-testid="agent-model">
            {catalog.map((entry) => (
              <option key={entry.handle} value={entry.handle}>
                {entry.label || entry.handle}
              </option>
            ))}
          </select>
          {isOfflineModel(chosen) ? <span className="muted small">the offline scripted demo model (not an AI)</span> : null}
        </label>
        <button type="submit" disabled={disabled || busy || chosen === ""} data-testid="create-agent">
          {busy ? "Creating…" : "Create agent"}
        </button>
        {error ? <p role="alert" className="error-text">{error}</p> : null}
      </form>
    </section>
  );
}
