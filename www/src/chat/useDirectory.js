// Agents and the model catalog (for new agents), through the client's management facades.
import { useCallback, useEffect, useState } from "react";

export function useDirectory(client) {
  const [agents, setAgents] = useState([]);
  const [catalog, setCatalog] = useState([]);
  const [error, setError] = useState(null);

  const refresh = useCallback(async () => {
    if (client === null) return;
    try {
      setAgents((await client.agents.list({ limit: 100 })) ?? []);
      setError(null);
    } catch (caught) {
      setError(`Could not list agents: ${caught.message}`);
    }
  }, [client]);

  useEffect(() => {
    if (client === null) return;
    refresh();
    client.models.list({ force: true }).then(
      (result) => setCatalog(result?.entries ?? []),
      (caught) => setError(`Could not list models: ${caught.message}`),
    );
  }, [client, refresh]);

  const createAgent = useCallback(
    async ({ name, model }) => {
      const agentId = await client.createAgent({ name: name || undefined, model: model || undefined, memfs: false });
      await refresh();
      return agentId;
    },
    [client, refresh],
  );

  const listConversations = useCallback(
    async (agentId) => (await client.conversations.list({ agentId, limit: 50, order: "desc" })) ?? [],
    [client],
  );

  return { agents, catalog, error, refresh, createAgent, listConversations };
}
