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

use super::core::{Effect, Phase, SessionCore, Target};
use super::error::SessionError;
use crate::protocol::commands::{Command, RuntimeStart, Sync};
use crate::protocol::peek_event_ids;
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

    /// Sessions on an app server's own socket hold a standby (Cloud has its status sockets, and the
    /// management connection and `createAgent()` sessions hold no runtime worth keeping).
    fn wants_standby(&self) -> bool {
        let keeps_runtime = !matches!(
            self.config.target,
            Target::Management | Target::CreateAgent { .. }
        );
        keeps_runtime && self.is_remote_target() && self.policy().is_some() && self.is_ready()
    }

    /// The jitter's seed, from the request-id nonce (different clients retry at different times).
    pub(super) fn jitter_seed(nonce: &str) -> u64 {
        content_key(nonce, None) | 1
    }

    /// Opens the standby unless one is open or opening (once the session is ready, after a
    /// promotion, and when a retry is due).
    pub(super) fn open_standby_if_wanted(&mut self) {
        let wanted = self.wants_standby();
        if self.connections.open_standby(wanted) {
            self.link(LinkEffect::OpenStandby);
        }
    }

    pub(super) fn link(&mut self, effect: LinkEffect) {
        self.emit(Effect::Link(effect));
    }

    pub(super) fn signal(&mut self, live: Option<bool>) {
        self.connections.set_signalled(live.is_some());
        self.emit(Effect::Connection(connection_event(live)));
    }

    /// The standby socket opened: subscribe it to the runtime without changing anything the
    /// primary's start set (no mode, no working directory, skill sources kept, no tools: SDK
    /// tools stay on the primary, whose socket the server asks), and without a state replay.
    pub fn on_standby_open(&mut self, _now: u64) {
        let (Standby::Connecting, Some(runtime)) =
            (self.connections.standby(), self.runtime().cloned())
        else {
            return;
        };
        let mut start = RuntimeStart::new(self.ids.next("runtime-start"), "");
        start.mode = None;
        start.force_device_status = false;
        start.preserve_skill_sources = Some(true);
        start.agent_id = runtime.agent_id.clone();
        start.conversation_id = Some(runtime.conversation_id.clone());
        self.connections.standby_opened();
        self.link(LinkEffect::WriteStandby(
            Command::RuntimeStart(start).to_json(),
        ));
    }

    /// A frame on the standby socket: its `runtime_start` answer, then stream frames only.
    pub fn on_standby_frame(&mut self, text: &str, now: u64) {
        match self.connections.standby() {
            Standby::Starting => self.on_standby_start_answer(text, now),
            Standby::Ready if !self.is_closed() => {
                self.take_frame(text, peek_event_ids(text).envelope_at, true, now);
            }
            _ => {}
        }
    }

    /// Whether the standby's transport may hold its stream frames back until the primary
    /// drops (then they go to [`Self::on_standby_frame`] before the close): the standby is
    /// ready, so all it contributes is stream frames, and only what the primary missed.
    pub fn holds_standby_frames(&self) -> bool {
        self.connections.standby() == Standby::Ready && !self.is_closed()
    }

    /// The standby sends nothing but its `runtime_start`, so the first start answer on it is
    /// that one's (its conversation is named, so a success is on the session's runtime).
    fn on_standby_start_answer(&mut self, text: &str, now: u64) {
        let Some(answer) = crate::json::Object::parse(text) else {
            return;
        };
        if answer.get("type").as_str() != Some("runtime_start_response") {
            return;
        }
        if answer.bool("success") == Some(true) {
            let signalled = self.connections.standby_ready();
            self.release_held_writes();
            if signalled {
                self.signal(None);
            }
        } else {
            self.link(LinkEffect::CloseStandby);
            self.standby_failed(now);
        }
    }

    /// The standby socket closed or failed to open: retry with backoff, up to the policy's
    /// attempts (the session goes on on its primary meanwhile).
    pub fn on_standby_closed(&mut self, now: u64) {
        if self.connections.standby() == Standby::Off || self.is_closed() {
            return;
        }
        let was_ready = self.connections.standby() == Standby::Ready;
        self.standby_failed(now);
        if was_ready && !self.connections.is_signalled() {
            self.signal(Some(true));
        }
    }

    fn standby_failed(&mut self, now: u64) {
        let Some(policy) = self.policy() else {
            return;
        };
        if !self.connections.standby_failed(&policy, now) {
            // No standby will come: held input goes out on the primary alone.
            self.release_held_writes();
        }
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
mod stream_keys;
#[cfg(test)]
mod tests;
mod write_gate;
