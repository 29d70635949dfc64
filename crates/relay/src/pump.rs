//! Relaying one session: frames both ways between the browser socket (axum's server side) and
//! the upstream socket (tungstenite's client side), with close propagation, size limits, an idle
//! timeout and the relay's shutdown.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{self, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message, Utf8Bytes};

use super::upstream::Upstream;

/// How long the other side gets to finish the closing handshake once a side has closed.
pub const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// Close code for "message too big" (RFC 6455).
pub const CLOSE_TOO_BIG: u16 = 1009;
/// Close code for "internal error", used when the upstream fails or goes away.
pub const CLOSE_UPSTREAM_FAILED: u16 = 1011;
/// Close code for "going away": sent upstream when the browser disappears without a close, and
/// to both sides when a socket was idle too long or the relay shuts down.
pub const CLOSE_GOING_AWAY: u16 = 1001;

/// The reason of the close frames sent when the relay shuts down.
pub const SHUTDOWN_REASON: &str = "relay shutting down";

/// The limits of one session besides the connection count.
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    /// Largest frame or message, both ways.
    pub max_frame_bytes: usize,
    /// Longest time without a data message either way.
    pub idle: Duration,
}

/// One of the two sockets of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The page's socket.
    Browser,
    /// The app server's socket.
    Upstream,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Browser => Side::Upstream,
            Side::Upstream => Side::Browser,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::Browser => "browser",
            Side::Upstream => "upstream",
        }
    }
}

/// What reading a socket gave.
enum Event {
    Data(Message),
    Close(Option<CloseFrame>),
    TooBig,
    Gone,
    Skip,
    /// The relay closes both sides itself (idle, shutdown), with this reason.
    GoingAway(String),
}

#[derive(Debug, Default, Clone, Copy)]
struct Leg {
    done: bool,
    close_sent: bool,
}

/// Relays frames until both sockets are closed (or the closing grace period ends); returns a
/// one-line summary for the log. When `shutdown` turns true, or no data message passed for
/// `limits.idle`, both sides are closed with 1001.
pub async fn relay(
    mut browser: WebSocket,
    mut upstream: Upstream,
    limits: SessionLimits,
    mut shutdown: watch::Receiver<bool>,
) -> String {
    let limit = limits.max_frame_bytes;
    let mut legs = [Leg::default(); 2];
    let idx = |side: Side| side as usize;
    let mut deadline: Option<Instant> = None;
    let mut idle_at = Instant::now() + limits.idle;
    let mut watching_shutdown = true;
    let mut summary: Vec<String> = Vec::new();
    while !(legs[0].done && legs[1].done) {
        let (bdone, udone) = (
            legs[idx(Side::Browser)].done,
            legs[idx(Side::Upstream)].done,
        );
        let grace = deadline.unwrap_or_else(Instant::now);
        let open = deadline.is_none();
        let (side, event) = tokio::select! {
            e = recv_browser(&mut browser), if !bdone => (Side::Browser, e),
            e = recv_upstream(&mut upstream), if !udone => (Side::Upstream, e),
            _ = tokio::time::sleep_until(grace), if deadline.is_some() => {
                summary.push("closing handshake timed out".into());
                break;
            }
            () = tokio::time::sleep_until(idle_at), if open => {
                let secs = limits.idle.as_secs();
                summary.push(format!("idle for {secs} s (--idle-timeout-s)"));
                let reason = format!("relay: idle for {secs} s");
                (Side::Browser, Event::GoingAway(reason))
            }
            changed = shutdown.wait_for(|&stop| stop), if open && watching_shutdown => {
                if changed.is_err() {
                    watching_shutdown = false;
                    continue;
                }
                summary.push("closed by the relay's shutdown".into());
                (Side::Browser, Event::GoingAway(SHUTDOWN_REASON.into()))
            }
        };
        let other = side.other();
        let mut sockets = Sockets {
            browser: &mut browser,
            upstream: &mut upstream,
        };
        match event {
            Event::Skip => continue,
            Event::GoingAway(reason) => {
                let frame = close_frame(CLOSE_GOING_AWAY, &reason);
                close_both(&mut sockets, &mut legs, side, frame).await;
                deadline.get_or_insert_with(|| Instant::now() + CLOSE_GRACE);
            }
            Event::Data(message) => {
                idle_at = Instant::now() + limits.idle;
                if legs[idx(other)].close_sent {
                    continue;
                }
                if !sockets.send(other, message).await {
                    legs[idx(other)].done = true;
                    legs[idx(other)].close_sent = true;
                    summary.push(format!("{} send failed", other.name()));
                    let frame = lost(other);
                    close(&mut sockets, &mut legs[idx(side)], side, frame).await;
                    deadline.get_or_insert_with(|| Instant::now() + CLOSE_GRACE);
                }
            }
            Event::Close(frame) => {
                summary.push(format!(
                    "{} closed {}",
                    side.name(),
                    describe(frame.as_ref())
                ));
                // The library answers the peer's close frame by itself.
                legs[idx(side)].close_sent = true;
                close(&mut sockets, &mut legs[idx(other)], other, frame).await;
                deadline.get_or_insert_with(|| Instant::now() + CLOSE_GRACE);
            }
            Event::TooBig => {
                summary.push(format!("{} sent a message over {limit} bytes", side.name()));
                legs[idx(side)].done = true;
                let reason = format!("message exceeds the relay's limit of {limit} bytes");
                let frame = close_frame(CLOSE_TOO_BIG, &reason);
                close_both(&mut sockets, &mut legs, side, frame).await;
                deadline.get_or_insert_with(|| Instant::now() + CLOSE_GRACE);
            }
            Event::Gone => {
                let leg = &mut legs[idx(side)];
                if !leg.close_sent {
                    summary.push(format!("{} connection lost", side.name()));
                }
                leg.done = true;
                leg.close_sent = true;
                close(&mut sockets, &mut legs[idx(other)], other, lost(side)).await;
                deadline.get_or_insert_with(|| Instant::now() + CLOSE_GRACE);
            }
        }
    }
    summary.join("; ")
}

