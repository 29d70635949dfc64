// A chat page on `letta-agent-wasm/react` (`useLettaChat`) under StrictMode, measured by
// vite-react.test.mjs: React commits during a streamed reply (Profiler), animation frames in the
// same window, each row's renders (rows are memoized by identity), and the whole app unmounted.
// The app server is the scripted one of support/chat-server.mjs, named by `?ws=`.
import { Profiler, StrictMode, memo } from "react";
import { createRoot } from "react-dom/client";
import { LettaAgentClient, init } from "letta-agent-wasm/client";
import { useLettaChat } from "letta-agent-wasm/react";

const stats = { measuring: false, commits: 0, frames: 0, renders: {} };
window.__chatStats = stats;

/** Counts animation frames while measuring. */
function countFrames() {
  if (!stats.measuring) return;
  stats.frames += 1;
  requestAnimationFrame(countFrames);
}
window.__measure = (on) => {
  if (on) Object.assign(stats, { measuring: true, commits: 0, frames: 0 });
  else stats.measuring = false;
  if (on) requestAnimationFrame(countFrames);
};

const Row = memo(function Row({ row }) {
  stats.renders[row.key] = (stats.renders[row.key] ?? 0) + 1;
  return (
    <li data-key={row.key} data-kind={row.kind}>
      {row.text}
    </li>
  );
});

function Chat({ client }) {
  const chat = useLettaChat({ client, agentId: "agent-scripted" });
  window.__chat = chat;
  return (
    <div id="chat" data-status={chat.status} data-rows={chat.rows.length}>
      <Profiler
        id="transcript"
        onRender={() => {
          if (stats.measuring) stats.commits += 1;
        }}
      >
        <ul>
          {chat.rows.map((row) => (
            <Row key={row.key} row={row} />
          ))}
        </ul>
      </Profiler>
    </div>
  );
}

await init();
const client = new LettaAgentClient({ backend: "remote", url: new URLSearchParams(location.search).get("ws") });
const root = createRoot(document.getElementById("app"));
root.render(
  <StrictMode>
    <Chat client={client} />
  </StrictMode>,
);
window.__unmount = () => root.unmount();
