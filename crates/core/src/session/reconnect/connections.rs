//! The reconnection concern's state: the standby socket, the reopening of the primary, the
//! runtime a dropped session reopens, the input the server has not acknowledged, the content
//! keys of stream frames and the backoff's jitter. Its fields are private: the session asks it
//! for decisions (a retry time, giving up, whether to close or promote the standby) and writes
//! the effects itself.

use super::stream_keys::StreamKeys;
use super::{ReconnectPolicy, MAX_BACKOFF_MS};
use crate::protocol::runtime::Runtime;

/// Where the standby socket is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(in crate::session) enum Standby {
    /// None wanted (no policy, not started, or given up).
    #[default]
    Off,
    /// Opens at this time.
    Waiting { at: u64 },
    /// Socket opening.
    Connecting,
    /// Its `runtime_start` is out.
    Starting,
    /// Subscribed to the runtime: its stream frames count.
    Ready,
}

/// Where the reopening of the primary socket is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(in crate::session) enum PrimaryReopen {
    /// No reopen under way (the first socket is the caller's to open).
    #[default]
    Idle,
    /// The next attempt opens at this time.
    At(u64),
    /// A socket is opening, or its start is under way.
    Opening,
}

/// What [`Connections::reopen_failed`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::session) enum ReopenPlan {
    /// The next attempt is scheduled.
    Retry,
    /// The attempts are spent; `was_ready`: the session was ready once (it waits for the
    /// next call), else its start never succeeded (it fails).
    GiveUp { was_ready: bool },
}

/// An `input` the server has not acknowledged yet: sent again on the next primary.
#[derive(Debug, Clone)]
struct UnackedInput {
    request_id: String,
    frame: String,
}

/// The session's connections beyond the primary socket.
#[derive(Debug, Default)]
pub(in crate::session) struct Connections {
    standby: Standby,
    /// Standby opens that failed, or standbys that dropped, since one was last ready.
    standby_failures: u32,
    /// The reopening of the primary socket.
    primary: PrimaryReopen,
    /// Reopen attempts that failed since the session was last ready.
    reopen_failures: u32,
    /// The session was ready once (a later start is a reopen of it).
    was_ready: bool,
    /// A session whose transport dropped (a Cloud one while idle, a remote one with a
    /// reconnect policy at any time): the next start reopens the runtime it had (`Some`),
    /// keeping the stream and its coordinator.
    recovering: Option<Runtime>,
    stream_keys: StreamKeys,
    unacked: Vec<UnackedInput>,
    /// The app heard `reconnecting` and not yet `reconnected`.
    signalled: bool,
    /// Jitter state (xorshift; seeded from the request-id nonce).
    jitter: u64,
}

impl Connections {
    /// Fresh connections whose backoff jitter starts from `jitter` (different clients retry at
    /// different times).
    pub(in crate::session) fn seeded(jitter: u64) -> Self {
        Connections {
            jitter,
            ..Connections::default()
        }
    }

    /// The delay before retry number `failures` (1-based): the policy's backoff, doubled per
    /// failure, times a random factor in [0.5, 1) so that many clients do not retry in step.
    pub(super) fn backoff(&mut self, policy: &ReconnectPolicy, failures: u32) -> u64 {
        if self.jitter == 0 {
            self.jitter = 0x9e37_79b9_7f4a_7c15;
        }
        self.jitter ^= self.jitter << 13;
        self.jitter ^= self.jitter >> 7;
        self.jitter ^= self.jitter << 17;
        let doubled = policy
            .backoff_ms
            .saturating_mul(1 << failures.saturating_sub(1).min(16))
            .min(MAX_BACKOFF_MS);
        let factor = 512 + (self.jitter % 512);
        doubled.saturating_mul(factor) / 1024
    }

    /// Where the standby is.
    pub(in crate::session) fn standby(&self) -> Standby {
        self.standby
    }

    /// Starts opening a standby when none is open or opening and one is `wanted`; `true`: open
    /// its socket.
    pub(in crate::session) fn open_standby(&mut self, wanted: bool) -> bool {
        let idle = matches!(self.standby, Standby::Off | Standby::Waiting { .. });
        if idle && wanted {
            self.standby = Standby::Connecting;
        }
        idle && wanted
    }

    /// The standby's socket opened; `true` when one was opening (its `runtime_start` goes out).
    pub(in crate::session) fn standby_opened(&mut self) -> bool {
        let opening = self.standby == Standby::Connecting;
        if opening {
            self.standby = Standby::Starting;
        }
        opening
    }

    /// The standby is subscribed. Returns whether the app heard `reconnecting` (it hears
    /// `reconnected` now).
    pub(in crate::session) fn standby_ready(&mut self) -> bool {
        self.standby = Standby::Ready;
        self.standby_failures = 0;
        self.signalled
    }

