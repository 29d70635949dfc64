// React access to a ChatController: one per client, disposed with it.
import { useEffect, useState, useSyncExternalStore } from "react";
import { ChatController } from "./controller.js";

const IDLE = { status: "idle", rows: [], extras: [], approvals: [], queue: [], models: [], busy: 0 };
const noop = () => () => {};

export function useChat(client) {
  const [controller, setController] = useState(null);
  useEffect(() => {
    if (client === null) return undefined;
    const created = new ChatController(client);
    setController(created);
    return () => {
      created.dispose();
      setController(null);
    };
  }, [client]);
  const state = useSyncExternalStore(controller?.subscribe ?? noop, controller?.getSnapshot ?? (() => IDLE));
  return [state, controller];
}
