//! Turn correlation by evidence (issue 11): which runs are ours, which belong to someone else,
//! and the stalled server queue.
//!
//! The server names the client messages each run serves (`update_loop_status.loop_status.
//! client_message_ids_by_run_id`), acknowledges every input (`input_accepted`, `started` or
//! `queued`) and reports a queued input leaving its queue (`update_queue.removed`, `dequeued`).
//! A run the server attributes to another message, a run that was running when our input was
//! queued, and a run that streams while our input still waits in the server's queue are
//! *foreign*: their frames never end, and never feed, a turn of ours.
//!
//! The stall: letta-code 0.32.18 pumps its input queue only through the socket of the
//! connection whose work just settled (`scheduleQueuePump(runtime, socket, …)` drops the pump
//! when that socket is closed). An input queued behind the work of a closed session therefore
//! waits forever. A queued turn with an idle server is re-pumped with `resume_queue` (which the
//! server answers by pumping through the socket that asked), a few times, with backoff; the
//! input itself is never sent twice.

use super::in_flight::Key;
use super::TurnCoordinator;
use crate::protocol::frames::{FrameBody, LoopStatusFrame, ParsedFrame, QueueUpdateFrame};

/// How long after a turn that paused for an approval the server may still pump its queue
/// through our socket: closing 3 s after such a turn's `result` was measured to avoid the
/// stalled queue against letta-code 0.32.18 (tests/package/remote-handover.test.mjs).
pub const APPROVAL_PUMP_WINDOW_MS: u64 = 3_000;

impl TurnCoordinator {
    /// Whether the server still works on what our completed turns started: a run of ours has
    /// no `turn_finished` yet, or the server was busy when our last turn ended. A closing
    /// session keeps its socket open (bounded) while this holds, because the server resumes
    /// its input queue through the socket of the work that settles (see the module docs).
    pub fn is_settling(&self) -> bool {
        self.runs.is_settling()
    }

    /// The end of the window after our latest turn that paused for an approval, in which the
    /// server may still pump its input queue through our socket: letta-code answers an
    /// `approval_response` with `scheduleQueuePump(runtime, socket)` chained on the runtime's
    /// message queue, which runs once the continued turn settled and returns at once if that
    /// socket is closed. No frame says when it ran, so a session closed within the window
    /// keeps its socket until the window ends.
    pub fn approval_pump_window(&self) -> Option<u64> {
        self.runs.approval_pump_window()
    }

    /// After close: frames only update what [`Self::is_settling`] reads.
    pub(super) fn observe_after_close(&mut self, frame: &ParsedFrame<'_>, now_ms: u64) {
        match &frame.body {
            FrameBody::TurnFinished(finished) => {
                if let Some(run) = finished.run_id.as_deref() {
                    self.runs.turn_finished(run);
                }
            }
            FrameBody::LoopStatus(status) => self.note_loop_status(status, now_ms),
            _ => {}
        }
    }

    /// Remembers the `request_id` of the `input` that sent turn `client_message_id`, so its
    /// `input_accepted` is matched exactly.
    pub fn note_input_request(&mut self, client_message_id: &str, request_id: &str) {
        if let Some(turn) = self.turns.find_mut(Key::Message(client_message_id)) {
            turn.input_request_id = Some(request_id.to_owned());
        }
    }

    /// Whether the session must send `resume_queue` now (taken once per due time).
    pub fn take_resume_queue(&mut self) -> bool {
        self.stall.take_resume_due()
    }

    /// Whether `client_message_id` is one of our in-flight turns.
    fn is_our_message(&mut self, client_message_id: &str) -> bool {
        self.turns
            .find_mut(Key::Message(client_message_id))
            .is_some()
    }

