// The stand-in's status relay: `/v1/environments/<connectionId>/status/ws?agentId&
// conversationId&channel=control|stream` (spec §4.6), two client sockets per session in front of
// one socket to the REAL app server. Client commands on control go upstream; `ack` and `ping`
// are the relay's own. Upstream frames get a per-socket `seq` (the client acks every one);
// `stream_delta` goes to the stream socket, everything else to control. The app server's own
// `event_seq` and `idempotency_key` pass through, so the fault switches can bend them.
import { WebSocketServer } from "ws";
import { openUpstream } from "./upstream.mjs";

const PATH = /^\/v1\/environments\/([^/]+)\/status\/ws$/;

function reject(socket, status, text) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify({ message: text })}`);
}

/**
 * Serves the relay on `server`'s upgrades. `ctx`: `{apiKey, appServer: {url, token}, faults,
 * records, connectionOnline(connectionId) → boolean, log}`. Returns `{dropAll(reason), close()}`.
 */
export function attachRelay(server, ctx) {
  const wss = new WebSocketServer({ noServer: true });
  const pairs = new Set();

  server.on("upgrade", (request, socket, head) => {
    const url = new URL(request.url, "http://stand-in");
    const match = PATH.exec(url.pathname);
    if (!match) return reject(socket, 404, "Not Found");
    const header = request.headers.authorization ?? "";
    const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    const token = url.searchParams.get("token");
    if ((bearer ?? token) !== ctx.apiKey) {
      ctx.records.unauthorized.push({ path: url.pathname, via: bearer ? "header" : token ? "query" : "none" });
      return reject(socket, 401, "Unauthorized");
    }
    const connectionId = decodeURIComponent(match[1]);
    if (!ctx.connectionOnline(connectionId)) return reject(socket, 404, "Remote environment is offline");
    const channel = url.searchParams.get("channel");
    if (channel !== "control" && channel !== "stream") return reject(socket, 400, "Invalid channel");
    const scope = {
      connectionId,
      agentId: url.searchParams.get("agentId"),
      conversationId: url.searchParams.get("conversationId"),
      auth: bearer ? "header" : "query",
    };
    wss.handleUpgrade(request, socket, head, (client) => attach(client, channel, scope));
  });

  function attach(client, channel, scope) {
    const key = `${scope.connectionId}|${scope.agentId}|${scope.conversationId}`;
    let pair = [...pairs].find((p) => p.key === key && !p.closed && p.sockets[channel] === null);
    if (!pair) {
      pair = openPair(key, scope);
      pairs.add(pair);
    }
    pair.sockets[channel] = client;
    ctx.records.connections.push({ ...scope, channel });
    for (const text of pair.pending[channel].splice(0)) client.send(text);
    client.on("message", (data) => onClient(pair, channel, data.toString()));
    client.on("close", () => closePair(pair, "client closed"));
    client.on("error", () => closePair(pair, "client error"));
  }

  function openPair(key, scope) {
    const pair = {
      key,
      scope,
      closed: false,
      sockets: { control: null, stream: null },
      pending: { control: [], stream: [] },
      seq: { control: 0, stream: 0 },
      offset: 0,
      upstream: null,
      queue: [],
    };
    openUpstream(ctx.appServer.url, ctx.appServer.token).then(
      (upstream) => {
        if (pair.closed) return upstream.close();
        pair.upstream = upstream;
        upstream.on("message", (data) => onUpstream(pair, data.toString()));
        upstream.on("close", () => closePair(pair, "app server closed"));
        for (const text of pair.queue.splice(0)) upstream.send(text);
      },
      () => closePair(pair, "app server unreachable"),
    );
    return pair;
  }

  function send(pair, channel, frame) {
    const seq = ++pair.seq[channel];
    const text = JSON.stringify({ ...frame, seq });
    ctx.records.sent.push({ channel, seq, type: frame.type, idempotencyKey: frame.idempotency_key, eventSeq: frame.event_seq });
    const socket = pair.sockets[channel];
    if (socket === null) pair.pending[channel].push(text);
    else if (socket.readyState === socket.OPEN) socket.send(text);
  }

  function onUpstream(pair, text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const { faults, records } = ctx;
    const channel = frame.type === "stream_delta" ? "stream" : "control";
    if (faults.eventSeqGap && typeof frame.event_seq === "number" && frame.type === "stream_delta") {
      faults.eventSeqGap = false;
      pair.offset += 3;
      records.gaps.push({ after: frame.event_seq - 1, next: frame.event_seq + pair.offset });
    }
    if (typeof frame.event_seq === "number") frame.event_seq += pair.offset;
    send(pair, channel, frame);
    if (faults.duplicateIdempotencyKeys && typeof frame.idempotency_key === "string") {
      records.duplicates.push(frame.idempotency_key);
      send(pair, channel, frame);
    }
    if (faults.streamDeltaOnControl && channel === "stream") send(pair, "control", frame);
    if (faults.dropMidTurn && frame.type === "stream_delta") {
      faults.dropMidTurn = false;
      records.drops.push({ reason: "mid-turn", after: frame.delta?.message_type });
      closePair(pair, "mid-turn drop");
    }
  }

  function onClient(pair, channel, text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      ctx.records.ignored.push({ channel, reason: "not JSON" });
      return;
    }
    if (frame.type === "ack") return void ctx.records.acks.push({ channel, seq: frame.seq });
    if (frame.type === "ping") return void ctx.records.pings.push({ channel });
    if (channel !== "control") return void ctx.records.ignored.push({ channel, type: frame.type });
    if (frame.type === "sync" && frame.request_id === undefined) ctx.records.syncs.push(frame);
    ctx.records.commands.push(frame);
    if (pair.upstream === null) pair.queue.push(text);
    else pair.upstream.send(text);
  }

  function closePair(pair, reason) {
    if (pair.closed) return;
    pair.closed = true;
    pairs.delete(pair);
    ctx.log(`relay closed (${reason})`);
    for (const socket of Object.values(pair.sockets)) socket?.close(1012, reason);
    pair.upstream?.close();
  }

  return {
    /** Drops every relayed session (both sockets and the upstream), e.g. while idle. */
    dropAll(reason = "stand-in drop") {
      for (const pair of [...pairs]) {
        ctx.records.drops.push({ reason });
        closePair(pair, reason);
      }
    },
    open: () => pairs.size,
    close() {
      for (const pair of [...pairs]) closePair(pair, "stand-in stopped");
      wss.close();
    },
  };
}
