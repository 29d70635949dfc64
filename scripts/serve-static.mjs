#!/usr/bin/env node
// A small static file server for the demo page and the browser tests. Loopback only.
//
//   node scripts/serve-static.mjs <root> [--port 0] [--ttl-s N]
// Prints `serving http://127.0.0.1:<port>/` once listening. Serves .wasm as application/wasm
// (needed by WebAssembly.instantiateStreaming) and never lists directories. Other scripts use
// `staticHandler(root)` to serve files from their own servers.
import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** A request handler serving the files under `root` (404 for anything else). */
export function staticHandler(root) {
  const base = resolve(root);
  return (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let path = normalize(join(base, decodeURIComponent(url.pathname)));
    if (path !== base && !path.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(path).isDirectory()) path = join(path, "index.html");
      const size = statSync(path).size;
      res.writeHead(200, {
        "content-type": TYPES[extname(path)] ?? "application/octet-stream",
        "content-length": size,
        "cache-control": "no-store",
      });
      createReadStream(path).pipe(res);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const root = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")) ?? ".";
  const ttl = Number(option("--ttl-s", "0"));
  const server = createServer(staticHandler(root));
  server.listen(Number(option("--port", "0")), "127.0.0.1", () => {
    console.log(`serving http://127.0.0.1:${server.address().port}/`);
  });
  if (ttl > 0) setTimeout(() => process.exit(0), ttl * 1000).unref();
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
}
