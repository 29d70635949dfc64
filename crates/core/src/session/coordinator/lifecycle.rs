//! Timers, deferred-frame replay and closing (spec §3.9, §3.11).

use super::turn::Outcome;
use super::{transport_closed_detail, TurnCoordinator};
use crate::protocol::errors::ErrorCode;
use crate::protocol::frames::parse_frame;
use crate::protocol::sdk_message::{ErrorMessage, SdkMessage};

impl TurnCoordinator {
    /// Fires every timer due at `now_ms`: grace and stream-tail deadlines settle the finishing
    /// turn (then deferred frames replay); the turn timeout fails the active turn with
    /// `Timed out waiting for <label> turn`.
    pub fn on_tick(&mut self, now_ms: u64) {
        if self.closed {
            return;
        }
        while let Some(turn) = self.turns.active() {
            if turn.terminal.deadline().is_some_and(|d| d <= now_ms) {
                self.settle_finishing_turn(now_ms);
                continue;
            }
            let timed_out =
                !turn.terminal.is_authoritative() && turn.timeout_at.is_some_and(|t| t <= now_ms);
            if timed_out {
                let detail = "Timed out waiting for ".to_owned() + &self.config.label + " turn";
                self.fail_active(ErrorCode::Error, &detail, Some(false), now_ms);
                self.replay_deferred(now_ms);
                continue;
            }
            break;
        }
        self.stall.tick(now_ms);
    }

    /// Closes the stream (the caller closed the session). A turn whose terminal is pending is
    /// completed first; other in-flight turns are dropped without a result.
    pub fn close(&mut self, now_ms: u64) {
        if self.closed {
            return;
        }
        self.flush_pending_terminals(now_ms);
        self.finish_close();
    }

    /// Closes after the transport dropped (spec §3.11): turns with a pending terminal complete
    /// first; then an active turn gets an `error` and a failed `result` (`stream_closed`,
    /// recoverable); with nothing in flight only the `error` is emitted. When flushing pending
    /// terminals settled everything, no error follows (the connection loss interrupted nothing).
    pub fn close_with_error(&mut self, detail: &str, now_ms: u64) {
        if self.closed {
            return;
        }
        let flushed = self.flush_pending_terminals(now_ms);
        if self.turns.active().is_some() {
            self.fail_active(ErrorCode::StreamClosed, detail, Some(true), now_ms);
        } else if !flushed {
            self.out
                .push(error_message(ErrorCode::StreamClosed, detail, Some(true)));
        }
        self.finish_close();
    }

    /// [`Self::close_with_error`] with the spec's detail text for an unexpected transport close.
    pub fn close_transport_dropped(&mut self, now_ms: u64) {
        let detail = transport_closed_detail(&self.config.label);
        self.close_with_error(&detail, now_ms);
    }

    /// Every connection dropped and the session will reopen (issue 11): turns with a pending
    /// terminal complete first; an active turn the server acknowledged ends with the `error`
    /// and the recoverable `stream_closed` result (the server cancelled it); acknowledged
    /// queued turns are dropped as on close. Turns whose input the server never acknowledged
    /// stay: the session sends that input again once it is back. The stream stays open.
    pub fn connection_lost(&mut self, now_ms: u64) {
        if self.closed {
            return;
        }
        self.flush_pending_terminals(now_ms);
        if self.turns.active().is_some_and(|turn| turn.acknowledged) {
            let detail = transport_closed_detail(&self.config.label);
            self.fail_active(ErrorCode::StreamClosed, &detail, Some(true), now_ms);
        }
        self.turns.drop_acknowledged_queued();
        self.deferred.clear();
        self.activate_next_queued(now_ms);
    }

    fn finish_close(&mut self) {
        self.closed = true;
        self.turns.clear();
        self.deferred.clear();
    }

    /// Completes every turn with a pending terminal, replaying deferred frames in between
    /// (they may bring further terminals). Returns whether any turn completed.
    fn flush_pending_terminals(&mut self, now_ms: u64) -> bool {
        let mut flushed = false;
        while self.complete_pending(now_ms) {
            flushed = true;
            self.replay_deferred(now_ms);
        }
        flushed
    }

    /// Settles the turn of the running grace/tail timer and replays what it deferred.
    pub(super) fn settle_finishing_turn(&mut self, now_ms: u64) {
        self.complete_pending(now_ms);
        self.replay_deferred(now_ms);
    }

    /// Emits the `error` message, then the failed result of the active turn.
    fn fail_active(
        &mut self,
        code: ErrorCode,
        detail: &str,
        recoverable: Option<bool>,
        now_ms: u64,
    ) {
        if self.turns.active().is_none() {
            return;
        }
        self.out.push(error_message(
            code,
            detail,
            Some(recoverable.unwrap_or(false)),
        ));
        self.complete_active(Outcome::failure(code, detail, recoverable), now_ms);
    }

    /// Replays deferred frames in arrival order once no grace is running. Frames that arrive
    /// for another run during a grace started by the replay are deferred again, in order.
    pub(super) fn replay_deferred(&mut self, now_ms: u64) {
        if self.deferred.is_empty() || self.in_finishing_phase() {
            return;
        }
        let mut pending = self.deferred.take().into_iter();
        while let Some(text) = pending.next() {
            if let Some(frame) = parse_frame(&text) {
                self.dispatch(&frame, now_ms);
            }
            if !self.in_finishing_phase() && !self.deferred.is_empty() {
                // A grace ended during the replay: what it deferred comes before the rest.
                let mut front = self.deferred.take();
                front.extend(pending);
                pending = front.into_iter();
            }
        }
    }
}

fn error_message(code: ErrorCode, detail: &str, recoverable: Option<bool>) -> SdkMessage {
    SdkMessage::Error(ErrorMessage {
        message: detail.to_owned(),
        error_code: Some(code),
        approval_conflict: None,
        recoverable,
        error_detail: Some(detail.to_owned()),
        stop_reason: code.as_str().to_owned(),
        run_id: None,
    })
}
