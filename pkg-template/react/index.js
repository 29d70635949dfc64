// React bindings of the chat store (`letta-agent-wasm/react`, issue 38). A thin layer, as
// zustand's React binding is over its vanilla store: `useLettaChat` makes a store in an effect
// (so that StrictMode's second mount and server rendering open no socket) and reads it with
// `useSyncExternalStore`; `useLettaChatStore` reads a store made elsewhere; `useLettaRuntime`
// adapts a chat to assistant-ui's external-store runtime. The store comes from the package's
// own `/client` entry, so it shares the module the app initialised. (No "use client" here: the
// app's component that calls the hooks is the client component.)

import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { createChat } from "letta-agent-wasm/client";

const noop = () => Promise.resolve();
/** What a component sees before its store exists (first render, and on the server). */
const OPENING = Object.freeze({
  status: "connecting",
  agentId: null,
  conversationId: null,
  rows: Object.freeze([]),
  approvals: Object.freeze([]),
  queue: Object.freeze([]),
  outbox: Object.freeze([]),
  error: null,
  connection: "connecting",
  history: Object.freeze({ hasMore: false, loading: false }),
  lastResult: null,
  session: null,
  send: noop,
  stop: noop,
  loadOlder: noop,
  retry: noop,
});
const opening = () => OPENING;
const subscribeNothing = () => () => {};

/**
 * The snapshot (with the actions) of a chat made from `options` (createChat's). The store is
 * made after the first render and disposed when the component unmounts or the conversation
 * changes (`client`, `agentId`, `conversationId` or `session`); other options are read once.
 * `null` options: no chat (the opening snapshot).
 */
export function useLettaChat(options) {
  const [chat, setChat] = useState(null);
  const latest = useRef(options);
  latest.current = options;
  const { client, agentId, conversationId, session } = options ?? {};
  useEffect(() => {
    if (latest.current == null) return undefined;
    const made = createChat(latest.current);
    setChat(made);
    return () => {
      made.dispose();
      setChat((current) => (current === made ? null : current));
    };
  }, [client, agentId, conversationId, session]);
  return useLettaChatStore(chat);
}

/** The snapshot of a store made elsewhere (`createChat()`), or `selector(snapshot)`. */
export function useLettaChatStore(chat, selector) {
  const snapshot = useSyncExternalStore(chat?.subscribe ?? subscribeNothing, chat?.getSnapshot ?? opening, opening);
  return selector ? selector(snapshot) : snapshot;
}

/** The text of a row's content parts, in assistant-ui's terms. */
function part(row) {
  if (row.kind === "tool_call") {
    const result = row.result;
    return {
      type: "tool-call",
      toolCallId: row.toolCallId,
      toolName: row.toolName,
      args: row.toolInput,
      argsText: row.rawArguments ?? JSON.stringify(row.toolInput ?? {}),
      ...(result ? { result: result.content, isError: result.isError } : {}),
    };
  }
  return { type: row.kind === "reasoning" ? "reasoning" : "text", text: row.text };
}

/**
 * The chat's rows as assistant-ui messages: each user row a user message, and the rows after
 * it (reasoning, text, tool calls) one assistant message with those parts.
 */
export function toThreadMessages(rows) {
  const messages = [];
  for (const row of rows) {
    if (row.kind === "user") {
      messages.push({ id: row.key, role: "user", content: [{ type: "text", text: row.text }] });
      continue;
    }
    const last = messages.at(-1);
    if (last?.role === "assistant") last.content.push(part(row));
    else messages.push({ id: row.key, role: "assistant", content: [part(row)] });
  }
  return messages;
}

/**
 * An `ExternalStoreAdapter` for assistant-ui (`useExternalStoreRuntime(useLettaRuntime(chat))`)
 * from a chat snapshot (`useLettaChat()`'s): its messages, whether a reply runs, sending and
 * stopping. Approvals stay in the snapshot (`chat.approvals`), for the app's own prompt.
 */
export function useLettaRuntime(chat) {
  const { rows, status, send, stop } = chat;
  const messages = useMemo(() => toThreadMessages(rows), [rows]);
  return useMemo(
    () => ({
      messages,
      isRunning: status === "streaming" || status === "awaiting-approval",
      convertMessage: (message) => message,
      onNew: async (message) => {
        const text = message.content
          .filter((content) => content.type === "text")
          .map((content) => content.text)
          .join("\n");
        if (text) await send(text);
      },
      onCancel: () => stop(),
    }),
    [messages, status, send, stop],
  );
}
