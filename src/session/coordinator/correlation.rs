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

use super::TurnCoordinator;
use crate::protocol::frames::{FrameBody, LoopStatusFrame, ParsedFrame, QueueUpdateFrame};

/// How long a queued input may wait on an idle server before the queue is re-pumped.
pub const STALL_GRACE_MS: u64 = 1_000;
/// How many `resume_queue` requests one stalled turn may send (backoff doubles each time).
pub const MAX_RESUME_ATTEMPTS: u32 = 4;

/// The stalled-queue watch of the active turn.
#[derive(Debug, Default, Clone)]
pub(crate) struct StallWatch {
    /// When to re-pump, while the active turn waits in the server's queue on an idle server.
    pub at: Option<u64>,
    /// `resume_queue` requests sent for the active turn.
    pub attempts: u32,
    /// A `resume_queue` is due: the session takes it with `take_resume_queue`.
    pub resume_due: bool,
}

impl TurnCoordinator {
    /// Whether the server still works on what our completed turns started: a run of ours has
    /// no `turn_finished` yet, or the server was busy when our last turn ended. A closing
    /// session keeps its socket open (bounded) while this holds, because the server resumes
    /// its input queue through the socket of the work that settles (see the module docs).
    pub fn is_settling(&self) -> bool {
        !self.unfinished_runs.is_empty() || (self.completed_any && self.server_busy)
    }

    /// After close: frames only update what [`Self::is_settling`] reads.
    pub(super) fn observe_after_close(&mut self, frame: &ParsedFrame<'_>, now_ms: u64) {
        match &frame.body {
            FrameBody::TurnFinished(finished) => {
                if let Some(run) = finished.run_id.as_deref() {
                    self.unfinished_runs.retain(|listed| listed != run);
                }
            }
            FrameBody::LoopStatus(status) => self.note_loop_status(status, now_ms),
            _ => {}
        }
    }

    /// Remembers the `request_id` of the `input` that sent turn `client_message_id`, so its
    /// `input_accepted` is matched exactly.
    pub fn note_input_request(&mut self, client_message_id: &str, request_id: &str) {
        let turns = self.active.iter_mut().chain(self.queued.iter_mut());
        for turn in turns {
            if turn.client_message_id == client_message_id {
                turn.input_request_id = Some(request_id.to_owned());
            }
        }
    }

    /// Whether the session must send `resume_queue` now (taken once per due time).
    pub fn take_resume_queue(&mut self) -> bool {
        std::mem::take(&mut self.stall.resume_due)
    }

    /// Whether `client_message_id` is one of our in-flight turns.
    fn is_our_message(&self, client_message_id: &str) -> bool {
        self.active
            .iter()
            .chain(self.queued.iter())
            .any(|turn| turn.client_message_id == client_message_id)
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
        let by_id = |turn: &super::turn::Turn| {
            request_id.is_some() && turn.input_request_id.as_deref() == request_id
        };
        let in_queue = self.queued.iter().position(by_id);
        let active_matches = self.active.as_ref().is_some_and(by_id);
        let target = if active_matches || in_queue.is_some() {
            (active_matches, in_queue)
        } else if self.active.as_ref().is_some_and(|t| !t.acknowledged) {
            (true, None)
        } else {
            (false, self.queued.iter().position(|t| !t.acknowledged))
        };
        let queued = disposition == Some("queued");
        let turn = match target {
            (true, _) => self.active.as_mut(),
            (false, Some(at)) => self.queued.get_mut(at),
            (false, None) => None,
        };
        let Some(turn) = turn else {
            return;
        };
        turn.acknowledged = true;
        if !queued {
            return;
        }
        turn.server_queued = true;
        if target.0 {
            for run in &self.last_active_runs {
                if !turn.has_run(run) {
                    self.foreign.insert(run);
                }
            }
            self.refresh_stall(now_ms);
        }
    }

    /// `update_queue`: a `dequeued` removal of one of our messages lets its runs be ours.
    pub(super) fn on_queue_removals(&mut self, queue: &QueueUpdateFrame<'_>, now_ms: u64) {
        for removed in &queue.removed {
            if removed.disposition.as_deref() != Some("dequeued") {
                continue;
            }
            let Some(id) = removed.client_message_id.as_deref() else {
                continue;
            };
            let turns = self.active.iter_mut().chain(self.queued.iter_mut());
            for turn in turns {
                if turn.client_message_id == id {
                    turn.server_queued = false;
                }
            }
        }
        self.refresh_stall(now_ms);
    }

    /// The server's run → client-message map: runs serving our active turn become its runs;
    /// runs serving only other messages become foreign (and leave our turn if it held them).
    pub(super) fn apply_run_map(&mut self, status: &LoopStatusFrame<'_>) {
        for (run, ids) in &status.client_message_ids_by_run_id {
            let active_id = self.active.as_ref().map(|t| t.client_message_id.as_str());
            if active_id.is_some_and(|id| ids.iter().any(|listed| listed == id)) {
                self.foreign.remove(run);
                if let Some(turn) = self.active.as_mut() {
                    turn.server_queued = false;
                    turn.evidence = true;
                    turn.add_run(run);
                }
            } else if !ids.is_empty() && !ids.iter().any(|id| self.is_our_message(id)) {
                self.foreign.insert(run);
                if let Some(turn) = self.active.as_mut() {
                    turn.drop_run(run);
                }
            }
        }
    }

    /// Remembers what the latest loop status says is running (for `input_accepted` and the
    /// stall watch).
    pub(super) fn note_loop_status(&mut self, status: &LoopStatusFrame<'_>, now_ms: u64) {
        self.last_active_runs.clear();
        for run in &status.active_run_ids {
            self.last_active_runs.push(run.as_ref().to_owned());
        }
        self.server_busy = status.status != "WAITING_ON_INPUT" || !status.active_run_ids.is_empty();
        self.refresh_stall(now_ms);
    }

    /// A foreign run finished: whatever it held up may run now.
    pub(super) fn foreign_run_finished(&mut self, run: &str, now_ms: u64) {
        self.settled.insert(run);
        self.last_active_runs.retain(|listed| listed != run);
        if self.last_active_runs.is_empty() {
            self.server_busy = false;
        }
        self.refresh_stall(now_ms);
    }

    /// Arms the stall watch while the active turn waits in the server's queue on an idle
    /// server; disarms it otherwise (a new turn starts with a fresh budget).
    pub(super) fn refresh_stall(&mut self, now_ms: u64) {
        let waiting = self.active.as_ref().is_some_and(|t| t.server_queued);
        if !waiting {
            self.stall = super::correlation::StallWatch::default();
        } else if self.server_busy {
            self.stall.at = None;
        } else if self.stall.at.is_none() && self.stall.attempts < MAX_RESUME_ATTEMPTS {
            self.stall.at = Some(now_ms.saturating_add(STALL_GRACE_MS));
        }
    }

    /// Fires the stall watch at `now_ms`: a `resume_queue` becomes due, and the next attempt is
    /// scheduled with doubled backoff until the budget is spent.
    pub(super) fn on_stall_tick(&mut self, now_ms: u64) {
        if !self.stall.at.is_some_and(|at| at <= now_ms) {
            return;
        }
        self.stall.resume_due = true;
        self.stall.attempts += 1;
        self.stall.at = (self.stall.attempts < MAX_RESUME_ATTEMPTS)
            .then(|| now_ms.saturating_add(STALL_GRACE_MS << self.stall.attempts.min(8)));
    }
}