/// The close frame sent to the survivor when `gone` disappeared.
fn lost(gone: Side) -> Option<CloseFrame> {
    Some(match gone {
        Side::Upstream => close_frame(CLOSE_UPSTREAM_FAILED, "upstream connection lost"),
        Side::Browser => close_frame(CLOSE_GOING_AWAY, "client went away"),
    })
}

struct Sockets<'a> {
    browser: &'a mut WebSocket,
    upstream: &'a mut Upstream,
}

impl Sockets<'_> {
    async fn send(&mut self, side: Side, message: Message) -> bool {
        match side {
            Side::Browser => match to_axum(message) {
                Some(message) => self.browser.send(message).await.is_ok(),
                None => true,
            },
            Side::Upstream => self.upstream.send(message).await.is_ok(),
        }
    }
}

/// Sends `frame` as a close to `side` unless one was sent already.
async fn close(sockets: &mut Sockets<'_>, leg: &mut Leg, side: Side, frame: Option<CloseFrame>) {
    if leg.close_sent {
        return;
    }
    leg.close_sent = true;
    // A peer that stopped reading must not hold the session open.
    let sent = tokio::time::timeout(CLOSE_GRACE, sockets.send(side, Message::Close(frame))).await;
    if sent != Ok(true) {
        leg.done = true;
    }
}

/// A close frame whose reason fits the 123 bytes a close frame allows.
/// Closes both sides with the same frame (a shutdown, an oversized message), `first` first.
async fn close_both(
    sockets: &mut Sockets<'_>,
    legs: &mut [Leg; 2],
    first: Side,
    frame: CloseFrame,
) {
    for side in [first, first.other()] {
        close(sockets, &mut legs[side as usize], side, Some(frame.clone())).await;
    }
}

pub fn close_frame(code: u16, reason: &str) -> CloseFrame {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    CloseFrame {
        code: CloseCode::from(code),
        reason: Utf8Bytes::from(&reason[..end]),
    }
}

fn describe(frame: Option<&CloseFrame>) -> String {
    match frame {
        Some(f) => format!("{}", u16::from(f.code)),
        None => "without a code".into(),
    }
}

async fn recv_browser(socket: &mut WebSocket) -> Event {
    match socket.next().await {
        Some(Ok(ws::Message::Text(text))) => match Utf8Bytes::try_from(Bytes::from(text)) {
            Ok(text) => Event::Data(Message::Text(text)),
            Err(_) => Event::Gone,
        },
        Some(Ok(ws::Message::Binary(data))) => Event::Data(Message::Binary(data)),
        Some(Ok(ws::Message::Ping(_) | ws::Message::Pong(_))) => Event::Skip,
        Some(Ok(ws::Message::Close(frame))) => Event::Close(frame.map(|f| CloseFrame {
            code: CloseCode::from(f.code),
            reason: Utf8Bytes::from(f.reason.as_str()),
        })),
        Some(Err(e)) => match e.into_inner().downcast::<WsError>() {
            Ok(e) if matches!(*e, WsError::Capacity(_)) => Event::TooBig,
            _ => Event::Gone,
        },
        None => Event::Gone,
    }
}

async fn recv_upstream(socket: &mut Upstream) -> Event {
    match socket.next().await {
        Some(Ok(Message::Close(frame))) => Event::Close(frame),
        Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => Event::Skip,
        Some(Ok(message)) => Event::Data(message),
        Some(Err(WsError::Capacity(_))) => Event::TooBig,
        Some(Err(_)) | None => Event::Gone,
    }
}

fn to_axum(message: Message) -> Option<ws::Message> {
    Some(match message {
        Message::Text(text) => match ws::Utf8Bytes::try_from(Bytes::from(text)) {
            Ok(text) => ws::Message::Text(text),
            Err(_) => return None,
        },
        Message::Binary(data) => ws::Message::Binary(data),
        Message::Close(frame) => ws::Message::Close(frame.map(|f| ws::CloseFrame {
            code: u16::from(f.code),
            reason: ws::Utf8Bytes::from(f.reason.as_str()),
        })),
        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => return None,
    })
}
