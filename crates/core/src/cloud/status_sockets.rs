//! The Cloud status sockets (spec §4.6): two sockets (`channel=control`, `channel=stream`) on
//! `/v1/environments/<connectionId>/status/ws` presented to the session as one.
//!
//! [`StatusSockets`] is sans-IO: the transport reports opens, messages and closes per channel and
//! wakes it at [`StatusSockets::deadline`]; it answers with [`Output`]s — frames to write on a
//! channel, frames to hand to the session, sockets to close. What it does with a frame:
//!
//! 1. every frame with a numeric `seq` is acked on its own socket (`{"type":"ack","seq":n}`),
//!    duplicates included;
//! 2. a `stream_delta` that arrives on the control socket is dropped;
//! 3. a frame whose `idempotency_key` was seen among the last 1 000 keys is dropped;
//! 4. an `event_seq` greater than the highest seen + 1 sends a `sync` on control;
//! 5. the frame's text goes to the session unchanged.
//!
//! The API key is used for the `Authorization` header or the `token` query parameter and for
//! nothing else: no error or log line built here contains it or a socket URL.

use super::config::{CloudConfig, WebSocketAuth};
use super::error::{CloudError, CloudResult};
use super::http::set_header;
use super::query::{segment, Query};
use crate::json::{self, Object, Value};
use crate::protocol::Runtime;
use serde::Serialize;
use std::collections::{HashSet, VecDeque};

/// Idempotency keys remembered for duplicate detection.
pub const IDEMPOTENCY_WINDOW: usize = 1_000;
/// Open attempts before the relay gives up (re-resolving the connection in between).
pub const OPEN_ATTEMPTS: u32 = 2;

/// One of the two sockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Commands go here; control frames come back.
    Control,
    /// Stream deltas.
    Stream,
}

impl Channel {
    /// The `channel` query value.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Control => "control",
            Channel::Stream => "stream",
        }
    }

    fn index(self) -> usize {
        match self {
            Channel::Control => 0,
            Channel::Stream => 1,
        }
    }

    fn other(self) -> Channel {
        match self {
            Channel::Control => Channel::Stream,
            Channel::Stream => Channel::Control,
        }
    }
}

/// How to open the two sockets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusEndpoints {
    /// URL of the control socket.
    pub control: String,
    /// URL of the stream socket.
    pub stream: String,
    /// Header mode: the `{headers}` constructor argument. Query mode: `None`, meaning no second
    /// constructor argument at all.
    pub headers: Option<Vec<(String, String)>>,
}

/// Both socket URLs and the constructor headers for `connection_id` and `runtime`.
pub fn endpoints(
    config: &CloudConfig,
    connection_id: &str,
    runtime: &Runtime,
) -> CloudResult<StatusEndpoints> {
    let (scheme, rest) = config
        .api_base_url
        .split_once("://")
        .unwrap_or(("", &config.api_base_url));
    let scheme = match scheme {
        "http" | "ws" => "ws",
        "https" | "wss" => "wss",
        other => {
            return Err(CloudError::invalid(format!(
                "Unsupported cloud apiBaseUrl protocol: {other}:"
            )))
        }
    };
    let url = |channel: Channel| {
        let query = Query::new()
            .opt("agentId", runtime.agent_id.as_deref())
            .push("conversationId", &runtime.conversation_id)
            .push("channel", channel.as_str());
        let query = match (config.web_socket_auth, &config.api_key) {
            (WebSocketAuth::Query, Some(key)) => query.push("token", key),
            _ => query,
        };
        format!(
            "{scheme}://{rest}/v1/environments/{}/status/ws{}",
            segment(connection_id),
            query.to_suffix()
        )
    };
    let headers = match config.web_socket_auth {
        WebSocketAuth::Query => None,
        WebSocketAuth::Header => {
            let mut headers: Vec<(String, String)> = config
                .headers
                .iter()
                .filter(|(k, _)| !k.eq_ignore_ascii_case("authorization"))
                .cloned()
                .collect();
            if let Some(key) = &config.api_key {
                set_header(&mut headers, "Authorization", &format!("Bearer {key}"));
            }
            Some(headers)
        }
    };
    Ok(StatusEndpoints {
        control: url(Channel::Control),
        stream: url(Channel::Stream),
        headers,
    })
}

