// A fault-injecting WebSocket proxy for the package tests (issue 11): it sits between the
// installed package and the real app server, on loopback, and relays every frame both ways
// with Node's `ws` (no framing of its own), optionally misbehaving in each direction:
//   - cut a connection after N frames (both sockets dropped without a close handshake, as a
//     lost hop or a recycled load balancer does; counting may start at a chosen frame);
//   - duplicate frames (each frame sent twice, at a rate);
//   - inject garbage frames before real ones (at a seeded rate: text that is not JSON, JSON that
//     is no frame, truncated and tail-spliced copies of the real frame, binary noise);
//   - delay frames (order is kept).
// Rates draw from a seeded generator, so a run can be repeated. The `Authorization` header of
// the client is passed upstream unchanged and never logged. The proxy stops by itself after
// `lifetimeMs`, and `stop()` ends every socket it opened.
import { WebSocket, WebSocketServer } from "ws";

/** Directions, as the options and the counters name them. */
export const TO_CLIENT = "toClient";
export const TO_SERVER = "toServer";

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One garbage frame, drawn with `random`, shaped after the real frame `text` it precedes. */
export function garbageFrame(random, text) {
  const pick = (n) => Math.floor(random() * n);
  switch (pick(6)) {
    case 0: {
      // Printable noise.
      const length = 1 + pick(80);
      return Array.from({ length }, () => String.fromCharCode(32 + pick(95))).join("");
    }
    case 1:
      // Valid JSON, but no usable frame.
      return ["null", "[]", "42", '"x"', "{}", '{"type":42}', '{"type":"stream_delta","delta":[1]}', '{"type":"turn_finished"}', '{"type":"control_request","request":7}', '{"type":"update_loop_status","loop_status":{"status":3}}'][pick(10)];
    case 2:
      // A strict prefix of the real frame: never a complete JSON object.
      return text.slice(0, pick(Math.max(1, text.length)));
    case 3: {
      // The real frame's tail (its event_seq and idempotency_key) after a broken head: must not
      // make the real frame look like a repeat.
      const tail = text.slice(Math.max(0, text.length - 160));
      return `{"type"::${tail}`;
    }
    case 4:
      // Binary noise (a binary message; often not UTF-8).
      return Buffer.from(Array.from({ length: 1 + pick(64) }, () => pick(256)));
    default:
      // Deep nesting (a stack bomb for a recursive parser).
      return "[".repeat(2000 + pick(20000));
  }
}

const wait = (ms) => new Promise((done) => setTimeout(done, ms));

/** The value of a per-direction option: a number, or `{toClient, toServer}`. */
function perDirection(option, direction) {
  if (option === undefined || option === null) return undefined;
  if (typeof option === "number" || typeof option === "function") return option;
  return option[direction];
}

/**
 * Starts the proxy in front of `target` (the app server's `ws://127.0.0.1:<port>/…` URL); its
 * `url` has the same path and query, and each connection goes to the same path upstream. Options (each fault either
 * one value for both directions or `{toClient, toServer}`):
 *   dropAfter   cut the connection once N frames went that way (counted from `countFrom`)
 *   cutOnly     `(index) => boolean`: only connections whose index (in opening order) passes
 *               are cut by `dropAfter` (read at each frame, so a test can move the target);
 *               every connection counts its frames (`connections[i].sent`) all the same
 *   countFrom   `(text, direction) => boolean`: counting for `dropAfter` starts on the first
 *               frame of a connection that matches (default: from its first frame)
 *   duplicate   rate in [0, 1] at which a frame is sent twice (1: every frame)
 *   garbage     rate in [0, 1] at which a garbage frame is injected before a frame
 *   delayMs     extra latency per frame: a number, or `[min, max]` drawn per frame
 *   seed        of the generator (default 1)
 *   lifetimeMs  the proxy stops by itself after this long (default 10 min)
 * Returns `{url, stats, connections, stop()}`; `stats` counts frames relayed, duplicated,
 * garbage sent and connections cut.
 */
