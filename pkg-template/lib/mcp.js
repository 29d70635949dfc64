// SDK-hosted MCP servers (`mcpServers`, spec §1.4): connects each configured server with the
// official MCP client, lists its tools and hosts them as SDK tools named
// `mcp__<server>__<tool>`. Loaded lazily by session.js (dynamic import) only when a session has
// `mcpServers`, so the browser bundle does not carry the MCP client otherwise.
//
// Failures stay with their server: one that fails to start contributes no tools, and one that
// dies mid-session makes its own tools answer `isError` while the session goes on.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// The small, eval-free validator (the default one compiles schemas with `new Function`, which
// browsers with a content security policy refuse, and weighs several times more).
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { invalidArgument, LettaUnsupportedError } from "./errors.js";
import { isNonEmptyString, isObject } from "./values.js";

const shown = (value) => (typeof value === "string" ? value : "?");
const stringList = (value) => Array.isArray(value) && value.every((item) => typeof item === "string");
const stringRecord = (value) => isObject(value) && Object.values(value).every((item) => typeof item === "string");

/**
 * `mcpServers` (§1.4): a record keyed by server name of `{type?: "stdio", command, args?, env?,
 * cwd?}` or `{type: "http" | "sse", url, headers?}`. Returns `[{name, ...entry}]` with `type` filled.
 */
export function mcpServerConfigs(value) {
  if (!isObject(value)) throw invalidArgument("Invalid mcpServers. Expected an object keyed by server name.");
  return Object.entries(value).map(([name, entry]) => {
    const where = `Invalid mcpServers.${name}`;
    if (!isNonEmptyString(name)) throw invalidArgument("Invalid mcpServers. Expected an object keyed by server name.");
    if (!isObject(entry)) throw invalidArgument(`${where}. Expected a server configuration object.`);
    const type = entry.type ?? "stdio";
    if (type === "stdio") {
      if (!isNonEmptyString(entry.command)) throw invalidArgument(`${where}.command. Expected a non-empty string.`);
      if (entry.args != null && !stringList(entry.args)) {
        throw invalidArgument(`${where}.args. Expected an array of strings.`);
      }
      if (entry.env != null && !stringRecord(entry.env)) throw invalidArgument(`${where}.env. Expected a string record.`);
      if (entry.cwd != null && !isNonEmptyString(entry.cwd)) throw invalidArgument(`${where}.cwd. Expected a non-empty string.`);
      return { name, type, command: entry.command, args: entry.args ?? [], env: entry.env, cwd: entry.cwd };
    }
    if (type === "http" || type === "sse") {
      let url;
      try {
        url = new URL(entry.url);
      } catch {
        throw invalidArgument(`${where}.url. Expected an http(s) URL.`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw invalidArgument(`${where}.url. Expected an http(s) URL.`);
      }
      if (entry.headers != null && !stringRecord(entry.headers)) {
        throw invalidArgument(`${where}.headers. Expected a string record.`);
      }
      return { name, type, url: url.href, headers: entry.headers };
    }
    throw invalidArgument(`${where}.type '${shown(type)}'. Valid values: stdio, http, sse.`);
  });
}


const CLIENT_INFO = { name: "letta-agent-wasm", version: "0.0.0" };

/** Thrown for a stdio server where no child process can be started. */
export function stdioUnavailable(name) {
  return new LettaUnsupportedError(
    `mcpServers.${name}: stdio MCP servers need Node.js (they run a child process); use type "http" or "sse" in a browser or React Native.`,
  );
}

async function transportFor(server, loadStdio) {
  if (server.type === "stdio") {
    const { StdioClientTransport, getDefaultEnvironment } = await loadStdio();
    return new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: server.env === undefined ? undefined : { ...getDefaultEnvironment(), ...server.env },
      cwd: server.cwd,
      stderr: "ignore",
    });
  }
  const requestInit = server.headers === undefined ? undefined : { headers: server.headers };
  return server.type === "sse"
    ? new SSEClientTransport(new URL(server.url), { requestInit })
    : new StreamableHTTPClientTransport(new URL(server.url), { requestInit });
}

/** Text of an MCP content item that is neither text nor image (resources, audio, links). */
function describe(item) {
  if (item.type === "resource" && typeof item.resource?.text === "string") return item.resource.text;
  if (item.type === "resource_link") return `${item.name ?? "resource"}: ${item.uri}`;
  return JSON.stringify(item);
}

/** An MCP `CallToolResult` as an SDK tool result (`{content: [{type: "text"|"image", …}], isError?}`). */
export function toolResult(result) {
  const content = [];
  for (const item of Array.isArray(result?.content) ? result.content : []) {
    if (item?.type === "text") content.push({ type: "text", text: String(item.text ?? "") });
    else if (item?.type === "image") content.push({ type: "image", data: item.data, mimeType: item.mimeType });
    else content.push({ type: "text", text: describe(item) });
  }
  if (content.length === 0 && result?.structuredContent !== undefined) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  return result?.isError === true ? { content, isError: true } : { content };
}

const failure = (text) => ({ content: [{ type: "text", text }], isError: true });
const messageOf = (error) => (error instanceof Error ? error.message : String(error));
/**
 * An authorization challenge (a 401, or the reference's rule: the MCP client's
 * `UnauthorizedError` or a message that says so): such a server `needs-auth` rather than `failed`.
 */
