"use client";
// The chat, as an app writes it: a client made in the browser, then useLettaChat. On the server
// this renders the opening snapshot and opens nothing; in the browser the chat opens after
// hydration.
import { useEffect, useState } from "react";
import { LettaAgentClient, init } from "letta-agent-wasm/client";
import { useLettaChat } from "letta-agent-wasm/react";

function useClient() {
  const [client, setClient] = useState(null);
  useEffect(() => {
    let made = null;
    let live = true;
    init().then(() => {
      if (!live) return;
      made = new LettaAgentClient({ backend: "remote", url: new URLSearchParams(location.search).get("ws") });
      setClient(made);
    });
    return () => {
      live = false;
      made?.close();
    };
  }, []);
  return client;
}

export function Chat() {
  const client = useClient();
  const chat = useLettaChat(client ? { client, agentId: "agent-scripted" } : null);
  return (
    <section id="chat" data-status={chat.status} data-rows={chat.rows.length}>
      <ul>
        {chat.rows.map((row) => (
          <li key={row.key} data-kind={row.kind}>
            {row.text}
          </li>
        ))}
      </ul>
      <button type="button" disabled={chat.status !== "ready"} onClick={() => chat.send("hello deltas:20")}>
        Send
      </button>
    </section>
  );
}