    /// `input_accepted`: matched by request id, else the oldest unacknowledged turn (the server
    /// acknowledges inputs in order). A queued input of the active turn marks the runs running
    /// now as foreign: they are what the input waits behind.
    pub(super) fn on_input_accepted(
        &mut self,
        request_id: Option<&str>,
        accepted: Option<bool>,
        disposition: Option<&str>,
        now_ms: u64,
    ) {
        if accepted != Some(true) {
            return;
        }
        let by_request =
            request_id.is_some_and(|id| self.turns.find_mut(Key::Request(id)).is_some());
        let turn = match (by_request, request_id) {
            (true, Some(id)) => self.turns.find_mut(Key::Request(id)),
            _ => self.turns.find_mut(Key::Unacknowledged),
        };
        let Some(turn) = turn else {
            return;
        };
        turn.acknowledged = true;
        if disposition != Some("queued") {
            return;
        }
        turn.server_queued = true;
        let id = turn.client_message_id.clone();
        if let Some(active) = self.turns.active().filter(|t| t.client_message_id == id) {
            self.runs.mark_running_foreign(active);
            self.refresh_stall(now_ms);
        }
    }

    /// `update_queue`: a `dequeued` removal of one of our messages lets its runs be ours.
    /// Several of ours dequeued by one frame are run as one turn (see `batch`).
    pub(super) fn on_queue_removals(&mut self, queue: &QueueUpdateFrame<'_>, now_ms: u64) {
        let dequeued: Vec<&str> = queue
            .removed
            .iter()
            .filter(|removed| removed.disposition.as_deref() == Some("dequeued"))
            .filter_map(|removed| removed.client_message_id.as_deref())
            .collect();
        self.batch_together(&dequeued, now_ms);
        for removed in &queue.removed {
            if removed.disposition.as_deref() != Some("dequeued") {
                continue;
            }
            let Some(id) = removed.client_message_id.as_deref() else {
                continue;
            };
            if let Some(turn) = self.turns.find_mut(Key::Message(id)) {
                turn.server_queued = false;
            }
        }
        self.refresh_stall(now_ms);
    }

    /// The server's run → client-message map: runs serving our active turn become its runs;
    /// runs serving only other messages become foreign (and leave our turn if it held them).
    /// A run serving several of our messages runs them as one turn (see `batch`).
    pub(super) fn apply_run_map(&mut self, status: &LoopStatusFrame<'_>, now_ms: u64) {
        for (run, ids) in &status.client_message_ids_by_run_id {
            if ids.len() > 1 {
                let listed: Vec<&str> = ids.iter().map(|id| id.as_ref()).collect();
                self.batch_together(&listed, now_ms);
            }
            let active_id = self.turns.active().map(|t| t.client_message_id.as_str());
            if active_id.is_some_and(|id| ids.iter().any(|listed| listed == id)) {
                self.runs.claim(run);
                if let Some(turn) = self.turns.active_mut() {
                    turn.server_queued = false;
                    turn.evidence = true;
                    turn.add_run(run);
                }
            } else if !ids.is_empty() && !ids.iter().any(|id| self.is_our_message(id)) {
                self.runs.mark_foreign(run);
                if let Some(turn) = self.turns.active_mut() {
                    turn.drop_run(run);
                }
            }
        }
    }

    /// Remembers what the latest loop status says is running (for `input_accepted` and the
    /// stall watch).
    pub(super) fn note_loop_status(&mut self, status: &LoopStatusFrame<'_>, now_ms: u64) {
        self.runs.note_loop_status(status);
        self.refresh_stall(now_ms);
    }

    /// A foreign run finished: whatever it held up may run now.
    pub(super) fn foreign_run_finished(&mut self, run: &str, now_ms: u64) {
        self.runs.foreign_run_finished(run);
        self.refresh_stall(now_ms);
    }

    /// Arms the stall watch while the active turn waits in the server's queue on an idle
    /// server; disarms it otherwise (a new turn starts with a fresh budget).
    pub(super) fn refresh_stall(&mut self, now_ms: u64) {
        let waiting = self.turns.active().is_some_and(|t| t.server_queued);
        self.stall.refresh(waiting, self.runs.server_busy(), now_ms);
    }
}
