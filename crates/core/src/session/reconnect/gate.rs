//! Input waits for the standby (issue 36).
//!
//! letta-code cancels a runtime's turn when the last socket of the runtime closes. An input
//! written while the session has one socket (the standby not yet subscribed: right after the
//! start, or after a promotion) is therefore lost with that socket, turn and all. So an input
//! goes out only once the standby is subscribed, or after [`STANDBY_WAIT_MS`] when it will not
//! come; while one waits, every later write of the session waits behind it, so that nothing
//! (an `abort_message`, a queue removal) overtakes it.

use super::super::core::{Effect, SessionCore};
use super::write_gate::Held;
use super::Standby;

/// The longest an input waits for the standby to subscribe before it goes out on the primary
/// alone (two standby retries at the default backoff fit in it). `bench/RESULTS.md` has what
/// the wait adds to a session's set-up.
pub const STANDBY_WAIT_MS: u64 = 3_000;

impl SessionCore {
    /// Whether a standby is on its way but not subscribed yet.
    fn standby_pending(&self) -> bool {
        matches!(
            self.connections.standby(),
            Standby::Waiting { .. } | Standby::Connecting | Standby::Starting
        )
    }

    /// Writes the `input` frame of a turn, or holds it (and what follows) until the standby is
    /// subscribed.
    pub(in crate::session) fn write_input(&mut self, request_id: String, frame: String, now: u64) {
        let hold = self.gate.is_holding() || self.standby_pending();
        if self.startup.is_ready() && hold {
            return self.gate.hold_input(request_id, frame, now);
        }
        self.track_input(&request_id, &frame);
        self.write_now(frame);
    }

    /// Writes a frame on the primary socket, behind any input that waits for the standby.
    pub(in crate::session) fn write(&mut self, text: String) {
        if self.startup.is_ready() && self.gate.is_holding() {
            self.gate.hold_frame(text);
        } else {
            self.write_now(text);
        }
    }

    /// Writes a frame on the primary socket at once (the start sequence, a resent input, the
    /// state replay of a new primary).
    pub(in crate::session) fn write_now(&mut self, text: String) {
        self.emit(Effect::Write(text));
    }

    /// Lets every held write go, in order (the standby is subscribed or will not come, the
    /// wait ended, or the session closes).
    pub(in crate::session) fn release_held_writes(&mut self) {
        for held in self.gate.release() {
            match held {
                Held::Input { request_id, frame } => {
                    self.track_input(&request_id, &frame);
                    self.write_now(frame);
                }
                Held::Frame(frame) => self.write_now(frame),
            }
        }
    }

    /// Forgets the held writes (the session failed for good: their turns end with it).
    pub(in crate::session) fn drop_held_writes(&mut self) {
        self.gate.drop_held();
    }

    /// When the held input stops waiting, while the session is ready to write it.
    pub(in crate::session) fn gate_deadline(&self) -> Option<u64> {
        self.gate.until().filter(|_| self.startup.is_ready())
    }

    /// Releases the held writes once their wait is over.
    pub(in crate::session) fn gate_tick(&mut self, now: u64) {
        if self.gate_deadline().is_some_and(|until| until <= now) {
            self.release_held_writes();
        }
    }
}
