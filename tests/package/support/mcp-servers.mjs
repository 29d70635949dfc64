// Real MCP servers from npm for the package tests:
// - `@modelcontextprotocol/server-everything` (its own tool set) served over Streamable HTTP on
//   127.0.0.1 by this process, with the MCP SDK's server transport (the package's own HTTP
//   launcher binds every interface, which tests must not do); CORS is open so that a page can
//   reach it from another loopback port;
// - `@modelcontextprotocol/server-filesystem` as a stdio command (the session starts it).
import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer as createEverything } from "@modelcontextprotocol/server-everything/dist/server/index.js";

const require = createRequire(import.meta.url);

/** The stdio entry of the filesystem server, confined to `dir`. */
export function filesystemServer(dir) {
  return { command: process.execPath, args: [require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"), dir] };
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id",
  "access-control-expose-headers": "mcp-session-id, mcp-protocol-version",
};

/**
 * Starts server-everything over Streamable HTTP at `<url>` (`/mcp`). Returns `{url, opened,
 * terminated, close()}`: the session ids opened and those a client ended with DELETE.
 */
export async function startEverythingHttp() {
  const sessions = new Map();
  const opened = [];
  const terminated = [];
  const http = createServer(async (req, res) => {
    for (const [key, value] of Object.entries(CORS)) res.setHeader(key, value);
    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    if (new URL(req.url, "http://127.0.0.1").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const id = req.headers["mcp-session-id"];
    let session = typeof id === "string" ? sessions.get(id) : undefined;
    if (session === undefined) {
      if (req.method !== "POST" || id !== undefined) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "unknown session" }));
        return;
      }
      const { server, cleanup } = createEverything();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, session);
          opened.push(sessionId);
        },
      });
      session = { server, transport, cleanup };
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
        cleanup?.();
      };
      await server.connect(transport);
    }
    if (req.method === "DELETE" && typeof id === "string") terminated.push(id);
    await session.transport.handleRequest(req, res);
  });
  await new Promise((done) => http.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    opened,
    terminated,
    async close() {
      for (const { transport } of sessions.values()) await transport.close().catch(() => {});
      http.closeAllConnections?.();
      await new Promise((done) => http.close(done));
    },
  };
}

/** Pids of this process's live direct children (from /proc: Linux). */
export function childPids() {
  const pids = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(ppid) === process.pid && state !== "Z") pids.push(Number(name));
  }
  return pids;
}

/** True while `pid` runs. */
export function isRunning(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Waits until `predicate()` holds (polling), at most `ms`; returns its last value. */
export async function waitFor(predicate, ms = 10_000) {
  const deadline = Date.now() + ms;
  let value = predicate();
  while (!value && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
    value = predicate();
  }
  return value;
}
