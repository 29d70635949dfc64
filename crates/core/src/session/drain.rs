//! Closing (by `close()` or a transport loss) without stranding the server's queue, and re-pumping a stalled one (issue 11).
//!
//! letta-code 0.32.18 resumes its input queue only through the socket of the work that just
//! settled: when an aborted run's cancellation settles or a turn's post-turn work ends, it calls
//! `scheduleQueuePump(runtime, socket, …)` with that turn's socket, and the pump returns at once
//! when the socket is closed (`!isListenerTransportOpen(socket)`). An input another client
//! queued meanwhile then waits forever. So `close()` keeps the socket open, for at most
//! [`CLOSE_DRAIN_MS`], while the server still works on our turns (`is_settling`) or may still
//! pump its queue after a turn that paused for an approval (`approval_pump_window`), and a
//! session whose own input is stalled asks the server to pump again (`resume_queue`).

use super::core::{Effect, SessionCore};
use super::error::SessionError;
use crate::protocol::commands::{Command, RuntimeRequest};
use crate::protocol::EventIds;
pub(super) use closing::Closing;
use closing::Socket;

/// The longest a closed session keeps its socket open for the server to settle our work.
pub const CLOSE_DRAIN_MS: u64 = 3_000;

impl SessionCore {
    /// The socket closed without `close()` being called.
    pub fn on_transport_closed(&mut self, now: u64) {
        self.closing.socket_gone();
        if self.is_closed() {
            return;
        }
        if self.restart_lost_start("the socket closed", now) {
            return;
        }
        if self.cloud_idle_drop() {
            return;
        }
        if self.survive_primary_drop(now) {
            return;
        }
        self.closing.shut();
        self.drop_held_writes();
        if self.startup.transport_gone() {
            let error = SessionError::connection("App-server socket closed");
            self.settle_init(Err(error));
        }
        self.reject_all(SessionError::connection("App-server socket closed"));
        if let Some(c) = self.coordinator.as_mut() {
            c.close_transport_dropped(now);
        }
    }

    /// `close()`: ends the stream, rejects what is pending, closes the socket. Idempotent.
    pub fn close(&mut self, now: u64) {
        if self.is_closed() {
            return;
        }
        // Input the session accepted goes out before the close (it waited for the standby).
        self.release_held_writes();
        self.closing.shut();
        self.close_standby();
        self.connections.stop_recovering();
        self.settle_init(Err(SessionError::session_closed()));
        self.reject_all(SessionError::closed("App-server client closed"));
        if let Some(c) = self.coordinator.as_mut() {
            c.close(now);
        }
        self.begin_drain(now);
    }

    /// After `close()`: close the socket now, or once the server settled our work (bounded).
    pub(super) fn begin_drain(&mut self, now: u64) {
        let socket = self.closing.begin_drain(self.settled_by(now));
        self.apply_socket(socket);
    }

    /// Closes the socket when the closing concern decided so.
    fn apply_socket(&mut self, socket: Socket) {
        if socket == Socket::Close {
            self.emit(Effect::CloseTransport);
        }
    }

    /// Until when a closing session keeps its socket: [`CLOSE_DRAIN_MS`] from `now` while the
    /// server works on our turns, else the end of the approval pump window; `None` once
    /// nothing is left to wait for.
    fn settled_by(&self, now: u64) -> Option<u64> {
        let coordinator = self.coordinator.as_ref()?;
        if coordinator.is_settling() {
            return Some(now.saturating_add(CLOSE_DRAIN_MS));
        }
        coordinator.approval_pump_window().filter(|&end| end > now)
    }

    /// Whether a closed session still holds its socket open for the server to settle.
    pub fn is_draining(&self) -> bool {
        self.closing.is_draining()
    }

    /// A frame while draining: it may be the `turn_finished` or idle status we wait for.
    pub(super) fn drain_frame(&mut self, text: &str, ids: &EventIds<'_>, now: u64) {
        if !self.closing.is_draining() {
            return;
        }
        if let Some(c) = self.coordinator.as_mut() {
            if c.handle_text(text, now) {
                self.recent_frames.remember(ids);
            }
        }
        let socket = self.closing.after_frame(self.settled_by(now));
        self.apply_socket(socket);
    }

    /// After the timers fired: a due `resume_queue`, and the socket closes once the drain
    /// deadline passed.
    pub(super) fn drain_tick(&mut self, now: u64) {
        self.resume_stalled_queue();
        let socket = self.closing.tick(now);
        self.apply_socket(socket);
    }

    /// Sends `resume_queue` when the coordinator found our queued input stalled on an idle
    /// server. Never re-sends the input itself.
    pub(super) fn resume_stalled_queue(&mut self) {
        let due = self
            .coordinator
            .as_mut()
            .is_some_and(|c| c.take_resume_queue());
        if !due || self.is_closed() {
            return;
        }
        if let Some(runtime) = self.runtime().cloned() {
            let command = Command::ResumeQueue(RuntimeRequest {
                request_id: self.ids.next("resume-queue"),
                runtime,
            });
            self.write(command.to_json());
        }
    }
}

mod closing;
#[cfg(test)]
mod tests;
