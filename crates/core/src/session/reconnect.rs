//! Surviving a dropped connection (issue 11): a second socket on the session's runtime, and
//! the reopen after both are gone. Sans-IO like the rest of the core: the driver opens, writes
//! and closes what the [`LinkEffect`]s say and reports the standby's events back.
//!
//! What the app server does (letta-code 0.32.18, measured with raw sockets):
//! - a runtime may have several sockets; each gets its own `runtime_start` on the same
//!   conversation, and every broadcast frame goes to each of them (with that socket's own
//!   `event_seq` and `idempotency_key`, so the copies share neither);
//! - when the last socket of a runtime closes mid-turn the turn is cancelled; while another is
//!   open the turn goes on there (a pending approval's `control_request` is sent to it again);
//! - an `input` is remembered by its `client_message_id`: sent again, it is acknowledged with
//!   its first disposition and not run twice (`acceptedInputDispositions`).
//!
//! So a ready session keeps a *standby* socket beside its *primary* one. Requests and input go
//! on the primary, and so do its status snapshots, control requests and responses. The standby
//! contributes only stream frames (`stream_delta`, `turn_finished`), and the frames of both are
//! de-duplicated by content ([`StreamKeys`]): whichever copy arrives first is taken, so a drop
//! loses nothing the other socket delivered. When the primary drops, the standby is promoted:
//! input the server never acknowledged is sent again (same `client_message_id`), a `sync` with
//! `recover_approvals` replays the state and any pending approval (the decision cache re-sends
//! an answer already given, so `canUseTool` is asked once), and a new standby opens. When both
//! drop, the acknowledged active turn ends with the recoverable `stream_closed` result, and the
//! session reopens the runtime by itself (`reopen`). An input goes out only once the standby is
//! subscribed (`gate`), so that one dropped socket never takes a turn with it.

use super::core::{Effect, Phase, SessionCore};
use super::error::SessionError;
use crate::protocol::commands::{Command, Sync};
use crate::protocol::runtime::Runtime;
pub(super) use connections::Connections;
use connections::Standby;
pub use gate::STANDBY_WAIT_MS;
use stream_keys::content_key;
pub(super) use write_gate::WriteGate;

/// `reconnect` when the option is absent: on.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 5;
/// The first retry waits about this long (then it doubles, with jitter).
pub const DEFAULT_BACKOFF_MS: u64 = 250;
/// How many stream frames are remembered by content (far more than two sockets drift apart).
pub const STREAM_KEY_WINDOW: usize = 512;
/// The longest one retry waits, whatever the attempt.
const MAX_BACKOFF_MS: u64 = 30_000;

/// The `reconnect` session option: how often, and how patiently, a lost connection is
/// replaced. `reconnect: false` (no policy) keeps the single socket of the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReconnectPolicy {
    /// Failed standby opens in a row after which the session stops replacing it.
    pub max_attempts: u32,
    /// The first retry's delay; each further one doubles it (jittered, at most 30 s).
    pub backoff_ms: u64,
}

impl Default for ReconnectPolicy {
    fn default() -> Self {
        ReconnectPolicy {
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            backoff_ms: DEFAULT_BACKOFF_MS,
        }
    }
}

/// Transport work beyond the primary socket's writes.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkEffect {
    /// Open the standby socket (same URL and credentials as the primary).
    OpenStandby,
    /// Write this frame on the standby socket.
    WriteStandby(String),
    /// The standby becomes the primary (the old primary is gone).
    PromoteStandby,
    /// Close the standby socket.
    CloseStandby,
    /// Open the primary socket again (same URL and credentials): every socket was lost, or the
    /// start lost its socket (see `reopen`).
    ReopenPrimary,
}

/// What [`SessionCore::copy_seen`] found.
pub(super) enum Arrival {
    /// Drop the frame unparsed (the caller's "taken": it is no garbled copy).
    Seen,
    /// Parse it; a stream frame's content key comes along.
    New(Option<u64>),
}

/// Frames the standby contributes, and that are de-duplicated by content.
fn is_stream_frame(frame_type: &str) -> bool {
    matches!(frame_type, "stream_delta" | "turn_finished")
}

/// The signals for `onConnectionChange` listeners (JSON), by whether a socket still carries
/// the session (`None`: whole again).
fn connection_event(live: Option<bool>) -> &'static str {
    match live {
        Some(true) => r#"{"type":"reconnecting","live":true}"#,
        Some(false) => r#"{"type":"reconnecting","live":false}"#,
        None => r#"{"type":"reconnected"}"#,
    }
}

impl SessionCore {
    pub(super) fn policy(&self) -> Option<ReconnectPolicy> {
        self.config.options.reconnect
    }

    /// The jitter's seed, from the request-id nonce (different clients retry at different times).
    pub(super) fn jitter_seed(nonce: &str) -> u64 {
        content_key(nonce, None) | 1
    }

    pub(super) fn link(&mut self, effect: LinkEffect) {
        self.emit(Effect::Link(effect));
    }

    pub(super) fn signal(&mut self, live: Option<bool>) {
        self.connections.set_signalled(live.is_some());
        self.emit(Effect::Connection(connection_event(live)));
    }

