// The demo app: connection state, agents and their conversations on the left, the open
// conversation on the right. The open agent and conversation live in the URL hash, so a reload
// resumes the conversation (with its history).
import { useCallback, useEffect, useState } from "react";
import { AgentPanel } from "./components/AgentPanel.jsx";
import { ChatPanel } from "./components/ChatPanel.jsx";
import { ConnectionStatus } from "./components/ConnectionStatus.jsx";
import { ConversationPanel } from "./components/ConversationPanel.jsx";
import { useChat } from "./chat/useChat.js";
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
  const [chat, controller] = useChat(client);
  const directory = useDirectory(client);
  const [agentId, setAgentId] = useState(() => readHash().agentId);
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

  const open = useCallback(
    async (target) => {
      if (controller === null) return;
      const info = await controller.open(target);
      if (info) {
        setAgentId(info.agentId);
        writeHash({ agentId: info.agentId, conversationId: info.conversationId });
        loadConversations(info.agentId);
      }
    },
    [controller, loadConversations],
  );

  // On load (and when the connection comes back): resume what the URL names.
  useEffect(() => {
    if (controller === null) return;
    const { agentId: fromHash, conversationId } = readHash();
    if (conversationId) open({ conversationId });
    else if (fromHash) loadConversations(fromHash);
  }, [controller, open, loadConversations]);

  const selectAgent = (id) => {
    setAgentId(id);
    writeHash({ agentId: id });
    loadConversations(id);
  };

  const createAgent = async (options) => {
    const id = await directory.createAgent(options);
    setAgentId(id);
    // Creating an agent also creates its first conversation: open that one.
    const [first] = await listConversations(id).catch(() => []);
    await open(first ? { conversationId: first.id } : { agentId: id });
  };

  const connected = client !== null && controller !== null;
  return (
    <div className="app">
      <header className="top">
        <h1>letta-agent-wasm demo</h1>
        <ConnectionStatus connection={connection} chatStatus={chat.status} chatError={chat.error} onRetry={chat.conversationId ? () => open({ conversationId: chat.conversationId }) : retry} />
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
              currentId={chat.conversationId}
              onNew={() => open({ agentId })}
              onResume={(conversationId) => open({ conversationId })}
              disabled={!connected || chat.status === "connecting"}
            />
          ) : null}
        </aside>
        <ChatPanel chat={chat} controller={controller} />
      </div>
    </div>
  );
}
