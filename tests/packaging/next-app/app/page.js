// A server component page around the client component that holds the chat.
import { Chat } from "./chat.js";

export default function Page() {
  return (
    <main>
      <h1>Chat</h1>
      <Chat />
    </main>
  );
}