    /// Whether a frame is to be handled: a stream frame the first time either socket brings
    /// it; anything else when it came on the primary. Only sessions with a reconnect policy
    /// hash their frames.
    pub(super) fn first_copy(
        &mut self,
        frame_type: &str,
        standby: bool,
        text: &str,
        key: Option<u64>,
    ) -> bool {
        if !is_stream_frame(frame_type) {
            return !standby;
        }
        if self.policy().is_none() {
            return true;
        }
        let key = key.unwrap_or_else(|| content_key(text, None));
        self.connections.first_stream_copy(key)
    }

    /// Before the parse, from the peeked type: whether the frame is one to drop unparsed (a
    /// standby's frame it does not contribute, a stream frame either socket delivered), else
    /// the content key of a stream frame, for [`Self::first_copy`] once it parsed.
    /// `envelope_at`: where the frame's broadcast members begin, if known.
    pub(super) fn copy_seen(
        &self,
        frame_type: &str,
        standby: bool,
        text: &str,
        envelope_at: Option<usize>,
    ) -> Arrival {
        if !is_stream_frame(frame_type) {
            return if standby {
                Arrival::Seen
            } else {
                Arrival::New(None)
            };
        }
        if self.policy().is_none() {
            return Arrival::New(None);
        }
        let key = content_key(text, envelope_at);
        if self.connections.stream_seen(key) {
            Arrival::Seen
        } else {
            Arrival::New(Some(key))
        }
    }

    /// Remembers an `input` until the server acknowledges it (to send it again on a new
    /// primary; the server runs one `client_message_id` once).
    pub(super) fn track_input(&mut self, request_id: &str, frame: &str) {
        if self.policy().is_some() {
            self.connections.track_input(request_id, frame);
        }
    }

    /// An `input_accepted` (either answer) for `request_id`: the input needs no resending.
    pub(super) fn input_answered(&mut self, request_id: &str) {
        self.connections.input_answered(request_id);
    }

    fn resend_unacked(&mut self) {
        for frame in self.connections.unacked_frames() {
            self.write_now(frame);
        }
    }

    /// The state replay (and any pending approval) on a new primary.
    fn sync_new_primary(&mut self, runtime: Runtime) {
        let sync = Command::Sync(Sync {
            request_id: None,
            runtime,
            recover_approvals: true,
            force_device_status: true,
        });
        self.write_now(sync.to_json());
    }

    /// The primary socket dropped. With a ready standby it is promoted (`true`: nothing is
    /// lost). Otherwise, with a policy, the session reopens (`true`: the acknowledged active
    /// turn ended `stream_closed`; the stream stays open). `false`: close as before.
    pub(super) fn survive_primary_drop(&mut self, now: u64) -> bool {
        if self.policy().is_none() || !self.startup.is_ready() || !self.is_remote_target() {
            return false;
        }
        let Some(runtime) = self.runtime().cloned() else {
            return false;
        };
        if self.connections.standby() == Standby::Ready {
            self.link(LinkEffect::PromoteStandby);
            self.connections.promote_standby();
            self.recent_frames.forget();
            // Calls whose answers were to come on the dropped socket fail now (their callers may
            // retry); input is not among them: it is sent again below.
            self.reject_all(SessionError::connection("App-server socket closed"));
            self.resend_unacked();
            self.sync_new_primary(runtime);
            self.signal(Some(true));
            self.open_standby_if_wanted();
            return true;
        }
        if self.connections.lose_standby() {
            self.link(LinkEffect::CloseStandby);
        }
        self.reopen_after_loss(runtime, now);
        self.recent_frames.forget();
        self.reject_all(SessionError::connection("App-server socket closed"));
        if let Some(c) = self.coordinator.as_mut() {
            c.connection_lost(now);
        }
        self.signal(Some(false));
        true
    }

    /// When the next standby attempt, reopen attempt or release of held input is due.
    pub(super) fn reconnect_deadline(&self) -> Option<u64> {
        let standby = self.connections.standby_retry_at();
        let earliest = super::requests::earlier(standby, self.reopen_deadline());
        super::requests::earlier(earliest, self.gate_deadline())
    }

    /// Opens the standby or the primary once its retry is due, and lets held input go once
    /// its wait is over.
    pub(super) fn reconnect_tick(&mut self, now: u64) {
        if self
            .connections
            .standby_retry_at()
            .is_some_and(|at| at <= now)
        {
            self.open_standby_if_wanted();
        }
        self.reopen_tick(now);
        self.gate_tick(now);
    }

    /// True while the session is away from its runtime and a call must wait for it to come
    /// back: a Cloud session after an idle drop (spec §3.11; the next call reconnects), a
    /// remote one from losing every socket until its reopen finished.
    pub fn is_idle_disconnected(&self) -> bool {
        if self.is_closed() || self.connections.recovering().is_none() {
            return false;
        }
        if self.is_remote_target() {
            !self.startup.is_ready()
        } else {
            self.startup.phase() == Phase::Connecting
        }
    }

    /// The start finished: the session is whole again and a later loss reopens it.
    pub(super) fn connections_ready(&mut self) {
        self.connections.ready();
    }

    /// Closing the session: the standby goes with it.
    pub(super) fn close_standby(&mut self) {
        if self.connections.close_standby() {
            self.link(LinkEffect::CloseStandby);
        }
    }
}

mod connections;
mod gate;
mod reopen;
mod standby;
mod stream_keys;
#[cfg(test)]
mod tests;
mod write_gate;
