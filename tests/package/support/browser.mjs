// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, and a loopback
// test server that serves the scratch project's files and proxies `/ws` to an app server,
// dropping the browser's Origin and adding the Authorization header (test infrastructure;
// browsers cannot send that header themselves).
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import WebSocket, { WebSocketServer } from "ws";

const repoRoot = resolve(process.env.LETTA_REPO_ROOT ?? "../..");

const { launchChromium } = await import(pathToFileURL(join(repoRoot, "tests", "support", "chromium.mjs")).href);

/** Launches headless Chromium with the flags this sandbox needs (and a fresh, empty profile). */
export function launchBrowser() {
  return launchChromium(chromium);
}

/** Serves `root` over HTTP on 127.0.0.1 and proxies `/ws` to `upstream` (if given). */
export async function startTestServer(root, upstream) {
  const { staticHandler } = await import(pathToFileURL(join(repoRoot, "scripts", "serve-static.mjs")).href);
  const server = createServer(staticHandler(root));
  const sockets = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    if (!upstream || new URL(req.url, "http://x").pathname !== "/ws") {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(req, socket, head, (browserSide) => {
      const serverSide = new WebSocket(upstream.url, { headers: { Authorization: `Bearer ${upstream.token}` } });
      const queued = [];
      browserSide.on("message", (data, binary) => {
        if (serverSide.readyState === WebSocket.OPEN) serverSide.send(data, { binary });
        else queued.push([data, binary]);
      });
      serverSide.on("open", () => {
        for (const [data, binary] of queued.splice(0)) serverSide.send(data, { binary });
      });
      serverSide.on("message", (data, binary) => browserSide.send(data, { binary }));
      const closeBoth = () => {
        browserSide.close();
        serverSide.close();
      };
      browserSide.on("close", closeBoth);
      serverSide.on("close", closeBoth);
      serverSide.on("error", closeBoth);
    });
  });
  await new Promise((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async close() {
      for (const client of sockets.clients) client.terminate();
      await new Promise((resolveClose) => server.close(resolveClose));
    },
  };
}