export async function startFaultProxy(target, options = {}) {
  const random = seeded(options.seed ?? 1);
  const stats = { connections: 0, cut: 0, [TO_CLIENT]: 0, [TO_SERVER]: 0, duplicated: 0, garbage: 0 };
  const connections = [];
  const sockets = new Set();
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((ready, fail) => {
    server.once("listening", ready);
    server.once("error", fail);
  });
  const lifetime = setTimeout(() => stop(), options.lifetimeMs ?? 600_000);
  lifetime.unref();

  server.on("connection", (client, request) => {
    stats.connections += 1;
    const headers = request.headers.authorization ? { authorization: request.headers.authorization } : {};
    const upstream = new WebSocket(new URL(request.url, target).href, { headers });
    const connection = { index: connections.length, counting: { [TO_CLIENT]: false, [TO_SERVER]: false }, sent: { [TO_CLIENT]: 0, [TO_SERVER]: 0 }, cut: false };
    connections.push(connection);
    sockets.add(client);
    sockets.add(upstream);
    // Frames from the client before the upstream opened wait in order.
    const early = [];
    const chains = { [TO_CLIENT]: Promise.resolve(), [TO_SERVER]: Promise.resolve() };

    const cut = () => {
      if (connection.cut) return;
      connection.cut = true;
      stats.cut += 1;
      client.terminate();
      upstream.terminate();
    };

    const deliver = (to, direction, data, isBinary) => {
      if (connection.cut || to.readyState !== WebSocket.OPEN) return;
      const text = isBinary ? null : data.toString("utf8");
      const countFrom = options.countFrom;
      if (!connection.counting[direction] && (!countFrom || (text !== null && countFrom(text, direction)))) {
        for (const d of [TO_CLIENT, TO_SERVER]) connection.counting[d] = true;
      }
      const garbage = perDirection(options.garbage, direction) ?? 0;
      if (garbage > 0 && random() < garbage) {
        const junk = garbageFrame(random, text ?? "");
        stats.garbage += 1;
        to.send(junk, { binary: Buffer.isBuffer(junk) });
      }
      to.send(data, { binary: isBinary });
      stats[direction] += 1;
      const duplicate = perDirection(options.duplicate, direction) ?? 0;
      if (duplicate > 0 && (duplicate >= 1 || random() < duplicate)) {
        to.send(data, { binary: isBinary });
        stats.duplicated += 1;
      }
      if (connection.counting[direction]) {
        connection.sent[direction] += 1;
        const limit = perDirection(options.dropAfter, direction);
        const target = !options.cutOnly || options.cutOnly(connection.index);
        if (target && limit !== undefined && connection.sent[direction] >= limit) cut();
      }
    };

    const relay = (to, direction) => (data, isBinary) => {
      const delay = perDirection(options.delayMs, direction);
      const ms = Array.isArray(delay) ? delay[0] + random() * (delay[1] - delay[0]) : delay ?? 0;
      chains[direction] = chains[direction].then(async () => {
        if (ms > 0) await wait(ms);
        deliver(to, direction, data, isBinary);
      });
    };

    const toServer = relay(upstream, TO_SERVER);
    client.on("message", (data, isBinary) => {
      if (upstream.readyState === WebSocket.OPEN) toServer(data, isBinary);
      else early.push([data, isBinary]);
    });
    upstream.on("open", () => {
      for (const [data, isBinary] of early.splice(0)) toServer(data, isBinary);
    });
    upstream.on("message", relay(client, TO_CLIENT));
    // Either side closing (or failing) closes the other; a cut closes both at once.
    const closeBoth = (code, reason) => {
      for (const socket of [client, upstream]) {
        sockets.delete(socket);
        if (socket.readyState === WebSocket.OPEN) socket.close(code >= 1000 && code < 5000 && code !== 1005 && code !== 1006 ? code : 1000, reason);
        else if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      }
    };
    client.on("close", closeBoth);
    upstream.on("close", closeBoth);
    client.on("error", () => closeBoth(1011));
    upstream.on("error", () => closeBoth(1011));
  });

  let stopped = null;
  function stop() {
    stopped ??= new Promise((done) => {
      clearTimeout(lifetime);
      for (const socket of sockets) socket.terminate();
      sockets.clear();
      server.close(() => done());
    });
    return stopped;
  }

  const { port } = server.address();
  const { pathname, search } = new URL(target);
  return { url: `ws://127.0.0.1:${port}${pathname}${search}`, stats, connections, options, stop };
}
