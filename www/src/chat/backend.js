// Which backend the page uses, as the relay that served it says (GET /relay-config):
// "remote" — the app server's WebSocket at ws://<this host>/ws — or "cloud" — Letta Cloud's
// REST API and status sockets under /v1/ of this origin. In both cases the relay holds the
// secret (the app server's token, the Cloud API key) and adds it upstream; the page has none.
// Without an answer (a dev server that does not proxy it) the page uses the remote backend.

export function relayUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

/** "remote" or "cloud", from the relay's /relay-config. */
export async function relayBackend() {
  try {
    const response = await fetch("/relay-config", { credentials: "same-origin", cache: "no-store" });
    if (response.ok && (await response.json()).backend === "cloud") return "cloud";
  } catch {
    // not behind the relay: the remote backend's defaults
  }
  return "remote";
}

/**
 * The LettaAgentClient options for `backend`. Cloud: no apiKey (the client then sends no
 * Authorization header); the relay adds the key to REST calls and to both status sockets.
 * `webSocketAuth: "query"` because a browser's WebSocket takes no headers (the client refuses
 * header mode there): the client then calls it with the URL alone, and with no key the URL
 * carries no token either.
 */
export function clientOptions(backend) {
  return backend === "cloud"
    ? { backend: "cloud", apiBaseUrl: location.origin, webSocketAuth: "query" }
    : { backend: "remote", url: relayUrl() };
}

/** Where the client connects, for the connection line. */
export function describeBackend(backend) {
  return backend === "cloud" ? `Letta Cloud through the relay at ${location.origin}` : relayUrl();
}
