// The demo app: connection state, agents and their conversations on the left, the open
// conversation on the right. The open agent and conversation live in the URL hash, so a reload
// resumes the conversation (with its history). The conversation itself is a chat store
// (`useLettaChat` from letta-agent-wasm/react, inside ChatPanel).
import { useCallback, useEffect, useState } from "react";
import { AgentPanel } from "./components/AgentPanel.jsx";
import { ChatPanel } from "./components/ChatPanel.jsx";
import { ConnectionStatus } from "./components/ConnectionStatus.jsx";
import { ConversationPanel } from "./components/ConversationPanel.jsx";
import { useClient } from "./chat/useClient.js";
import { useDirectory } from "./chat/useDirectory.js";

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { agentId: params.get("agent"), conversationId: params.get("conversation") };
}

function writeHash({ agentId, conversationId }) {
  const params = new URLSearchParams();
  if (agentId) params.set("agent", agentId);
  if (conversationId) params.set("conversation", conversationId);
  history.replaceState(null, "", `#${params}`);
}

export function App({ backend = "remote" }) {
  const { client, connection, retry } = useClient(backend);
  const directory = useDirectory(client);
  const [agentId, setAgentId] = useState(() => readHash().agentId);
  // What the chat opens: `{agentId}` (a new conversation) or `{conversationId}`; `opened`
  // counts the openings, so that opening a new conversation of the same agent makes a new chat.
  const [target, setTarget] = useState(() => {
    const { conversationId } = readHash();
    return conversationId ? { conversationId, opened: 0 } : null;
  });
  const [conversations, setConversations] = useState([]);
  const { listConversations } = directory;

  const loadConversations = useCallback(
    async (id) => {
      if (!id) return setConversations([]);
      try {
        setConversations(await listConversations(id));
      } catch {
        setConversations([]);
      }
    },
    [listConversations],
  );

  useEffect(() => {
    if (client !== null && agentId) loadConversations(agentId);
  }, [client, agentId, loadConversations]);

  const open = (next) => setTarget((current) => ({ ...next, opened: (current?.opened ?? 0) + 1 }));

  /** The chat knows its conversation: name it in the URL and the list. */
  const onOpened = useCallback(
    (info) => {
      setAgentId(info.agentId);
      writeHash(info);
      loadConversations(info.agentId);
    },
    [loadConversations],
  );

  const selectAgent = (id) => {
    setAgentId(id);
    writeHash({ agentId: id });
  };

  const createAgent = async (options) => {
    const id = await directory.createAgent(options);
    setAgentId(id);
    // Creating an agent also creates its first conversation: open that one.
    const [first] = await listConversations(id).catch(() => []);
    open(first ? { conversationId: first.id } : { agentId: id });
  };

  const connected = client !== null;
  return (
    <div className="app">
      <header className="top">
        <h1>letta-agent-wasm demo</h1>
        <ConnectionStatus connection={connection} onRetry={retry} />
        <nav>
          <a href="./replay.html">Recorded replay (works without a server)</a>
        </nav>
      </header>
      {directory.error ? (
        <p role="alert" className="error-text">
          {directory.error}
        </p>
      ) : null}
      <div className="layout">
        <aside>
          <AgentPanel agents={directory.agents} catalog={directory.catalog} selectedId={agentId} onSelect={selectAgent} onCreate={createAgent} disabled={!connected} />
          {agentId ? (
            <ConversationPanel
              conversations={conversations}
              currentId={target?.conversationId ?? null}
              onNew={() => open({ agentId })}
              onResume={(conversationId) => open({ conversationId })}
              disabled={!connected}
            />
          ) : null}
        </aside>
        {connected && target ? (
          <ChatPanel key={target.opened} client={client} target={target} onOpened={onOpened} />
        ) : (
          <main className="chat">
            <p className="muted">Create or pick an agent, then open a conversation.</p>
          </main>
        )}
      </div>
    </div>
  );
}
