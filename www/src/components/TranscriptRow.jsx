// One accumulator row, memoized on the row object (unchanged rows keep their identity).
import { memo } from "react";
import { AssistantMessage } from "./AssistantMessage.jsx";
import { Reasoning } from "./Reasoning.jsx";
import { ToolCard } from "./ToolCard.jsx";
import { UserMessage } from "./UserMessage.jsx";
import { withoutSystemReminders } from "../chat/text.js";

export const TranscriptRow = memo(function TranscriptRow({ row, waiting }) {
  switch (row.kind) {
    case "user": {
      const text = withoutSystemReminders(row.text);
      return text === "" ? null : <UserMessage text={text} rowKey={row.key} />;
    }
    case "assistant":
      return <AssistantMessage text={row.text} rowKey={row.key} />;
    case "reasoning":
      return <Reasoning text={row.text} rowKey={row.key} />;
    case "tool_call":
      return <ToolCard row={row} waiting={waiting} />;
    default:
      return null;
  }
});
