// The LettaAgentClient of the page, on the backend the relay that served it fronts
// (backend.js): the relay holds the app server's token or the Cloud API key, so the page has
// none. The relay's ticket cookie (required on its sockets and, in Cloud mode, on REST calls)
// is refreshed before it expires, so that new sockets and calls keep working.
import { LettaAgentClient } from "letta-agent-wasm/client";
import { useCallback, useEffect, useState } from "react";
import { clientOptions, describeBackend } from "./backend.js";

/** Refreshes the relay's ticket cookie before it expires (the relay answers GET /ticket). */
function keepTicketFresh() {
  let timer = null;
  let stopped = false;
  const refresh = async () => {
    clearTimeout(timer);
    try {
      const response = await fetch("/ticket", { credentials: "same-origin", cache: "no-store" });
      if (!response.ok || stopped) return; // not behind the relay (e.g. a dev proxy): nothing to refresh
      const { expiresAt } = await response.json();
      const wait = Math.max(5_000, Math.min((expiresAt - Date.now()) / 2, 10 * 60_000));
      timer = setTimeout(refresh, wait);
    } catch {
      if (!stopped) timer = setTimeout(refresh, 15_000);
    }
  };
  const onVisible = () => document.visibilityState === "visible" && refresh();
  document.addEventListener("visibilitychange", onVisible);
  refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener("visibilitychange", onVisible);
  };
}

/**
 * `{client, connection: {state, detail, backend}, retry}` for `backend` ("remote" or "cloud");
 * state is connecting | connected | failed.
 */
export function useClient(backend = "remote") {
  const [client, setClient] = useState(null);
  const [connection, setConnection] = useState({ state: "connecting", detail: "", backend });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => keepTicketFresh(), []);

  useEffect(() => {
    const created = new LettaAgentClient(clientOptions(backend));
    const detail = describeBackend(backend);
    let live = true;
    setConnection({ state: "connecting", detail, backend });
    created.agents.list({ limit: 1 }).then(
      () => live && (setClient(created), setConnection({ state: "connected", detail, backend })),
      (error) => live && setConnection({ state: "failed", detail: error.message, backend }),
    );
    return () => {
      live = false;
      setClient(null);
      created.close();
    };
  }, [attempt, backend]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { client, connection, retry };
}