/// What the relay asks the transport to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Write this text frame on `channel`.
    Write(Channel, String),
    /// Hand this frame (the received text, unchanged) to the session.
    Deliver(String),
    /// Both sockets are open: the pair is open.
    Opened,
    /// Close this socket (its partner closed).
    Close(Channel),
    /// The pair closed (emitted once).
    Closed,
}

/// `{"type":"ack","seq":n}`, `n` written back as the number it was (an integer as an integer).
#[derive(Serialize)]
struct Ack {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(serialize_with = "ack_seq")]
    seq: f64,
}

fn ack_seq<S: serde::Serializer>(seq: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    json::serialize_js_number(*seq, 9.0e18, serializer)
}

/// `{"type":"sync","runtime":…,"recover_approvals":true,"force_device_status":true}` with no
/// `request_id`: the gap recovery, and the un-correlated sync sent right after `runtime_start`.
pub fn sync_frame(runtime: &Runtime) -> String {
    #[derive(Serialize)]
    struct Sync<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        runtime: &'a Runtime,
        recover_approvals: bool,
        force_device_status: bool,
    }
    json::to_string(&Sync {
        kind: "sync",
        runtime,
        recover_approvals: true,
        force_device_status: true,
    })
}

/// The heartbeat frame.
pub const PING: &str = r#"{"type":"ping"}"#;

/// The two-socket status sockets of one connection.
#[derive(Debug, Clone)]
pub struct StatusSockets {
    runtime: Runtime,
    ping_interval_ms: u64,
    open: [bool; 2],
    closed: bool,
    next_ping_at: Option<u64>,
    keys: HashSet<String>,
    key_order: VecDeque<String>,
    last_event_seq: Option<f64>,
}

impl StatusSockets {
    /// A relay for `runtime` (whose `sync` it sends on a gap), pinging every `ping_interval_ms`.
    pub fn new(runtime: Runtime, ping_interval_ms: u64) -> Self {
        StatusSockets {
            runtime,
            ping_interval_ms,
            open: [false; 2],
            closed: false,
            next_ping_at: None,
            keys: HashSet::new(),
            key_order: VecDeque::new(),
            last_event_seq: None,
        }
    }

    /// True once both sockets are open and neither closed.
    pub fn is_open(&self) -> bool {
        self.open == [true, true] && !self.closed
    }

    /// A socket opened.
    pub fn on_open(&mut self, channel: Channel, now: u64) -> Vec<Output> {
        if self.closed || self.open[channel.index()] {
            return Vec::new();
        }
        self.open[channel.index()] = true;
        if self.is_open() {
            self.next_ping_at = Some(now + self.ping_interval_ms);
            vec![Output::Opened]
        } else {
            Vec::new()
        }
    }

    /// A command from the session: written on the control socket only.
    pub fn send(&self, frame: String) -> CloudResult<Output> {
        if self.closed || !self.open[Channel::Control.index()] {
            return Err(CloudError::connection(
                "Cloud status control socket is not open",
            ));
        }
        Ok(Output::Write(Channel::Control, frame))
    }

    fn remember(&mut self, key: &str) -> bool {
        if self.keys.contains(key) {
            return false;
        }
        if self.key_order.len() == IDEMPOTENCY_WINDOW {
            if let Some(oldest) = self.key_order.pop_front() {
                self.keys.remove(&oldest);
            }
        }
        self.keys.insert(key.to_owned());
        self.key_order.push_back(key.to_owned());
        true
    }

