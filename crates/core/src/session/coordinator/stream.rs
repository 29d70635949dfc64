//! `stream_delta` handling: settled-run filter, grace deferral, activation, evidence,
//! normalization and the delta-driven terminals (streamed stop reason, usage, errors).

use super::turn::{lists, Outcome, Phase};
use super::{TurnCoordinator, TRAILING_USAGE_GRACE_MS};
use crate::protocol::delta::StreamDelta;
use crate::protocol::frames::ParsedFrame;
use crate::protocol::normalize::normalize_delta;
use crate::protocol::sdk_message::SdkMessage;

/// Message types that prove the server is working on the turn (spec §3.7), besides
/// `usage_statistics`/`stop_reason` carrying a `run_id`.
fn is_evidence(message_type: Option<&str>, has_run_id: bool) -> bool {
    match message_type {
        Some(
            "assistant_message"
            | "reasoning_message"
            | "tool_call_message"
            | "approval_request_message"
            | "tool_return_message"
            | "error_message"
            | "loop_error",
        ) => true,
        Some("usage_statistics" | "stop_reason") => has_run_id,
        _ => false,
    }
}

impl TurnCoordinator {
    pub(super) fn on_stream_delta(
        &mut self,
        frame: &ParsedFrame<'_>,
        delta: &StreamDelta<'_>,
        now_ms: u64,
    ) {
        let message_type = delta.message_type();
        // A ping is nobody's evidence and yields nothing.
        if message_type == Some("ping") {
            return;
        }
        let run_id = delta.run_id();
        if run_id.is_some_and(|run| self.runs.is_dropped(run)) {
            return;
        }
        if self.in_finishing_phase() && !self.belongs_to_finishing_turn(run_id) {
            self.deferred.push_delta(frame.raw, run_id.is_some());
            return;
        }
        let is_usage = message_type == Some("usage_statistics");
        let is_stop = message_type == Some("stop_reason");
        if !is_usage && !is_stop {
            self.activate_next_queued(now_ms);
        }
        // While our input waits in the server's queue, a run that streams is another's
        // (dropped), and a run-less delta is shown but not ours.
        let ours = self.turns.active().is_none_or(|t| t.may_own(run_id));
        if !ours {
            if let Some(run) = run_id {
                self.runs.mark_foreign(run);
                return;
            }
        }
        if let Some(turn) = self.turns.active_mut().filter(|_| ours) {
            if is_evidence(message_type, run_id.is_some()) {
                turn.evidence = true;
                if let Some(run) = run_id {
                    turn.add_run(run);
                }
            }
        }

        let message = normalize_delta(delta, &self.config.label, &mut self.uuids);
        let mut error_outcome = None;
        match &message {
            Some(SdkMessage::Assistant(text)) => {
                if let Some(turn) = self.turns.active_mut().filter(|_| ours) {
                    turn.assistant_text.push_str(&text.content);
                }
            }
            Some(SdkMessage::Error(error)) => error_outcome = Some(Outcome::from_error(error)),
            _ => {}
        }
        if let Some(message) = message {
            self.out.push(message);
        }
        if !ours {
            return;
        }

        if is_stop {
            self.on_stream_stop(delta.stop_reason(), run_id, now_ms);
        } else if is_usage {
            self.on_usage(run_id, now_ms);
        } else if let Some(outcome) = error_outcome {
            // An error fails the turn unless `turn_finished` already decided it.
            if self
                .turns
                .active()
                .is_some_and(|t| !t.terminal.is_authoritative())
            {
                self.complete_active(outcome, now_ms);
            }
        }
    }

    /// During a grace: a delta belongs to the finishing turn when its run is one of the turn's,
    /// or it has no run and the stream has not moved on to another run.
    fn belongs_to_finishing_turn(&self, run_id: Option<&str>) -> bool {
        match (run_id, self.turns.active()) {
            (Some(run), Some(turn)) => turn.has_run(run),
            (None, Some(_)) => self.deferred.stream_on_finishing_turn(),
            (_, None) => false,
        }
    }

    /// A streamed `stop_reason`: records a pending terminal (never ends the turn by itself);
    /// `requires_approval` only marks the turn; during a stream-tail wait it switches to the
    /// usage grace (or settles at once if that run's usage already arrived).
    fn on_stream_stop(&mut self, stop_reason: Option<&str>, run_id: Option<&str>, now_ms: u64) {
        let Some(turn) = self.turns.active_mut() else {
            return;
        };
        if stop_reason == Some("requires_approval") {
            turn.requires_approval_stop = true;
            return;
        }
        turn.runless_usage_after_stop = false;
        match turn.terminal.phase {
            Phase::None | Phase::Streamed => {
                turn.terminal
                    .set(Phase::Streamed, Outcome::stop(stop_reason));
            }
            Phase::StreamTail { .. } => {
                if run_id.is_some_and(|run| turn.usage_seen_for(run)) {
                    self.complete_pending(now_ms);
                } else {
                    turn.terminal.phase = Phase::Grace {
                        deadline: now_ms.saturating_add(TRAILING_USAGE_GRACE_MS),
                        authoritative: true,
                    };
                }
            }
            Phase::Grace { .. } => {}
        }
    }

    /// `usage_statistics` attributed to the active turn: remembered, and settles a running grace.
    fn on_usage(&mut self, run_id: Option<&str>, now_ms: u64) {
        let Some(turn) = self.turns.active_mut() else {
            return;
        };
        match run_id {
            Some(run) => {
                if !lists(&turn.usage_runs, run) {
                    turn.usage_runs.push(run.to_owned());
                }
            }
            None => {
                if turn.terminal.stream_stop_seen() || turn.terminal.is_authoritative() {
                    turn.runless_usage_after_stop = true;
                }
            }
        }
        if matches!(turn.terminal.phase, Phase::Grace { .. }) {
            self.complete_pending(now_ms);
        }
    }
}
