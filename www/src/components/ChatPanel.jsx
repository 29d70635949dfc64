// The open conversation: header (id, turn state, model), transcript, approval, queue, composer.
import { ApprovalPrompt } from "./ApprovalPrompt.jsx";
import { Composer } from "./Composer.jsx";
import { ModelPicker } from "./ModelPicker.jsx";
import { OfflineModelNotice } from "./OfflineModelNotice.jsx";
import { QueuedMessages } from "./QueuedMessages.jsx";
import { Transcript } from "./Transcript.jsx";
import { isOfflineModel } from "../chat/text.js";

const LOOP_LABELS = {
  SENDING_API_REQUEST: "asking the model…",
  WAITING_FOR_API_RESPONSE: "waiting for the model…",
  PROCESSING_API_RESPONSE: "receiving…",
  WAITING_ON_APPROVAL: "waiting for your approval",
  EXECUTING_CLIENT_SIDE_TOOL: "running a tool…",
  WAITING_ON_INPUT: "idle",
};

function turnLabel(chat) {
  if (chat.status === "connecting") return "opening…";
  if (chat.status !== "ready") return chat.status;
  if (chat.busy === 0) return "idle";
  return LOOP_LABELS[chat.loopStatus] ?? "working…";
}

export function ChatPanel({ chat, controller }) {
  const ready = chat.status === "ready";
  const waitingFor = new Set(chat.approvals.map((a) => a.toolCallId).filter(Boolean));
  const approval = chat.approvals[0];
  return (
    <main className="chat" aria-labelledby="chat-heading">
      <div className="chat-head">
        <h2 id="chat-heading">
          {chat.conversationId ? <span className="mono" data-testid="conversation-id">{chat.conversationId}</span> : "No conversation open"}
        </h2>
        <span className="turn" data-testid="turn-state" data-busy={chat.busy > 0} data-status={chat.status}>
          {turnLabel(chat)}
        </span>
        <ModelPicker models={chat.models} current={chat.model} onChange={(handle) => controller?.setModel(handle)} disabled={!ready} />
      </div>
      {isOfflineModel(chat.model) ? <OfflineModelNotice /> : null}
      {chat.hasMore ? <p className="muted small">Older messages are not shown.</p> : null}
      <Transcript rows={chat.rows} extras={chat.extras} waitingFor={waitingFor} status={chat.status} synced={chat.synced} />
      {approval ? <ApprovalPrompt approval={approval} onAnswer={(id, allow) => controller?.answerApproval(id, allow)} /> : null}
      <QueuedMessages queue={chat.queue} onRemove={(item) => controller?.removeQueued(item)} />
      <Composer
        onSend={(text) => controller?.send(text)}
        onAbort={() => controller?.abort()}
        busy={chat.busy > 0}
        disabled={!ready}
      />
    </main>
  );
}