    /// A text frame arrived on `channel`. Frames that are not JSON objects are dropped.
    pub fn on_message(&mut self, channel: Channel, text: String) -> Vec<Output> {
        if self.closed {
            return Vec::new();
        }
        // Members of the wrong type read as absent (the frame still passes through).
        let Some(envelope) = Object::parse(&text) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Value::Number(seq) = *envelope.get("seq") {
            let ack = Ack { kind: "ack", seq };
            out.push(Output::Write(channel, json::to_string(&ack)));
        }
        if channel == Channel::Control && envelope.get("type").as_str() == Some("stream_delta") {
            return out;
        }
        if let Some(key) = envelope.get("idempotency_key").as_str() {
            if !self.remember(key) {
                return out;
            }
        }
        if let Some(event_seq) = envelope.f64("event_seq").filter(|n| n.is_finite()) {
            if self
                .last_event_seq
                .is_some_and(|last| event_seq > last + 1.0)
            {
                out.push(Output::Write(Channel::Control, sync_frame(&self.runtime)));
            }
            if self.last_event_seq.is_none_or(|last| event_seq > last) {
                self.last_event_seq = Some(event_seq);
            }
        }
        out.push(Output::Deliver(text));
        out
    }

    /// When the next ping is due.
    pub fn deadline(&self) -> Option<u64> {
        self.next_ping_at.filter(|_| self.is_open())
    }

    /// Timer: `{"type":"ping"}` on both sockets every `pingIntervalMs`.
    pub fn on_tick(&mut self, now: u64) -> Vec<Output> {
        match self.next_ping_at {
            Some(at) if at <= now && self.is_open() => {
                self.next_ping_at = Some(now + self.ping_interval_ms);
                vec![
                    Output::Write(Channel::Control, PING.to_owned()),
                    Output::Write(Channel::Stream, PING.to_owned()),
                ]
            }
            _ => Vec::new(),
        }
    }

    /// A socket closed (or failed): the other is closed too and the pair reports one close.
    pub fn on_close(&mut self, channel: Channel) -> Vec<Output> {
        if self.closed {
            return Vec::new();
        }
        self.closed = true;
        self.next_ping_at = None;
        let mut out = Vec::new();
        if self.open[channel.other().index()] {
            out.push(Output::Close(channel.other()));
        }
        out.push(Output::Closed);
        out
    }
}

/// Idle recovery (spec §3.11): the runtime of the reopened transport must be the one the
/// session had.
pub fn check_recovered_runtime(previous: &Runtime, recovered: &Runtime) -> CloudResult<()> {
    if previous == recovered {
        Ok(())
    } else {
        Err(CloudError::connection(
            "cloud transport recovered a different runtime",
        ))
    }
}

/// What to do after open attempt `attempt` (1-based) failed.
#[derive(Debug, Clone, PartialEq)]
pub enum OpenFailure {
    /// Re-resolve the connection (sandbox refresh and wait, or the computer again), then retry.
    Reresolve,
    /// Give up with this error.
    Fail(CloudError),
}

/// Spec §4.6: up to two attempts; the final error names the connection, not the URL.
pub fn open_failed(attempt: u32, connection_id: &str, detail: &str) -> OpenFailure {
    if attempt < OPEN_ATTEMPTS {
        OpenFailure::Reresolve
    } else {
        OpenFailure::Fail(CloudError::connection(format!(
            "Cloud status WebSocket failed to open for connection {connection_id}: {detail}"
        )))
    }
}

/// The JSON warning line for one failed attempt (`console.warn`), without URL or key.
pub fn open_failed_log(attempt: u32, connection_id: &str, detail: &str) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Failed<'a> {
        event: &'static str,
        connection_id: &'a str,
        attempt: u32,
        max_attempts: u32,
        error: &'a str,
    }
    json::to_string(&Failed {
        event: "cloud_status_transport_connection_failed",
        connection_id,
        attempt,
        max_attempts: OPEN_ATTEMPTS,
        error: detail,
    })
}

#[cfg(test)]
#[path = "tests_status_sockets.rs"]
mod tests;
