//! `update_loop_status` (spec §3.8, 7217a3f8 idle-with-active-run) and `turn_finished`
//! (authoritative terminal, orphaned receipts, stream-tail wait).

use super::result::{build_result, ResultContext};
use super::turn::{Outcome, Phase};
use super::{TurnCoordinator, STREAM_TAIL_GRACE_MS, TRAILING_USAGE_GRACE_MS};
use crate::protocol::frames::{LoopStatusFrame, ParsedFrame, TurnFinishedFrame};
use crate::protocol::sdk_message::SdkMessage;

impl TurnCoordinator {
    pub(super) fn on_loop_status(
        &mut self,
        frame: &ParsedFrame<'_>,
        status: &LoopStatusFrame<'_>,
        now_ms: u64,
    ) {
        self.apply_run_map(status, now_ms);
        if self.in_finishing_phase() {
            // Only statuses whose runs all belong to the finishing turn are processed now;
            // others (including idle statuses with no runs) wait for its result.
            let all_ours = self.turns.active().is_some_and(|turn| {
                !status.active_run_ids.is_empty()
                    && status.active_run_ids.iter().all(|run| turn.has_run(run))
            });
            if !all_ours {
                self.defer(frame);
                return;
            }
        }
        self.out.push(status.to_message());
        self.note_loop_status(status, now_ms);

        let Some(turn) = self.turns.active_mut() else {
            return;
        };
        for run in &status.active_run_ids {
            if !self.runs.is_dropped(run) && turn.may_own(Some(run)) {
                turn.add_run(run);
            }
        }
        if !(turn.evidence || turn.requires_approval_stop) {
            return;
        }
        match status.status.as_ref() {
            "WAITING_ON_APPROVAL" => {
                // With an approval callback the decision arrives as a control request and the
                // turn continues; without one the turn ends as an approval conflict.
                if self.config.auto_handles_tool_approvals || turn.terminal.is_authoritative() {
                    return;
                }
                self.complete_stop(Some("requires_approval"), now_ms);
            }
            "WAITING_ON_INPUT" => self.on_idle(status, now_ms),
            _ => {}
        }
    }

    fn on_idle(&mut self, status: &LoopStatusFrame<'_>, now_ms: u64) {
        let server_sends_turn_finished = self.runs.sends_turn_finished();
        let Some(turn) = self.turns.active_mut() else {
            return;
        };
        if turn.terminal.is_authoritative() {
            // `turn_finished` decided; an idle overtaking the stream must not cut the reply.
            return;
        }
        if turn.abort_requested {
            self.complete_active(Outcome::interrupted(), now_ms);
            return;
        }
        match turn.terminal.phase {
            Phase::Streamed => {
                // Waiting for `turn_finished`. A server that never sent one would leave the turn
                // open forever, so there the idle confirms the streamed stop after the grace.
                if !server_sends_turn_finished {
                    turn.terminal.phase = Phase::Grace {
                        deadline: now_ms.saturating_add(TRAILING_USAGE_GRACE_MS),
                        authoritative: false,
                    };
                }
                return;
            }
            Phase::Grace { .. } | Phase::StreamTail { .. } => return,
            Phase::None => {}
        }
        if !turn.evidence {
            return;
        }
        if server_sends_turn_finished && self.runs.lists_unsettled_run(status) {
            // The listed run's `turn_finished` (or a later idle without runs) ends the turn.
            return;
        }
        self.complete_stop(None, now_ms);
    }

    pub(super) fn on_turn_finished(
        &mut self,
        frame: &ParsedFrame<'_>,
        finished: &TurnFinishedFrame<'_>,
        now_ms: u64,
    ) {
        let Some(run) = finished.run_id.as_deref() else {
            return;
        };
        self.runs.turn_finished(run);
        if self.runs.is_settled(run) {
            return;
        }
        if self.runs.is_foreign(run) {
            // Another message's run (or one our queued input waited behind): never ours.
            self.foreign_run_finished(run, now_ms);
            return;
        }
        if self.in_finishing_phase() && !self.turns.active().is_some_and(|t| t.has_run(run)) {
            self.defer(frame);
            return;
        }
        self.runs.note_sends_turn_finished();
        self.activate_next_queued(now_ms);
        let auto_approvals = self.config.auto_handles_tool_approvals;
        let Some(turn) = self.turns.active_mut() else {
            self.emit_orphan_result(frame, finished, run);
            return;
        };
        if !turn.may_own(Some(run)) {
            // Our input still waits in the server's queue: this run is someone else's.
            self.runs.mark_foreign(run);
            self.foreign_run_finished(run, now_ms);
            return;
        }
        if !turn.run_ids.is_empty() && !turn.has_run(run) {
            return;
        }
        turn.add_run(run);
        if let Some(turn_id) = finished.turn_id.as_deref() {
            turn.turn_id = Some(turn_id.to_owned());
        }
        let stop = finished.stop_reason.as_ref();
        if stop == "requires_approval" {
            turn.finished_runs.push(run.to_owned());
            turn.requires_approval_stop = true;
            if !auto_approvals {
                self.complete_stop(Some(stop), now_ms);
            }
            return;
        }
        // The server sends one `turn_finished` per turn, for its last run: the runs before it
        // (one paused for an approval) are over too, and none is left for a close to wait on.
        turn.finished_runs.clone_from(&turn.run_ids);
        if turn.terminal.is_authoritative() {
            return;
        }
        let outcome = if turn.abort_requested && stop == "cancelled" {
            Outcome::interrupted()
        } else {
            Outcome::turn_finished(stop, finished.error.as_deref())
        };
        turn.timeout_at = None;
        let stream_stop_seen = turn.terminal.stream_stop_seen();
        let existing_deadline = turn.terminal.deadline();
        let tail = !stream_stop_seen && turn.evidence;
        let phase = if tail {
            Phase::StreamTail {
                deadline: now_ms.saturating_add(STREAM_TAIL_GRACE_MS),
            }
        } else {
            Phase::Grace {
                deadline: existing_deadline
                    .unwrap_or_else(|| now_ms.saturating_add(TRAILING_USAGE_GRACE_MS)),
                authoritative: true,
            }
        };
        turn.terminal.set(phase, outcome);
        if !tail && turn.usage_seen_for(run) {
            self.complete_pending(now_ms);
        }
    }

    /// `turn_finished` for an unsettled run while no turn is active or queued: a standalone
    /// result (`durationMs` 0, the frame's conversation or null), and the run is settled.
    fn emit_orphan_result(
        &mut self,
        frame: &ParsedFrame<'_>,
        finished: &TurnFinishedFrame<'_>,
        run: &str,
    ) {
        self.runs.settle(run);
        let message = build_result(
            Outcome::turn_finished(&finished.stop_reason, finished.error.as_deref()),
            ResultContext {
                assistant_text: "",
                duration_ms: 0,
                conversation_id: frame.scope.conversation_id(),
                run_ids: vec![run.to_owned()],
                batch: None,
            },
        );
        self.out.push(SdkMessage::Result(message));
    }
}
