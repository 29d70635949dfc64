// The open conversation: header (id, turn state, model), transcript, approval, queue, composer.
// Its state is a chat store (`useLettaChat`): rows (the user's own included), approvals, the
// server's queue and the latest turn's result.
import { useEffect, useState } from "react";
import { useLettaChat } from "letta-agent-wasm/react";
import { ApprovalPrompt } from "./ApprovalPrompt.jsx";
import { ChatStatus } from "./ChatStatus.jsx";
import { Composer } from "./Composer.jsx";
import { ModelPicker } from "./ModelPicker.jsx";
import { OfflineModelNotice } from "./OfflineModelNotice.jsx";
import { QueuedMessages } from "./QueuedMessages.jsx";
import { Transcript } from "./Transcript.jsx";
import { isOfflineModel } from "../chat/text.js";

const BUSY = new Set(["streaming", "awaiting-approval"]);

/** The models to pick from and the conversation's own, through the chat's session. */
function useModels(session, ready) {
  const [models, setModels] = useState([]);
  const [model, setModel] = useState(null);
  useEffect(() => {
    if (session === null || !ready) return;
    let live = true;
    session.ready().then((info) => live && setModel((current) => current ?? info.model ?? null));
    session.listModels().then(({ entries = [] }) => live && setModels(entries), () => {});
    return () => {
      live = false;
    };
  }, [session, ready]);
  const change = async (handle) => {
    const applied = await session.updateModel(handle);
    setModel(applied?.modelHandle ?? handle);
  };
  return { models, model, change };
}

export function ChatPanel({ client, target, onOpened }) {
  const chat = useLettaChat({ client, agentId: target.agentId, conversationId: target.conversationId });
  const open = chat.status !== "connecting" && chat.status !== "error" && chat.status !== "closed";
  const { models, model, change } = useModels(chat.session, open);
  const [problem, setProblem] = useState(null);
  const { agentId, conversationId } = chat;
  useEffect(() => {
    if (conversationId) onOpened({ agentId, conversationId });
  }, [agentId, conversationId, onOpened]);

  const busy = BUSY.has(chat.status);
  const approval = chat.approvals[0];
  const waitingFor = new Set(chat.approvals.map((a) => a.toolCallId).filter(Boolean));
  const synced = chat.status === "ready" && !chat.history.loading && chat.outbox.length === 0;
  return (
    <main className="chat" aria-labelledby="chat-heading">
      <div className="chat-head">
        <h2 id="chat-heading">{conversationId ? <span className="mono" data-testid="conversation-id">{conversationId}</span> : "Opening…"}</h2>
        <ChatStatus chat={chat} busy={busy} />
        <ModelPicker
          models={models}
          current={model}
          onChange={(handle) => change(handle).catch((error) => setProblem(`Could not switch the model: ${error.message}`))}
          disabled={!open}
        />
      </div>
      {isOfflineModel(model) ? <OfflineModelNotice /> : null}
      {chat.history.hasMore ? (
        <button type="button" className="link" onClick={chat.loadOlder} disabled={chat.history.loading}>
          Show older messages
        </button>
      ) : null}
      <Transcript chat={chat} waitingFor={waitingFor} synced={synced} problem={problem} />
      {approval ? <ApprovalPrompt approval={approval} /> : null}
      <QueuedMessages queue={chat.queue} />
      <Composer onSend={chat.send} onAbort={chat.stop} busy={busy} disabled={!open} />
    </main>
  );
}