const needsAuth = (error) =>
  error instanceof Error &&
  (/** @type {{code?: unknown}} */ (error).code === 401 ||
    error.name === "UnauthorizedError" ||
    /\b(unauthorized|authorization[_ -]required|needs[_ -]auth)\b/i.test(error.message));

/** One connected server. */
class Connection {
  constructor(config, loadStdio) {
    this.config = config;
    this.loadStdio = loadStdio;
    /** @type {Client | null} */
    this.client = null;
    this.transport = null;
    this.down = null; // why the server is unusable, once it is
    this.tools = []; // the hosted names of its tools
    this.authorization = false; // it failed to start on an authorization challenge
  }

  /** `{name, status, tools, error?}` (`McpServerStatus`): `connected` until it is down. */
  status() {
    const { name } = this.config;
    if (this.down === null) return { name, status: "connected", tools: [...this.tools] };
    return { name, status: this.authorization ? "needs-auth" : "failed", tools: [...this.tools], error: this.down };
  }

  async start() {
    this.transport = await transportFor(this.config, this.loadStdio);
    const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    client.onclose = () => {
      this.down ??= `MCP server "${this.config.name}" is no longer connected.`;
    };
    client.onerror = () => {};
    await client.connect(this.transport);
    this.client = client;
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async call(tool, args, signal) {
    if (this.down !== null) return failure(this.down);
    try {
      return toolResult(await /** @type {Client} */ (this.client).callTool({ name: tool, arguments: args ?? {} }, undefined, { signal }));
    } catch (error) {
      return failure(`MCP server "${this.config.name}" failed on ${tool}: ${messageOf(error)}`);
    }
  }

  async close() {
    this.down ??= `MCP server "${this.config.name}" is closed.`;
    const transport = this.transport;
    if (transport === null) return;
    // Streamable HTTP: end the server-side session (DELETE) before dropping the connection.
    if (typeof transport.terminateSession === "function" && transport.sessionId !== undefined) {
      await transport.terminateSession().catch(() => {});
    }
    await (this.client ?? transport).close().catch(() => {});
  }
}

/**
 * The MCP servers of one session. `start()` connects them all (in parallel) and returns the
 * tool definitions to register plus an executor per tool name; `close()` ends them.
 */
export class McpServers {
  #connections;
  #closed = false;
  #canSpawn;

  /**
   * `loadStdio`: imports the stdio transport's module; only the Node loader has one
   * (node/load.js), so that no bundler for a browser or React Native meets that import (Metro
   * follows any `import()` it can evaluate, even with a constant specifier, and fails the build
   * on the transport's Node imports). `null` where no child process can run.
   */
  constructor(configs, loadStdio) {
    this.#canSpawn = loadStdio !== null;
    this.#connections = configs.map((config) => new Connection(config, loadStdio));
    /** `{server, error}` for each server that failed to start (its tools are absent). */
    this.failures = [];
    /** The hosted tools' names (after `start()`). @type {string[]} */
    this.names = [];
  }

  async start() {
    const stdio = this.#connections.find((connection) => connection.config.type === "stdio");
    // A stdio entry where no process can run is the caller's mistake: fail before starting any.
    if (stdio !== undefined && !this.#canSpawn) throw stdioUnavailable(stdio.config.name);
    const definitions = [];
    const executors = new Map();
    const started = await Promise.allSettled(this.#connections.map((connection) => connection.start()));
    started.forEach((outcome, i) => {
      const connection = this.#connections[i];
      const server = connection.config.name;
      if (outcome.status === "rejected") {
        connection.down = `MCP server "${server}" failed to start: ${messageOf(outcome.reason)}`;
        connection.authorization = needsAuth(outcome.reason);
        this.failures.push({ server, error: connection.down });
        return;
      }
      for (const tool of outcome.value) {
        const name = `mcp__${server}__${tool.name}`;
        connection.tools.push(name);
        definitions.push({
          name,
          label: tool.title ?? tool.annotations?.title ?? tool.name,
          description: tool.description ?? "",
          parameters: tool.inputSchema ?? { type: "object", properties: {} },
        });
        executors.set(name, (toolCallId, args, signal) => connection.call(tool.name, args, signal));
      }
    });
    if (this.#closed) await this.close();
    this.names = definitions.map((tool) => tool.name);
    return { definitions, executors };
  }

  /** Each server's status, in configuration order (`session.mcpServerStatus()`). */
  statuses() {
    return this.#connections.map((connection) => connection.status());
  }

  /** Adds the MCP tool names to the init message's `tools` (spec §1.5). */
  listTools(info) {
    info.tools = [...new Set([...(info.tools ?? []), ...this.names])];
  }

  /** Ends every server: child processes stop, HTTP sessions are terminated. Idempotent. */
  async close() {
    this.#closed = true;
    await Promise.all(this.#connections.map((connection) => connection.close()));
  }
}

/**
 * Validates `mcpServers`, connects the servers and adds their tools to the session's
 * `options.tools` (definitions) and `callbacks.executors` (by name). Returns the `McpServers`
 * to close with the session. `loadStdio`: see `McpServers`.
 */
export async function startMcp(mcpServers, options, callbacks, loadStdio) {
  const servers = new McpServers(mcpServerConfigs(mcpServers), loadStdio);
  try {
    const hosted = await servers.start();
    options.tools.push(...hosted.definitions);
    for (const [name, execute] of hosted.executors) callbacks.executors.set(name, execute);
  } catch (error) {
    await servers.close();
    throw error;
  }
  return servers;
}
