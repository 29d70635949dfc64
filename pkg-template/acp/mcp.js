// MCP servers an editor passes in ACP's `session/new` / `session/load` (`mcpServers`: stdio
// `{name, command, args, env: [{name, value}]}`, or `{type: "http" | "sse", name, url,
// headers: [{name, value}]}`) as the session option of the same name (a record keyed by server
// name), so the session hosts their tools as `mcp__<name>__<tool>`.

const record = (pairs) => (Array.isArray(pairs) ? Object.fromEntries(pairs.map(({ name, value }) => [name, String(value)])) : undefined);

/** The `mcpServers` session option for ACP's list; `undefined` when the list is empty. */
export function mcpServersOption(list) {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const servers = {};
  for (const server of list) {
    if (server?.type === "http" || server?.type === "sse") {
      servers[server.name] = { type: server.type, url: server.url, headers: record(server.headers) };
    } else {
      servers[server?.name] = { type: "stdio", command: server?.command, args: server?.args ?? [], env: record(server?.env) };
    }
  }
  return servers;
}