    /// A standby failed (to open, to start, or it dropped): retry after the backoff (`true`),
    /// or give up after the policy's attempts (`false`: no standby will come).
    pub(in crate::session) fn standby_failed(
        &mut self,
        policy: &ReconnectPolicy,
        now: u64,
    ) -> bool {
        self.standby_failures += 1;
        let failures = self.standby_failures;
        if failures > policy.max_attempts {
            self.standby = Standby::Off;
            return false;
        }
        let at = now.saturating_add(self.backoff(policy, failures));
        self.standby = Standby::Waiting { at };
        true
    }

    /// The ready standby becomes the primary: none is left.
    pub(in crate::session) fn promote_standby(&mut self) {
        self.standby = Standby::Off;
    }

    /// The primary dropped without a ready standby: any standby goes, and its count of
    /// failures restarts. `true`: one was open or opening (close its socket).
    pub(in crate::session) fn lose_standby(&mut self) -> bool {
        self.standby_failures = 0;
        self.close_standby()
    }

    /// The session closes: the standby goes with it. `true`: one was open or opening.
    pub(in crate::session) fn close_standby(&mut self) -> bool {
        std::mem::take(&mut self.standby) != Standby::Off
    }

    /// When the next standby attempt is due.
    pub(in crate::session) fn standby_retry_at(&self) -> Option<u64> {
        match self.standby {
            Standby::Waiting { at } => Some(at),
            _ => None,
        }
    }

    /// Remembers whether the app hears `reconnecting` (`true`) or `reconnected`.
    pub(in crate::session) fn set_signalled(&mut self, signalled: bool) {
        self.signalled = signalled;
    }

    /// Whether the app heard `reconnecting` and not yet `reconnected`.
    pub(in crate::session) fn is_signalled(&self) -> bool {
        self.signalled
    }

    /// Whether a stream frame with `key` was taken lately, from either socket.
    pub(in crate::session) fn stream_seen(&self, key: u64) -> bool {
        self.stream_keys.contains(key)
    }

    /// Remembers a stream frame's key; `false` when it was taken already.
    pub(in crate::session) fn first_stream_copy(&mut self, key: u64) -> bool {
        self.stream_keys.insert(key)
    }

    /// Remembers an `input` until the server acknowledges it.
    pub(in crate::session) fn track_input(&mut self, request_id: &str, frame: &str) {
        self.unacked.push(UnackedInput {
            request_id: request_id.to_owned(),
            frame: frame.to_owned(),
        });
    }

    /// An `input_accepted` for `request_id`: that input needs no resending.
    pub(in crate::session) fn input_answered(&mut self, request_id: &str) {
        self.unacked.retain(|input| input.request_id != request_id);
    }

    /// The frames of the inputs not acknowledged yet, in order (still remembered).
    pub(in crate::session) fn unacked_frames(&self) -> Vec<String> {
        self.unacked
            .iter()
            .map(|input| input.frame.clone())
            .collect()
    }

    /// The runtime the next start reopens, while the session is away from it.
    pub(in crate::session) fn recovering(&self) -> Option<&Runtime> {
        self.recovering.as_ref()
    }

    /// The session lost its transport: the next start reopens `runtime`.
    pub(in crate::session) fn recover(&mut self, runtime: Runtime) {
        self.recovering = Some(runtime);
    }

    /// The start reopened the runtime: it is no longer awaited (returned for the check).
    pub(in crate::session) fn take_recovering(&mut self) -> Option<Runtime> {
        self.recovering.take()
    }

    /// The session closes: nothing will be reopened.
    pub(in crate::session) fn stop_recovering(&mut self) {
        self.recovering = None;
    }

    /// Where the reopening of the primary is.
    pub(in crate::session) fn primary(&self) -> PrimaryReopen {
        self.primary
    }

    /// A reopen attempt's socket is opening.
    pub(in crate::session) fn primary_opening(&mut self) {
        self.primary = PrimaryReopen::Opening;
    }

    /// Every socket of a ready session was lost: the reopen attempts start from zero.
    pub(in crate::session) fn primary_lost(&mut self) {
        self.reopen_failures = 0;
    }

    /// A reopen is due (the socket was lost, or an attempt failed): schedule the next attempt
    /// after the backoff, or give up after the policy's attempts.
    pub(in crate::session) fn reopen_failed(
        &mut self,
        policy: &ReconnectPolicy,
        now: u64,
    ) -> ReopenPlan {
        self.reopen_failures += 1;
        let failures = self.reopen_failures;
        if failures <= policy.max_attempts {
            let delay = self.backoff(policy, failures);
            self.primary = PrimaryReopen::At(now.saturating_add(delay));
            return ReopenPlan::Retry;
        }
        self.primary = PrimaryReopen::Idle;
        self.reopen_failures = 0;
        ReopenPlan::GiveUp {
            was_ready: self.was_ready,
        }
    }

    /// Whether the session was ready once (a later start is a reopen of it).
    pub(in crate::session) fn was_ready(&self) -> bool {
        self.was_ready
    }

    /// The start finished: the session is whole again and a later loss reopens it.
    pub(in crate::session) fn ready(&mut self) {
        self.was_ready = true;
        self.primary = PrimaryReopen::Idle;
        self.reopen_failures = 0;
    }
}
