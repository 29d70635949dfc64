//! What the coordinator knows about the server's runs besides the turns in flight: which runs
//! settled, which serve no turn of ours (foreign, see `correlation`), which runs of our
//! completed turns have no `turn_finished` yet, what the latest loop status said was running,
//! and whether this server sends `turn_finished` at all. Its fields are private: the
//! coordinator reports what it sees (a loop status, a finished run, a completed turn) and asks
//! for decisions (is this run's frame dropped, is the server still settling our work).

use super::correlation::APPROVAL_PUMP_WINDOW_MS;
use super::settled::SettledRuns;
use super::turn::{lists, unlist, Turn};
use crate::protocol::frames::LoopStatusFrame;

/// Bound on the runs of completed turns whose `turn_finished` is awaited.
const MAX_UNFINISHED_RUNS: usize = 16;

/// The coordinator's record of server runs and server activity.
#[derive(Debug, Default)]
pub(super) struct RunLedger {
    /// Runs of turns that ended (ours, foreign ones that finished, orphaned receipts).
    settled: SettledRuns,
    /// Runs that serve no turn of ours: their frames are dropped.
    foreign: SettledRuns,
    /// Runs of our completed turns whose `turn_finished` has not arrived (an aborted turn ends
    /// on idle before it): the server is still working on them.
    unfinished: Vec<String>,
    /// `active_run_ids` of the latest loop status.
    last_active: Vec<String>,
    /// The latest loop status showed the server working (not idle, or a run active).
    server_busy: bool,
    /// The server has sent a `turn_finished` (letta-code 0.30.3+).
    sends_turn_finished: bool,
    /// A turn of ours completed in this session.
    completed_any: bool,
    /// Until when the server may still pump its input queue through our socket after a turn
    /// that paused for an approval (see `TurnCoordinator::approval_pump_window`).
    approval_pump_until: Option<u64>,
}

impl RunLedger {
    /// Whether `run` settled recently (its late frames and duplicate receipts are dropped).
    pub fn is_settled(&self, run: &str) -> bool {
        self.settled.contains(run)
    }

    /// Whether `run` serves no turn of ours.
    pub fn is_foreign(&self, run: &str) -> bool {
        self.foreign.contains(run)
    }

    /// Whether frames of `run` are dropped: it settled, or it is foreign.
    pub fn is_dropped(&self, run: &str) -> bool {
        self.is_settled(run) || self.is_foreign(run)
    }

    /// Whether the loop status lists a run that has not settled (it may still end our turn).
    pub fn lists_unsettled_run(&self, status: &LoopStatusFrame<'_>) -> bool {
        status
            .active_run_ids
            .iter()
            .any(|run| !self.is_settled(run))
    }

    /// Whether the latest loop status showed the server working.
    pub fn server_busy(&self) -> bool {
        self.server_busy
    }

    /// Whether this server has proven that it sends `turn_finished`.
    pub fn sends_turn_finished(&self) -> bool {
        self.sends_turn_finished
    }

    /// Whether the server still works on what our completed turns started (see
    /// `TurnCoordinator::is_settling`).
    pub fn is_settling(&self) -> bool {
        !self.unfinished.is_empty() || (self.completed_any && self.server_busy)
    }

    /// The end of the approval pump window after our latest turn that paused for an approval.
    pub fn approval_pump_window(&self) -> Option<u64> {
        self.approval_pump_until
    }

    /// Settles `run` (an orphaned receipt).
    pub fn settle(&mut self, run: &str) {
        self.settled.insert(run);
    }

    /// `run` serves no turn of ours.
    pub fn mark_foreign(&mut self, run: &str) {
        self.foreign.insert(run);
    }

    /// The server attributes `run` to our active turn: it is not foreign any more.
    pub fn claim(&mut self, run: &str) {
        self.foreign.remove(run);
    }

    /// Our active turn's input was queued: every run running now but not the turn's is what
    /// the input waits behind, so foreign.
    pub fn mark_running_foreign(&mut self, active: &Turn) {
        for run in &self.last_active {
            if !active.has_run(run) {
                self.foreign.insert(run);
            }
        }
    }

    /// A `turn_finished` for `run` arrived: no completed turn of ours waits on it any more.
    pub fn turn_finished(&mut self, run: &str) {
        unlist(&mut self.unfinished, run);
    }

    /// A `turn_finished` was handled: this server sends them.
    pub fn note_sends_turn_finished(&mut self) {
        self.sends_turn_finished = true;
    }

    /// Remembers what the latest loop status says is running.
    pub fn note_loop_status(&mut self, status: &LoopStatusFrame<'_>) {
        self.last_active.clear();
        for run in &status.active_run_ids {
            self.last_active.push(run.as_ref().to_owned());
        }
        self.server_busy = status.status != "WAITING_ON_INPUT" || !status.active_run_ids.is_empty();
    }

    /// A foreign run finished: it settles and stops counting as running.
    pub fn foreign_run_finished(&mut self, run: &str) {
        self.settled.insert(run);
        unlist(&mut self.last_active, run);
        if self.last_active.is_empty() {
            self.server_busy = false;
        }
    }

    /// Our turn `turn` ended at `now_ms`: its runs settle, those whose `turn_finished` is still
    /// to come are awaited (when this server or the turn's acknowledgement says it will come),
    /// and a turn that paused for an approval opens the approval pump window.
    pub fn turn_completed(&mut self, turn: &Turn, now_ms: u64) {
        self.completed_any = true;
        if turn.requires_approval_stop {
            self.approval_pump_until = Some(now_ms.saturating_add(APPROVAL_PUMP_WINDOW_MS));
        }
        let tracks_finish = turn.acknowledged || self.sends_turn_finished;
        for run in &turn.run_ids {
            self.settled.insert(run);
            if tracks_finish
                && !lists(&turn.finished_runs, run)
                && self.unfinished.len() < MAX_UNFINISHED_RUNS
            {
                self.unfinished.push(run.clone());
            }
        }
    }
}
