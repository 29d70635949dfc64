//! The turn coordinator (spec §3.7–§3.9, §3.11), sans-IO.
//!
//! It correlates server frames with the turns this client sent, turns `stream_delta`s into
//! `SDKMessage`s and decides when a turn ends. It never reads a clock and never does I/O: the
//! caller passes `now_ms` into every call, fires [`TurnCoordinator::on_tick`] at
//! [`TurnCoordinator::next_deadline`], and drains [`TurnCoordinator::pop_message`].
//!
//! Frames are runtime-filtered **here** (`sameRuntime`, spec §3.3): callers may pass every frame.
//! Frames other than `stream_delta`, `update_loop_status`, `turn_finished` and `update_queue`
//! are ignored (approvals, external tools, device status and responses belong to the session).
//!
//! Merged upstream behaviours (spec §3.9):
//! - streamed `stop_reason` records a pending terminal; `turn_finished` is authoritative and
//!   starts a 100 ms trailing-usage grace (usage during it settles at once);
//! - if `turn_finished` overtakes the stream (turn has evidence, no streamed stop yet), wait up to
//!   1 000 ms for the stream's `stop_reason`, then the usage grace;
//! - while a grace/tail timer runs, turn-scoped frames of other runs are deferred (stored as frame
//!   text) and replayed after the result;
//! - orphaned `turn_finished` emits a standalone result; idle with active run ids keeps the turn
//!   open once the server has proven it sends `turn_finished`.

mod batch;
mod correlation;
mod deferral;
mod echo;
mod in_flight;
mod ledger;
mod lifecycle;
mod outbox;
mod result;
mod settled;
mod stall;
mod status;
mod stream;
mod turn;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_capture;
#[cfg(test)]
mod tests_correlation;
#[cfg(test)]
mod tests_lifecycle;

use crate::protocol::frames::{parse_frame, FrameBody, ParsedFrame};
use crate::protocol::normalize::UuidCounter;
use crate::protocol::runtime::Runtime;
use crate::protocol::sdk_message::SdkMessage;
pub use correlation::APPROVAL_PUMP_WINDOW_MS;
use deferral::Deferral;
use in_flight::InFlight;
use ledger::RunLedger;
use outbox::Outbox;
use stall::StallWatch;
pub use stall::{MAX_RESUME_ATTEMPTS, STALL_GRACE_MS};
use turn::{Outcome, Turn};

/// Trailing-usage grace after `turn_finished` (`TRAILING_USAGE_GRACE_MS`).
pub const TRAILING_USAGE_GRACE_MS: u64 = 100;
/// How long `turn_finished` waits for the stream's own `stop_reason` (`STREAM_TAIL_GRACE_MS`).
pub const STREAM_TAIL_GRACE_MS: u64 = 1_000;
/// Bound on frames deferred during one grace; beyond it the finishing turn settles at once.
pub const MAX_DEFERRED_FRAMES: usize = 1_024;

/// Coordinator settings.
#[derive(Debug, Clone)]
pub struct CoordinatorConfig {
    /// `app-server` or `cloud`: used in synthetic uuids and error texts.
    pub label: String,
    /// Per-turn timeout; `None` = turns never time out.
    pub request_timeout_ms: Option<u64>,
    /// The session has a `canUseTool` path (approvals arrive as control requests), so
    /// `WAITING_ON_APPROVAL` / `requires_approval` keep the turn open.
    pub auto_handles_tool_approvals: bool,
}

impl CoordinatorConfig {
    /// Defaults: no turn timeout, approvals not auto-handled.
    pub fn new(label: impl Into<String>) -> Self {
        CoordinatorConfig {
            label: label.into(),
            request_timeout_ms: None,
            auto_handles_tool_approvals: false,
        }
    }
}

/// The detail text used when the transport drops unexpectedly (spec §3.11).
pub fn transport_closed_detail(label: &str) -> String {
    "The ".to_owned()
        + label
        + " connection closed unexpectedly; resume the conversation to continue."
}

/// Turn correlation and the `SDKMessage` queue of one session.
#[derive(Debug)]
pub struct TurnCoordinator {
    config: CoordinatorConfig,
    runtime: Runtime,
    /// The active turn and the queued ones (see `in_flight`).
    turns: InFlight,
    /// Messages for `stream()` (see `outbox`).
    out: Outbox,
    /// Frames deferred during a grace (see `deferral`).
    deferred: Deferral,
    uuids: UuidCounter,
    /// Settled and foreign runs, and what the server is still working on (see `ledger`).
    runs: RunLedger,
    /// The stalled-queue watch of the active turn.
    stall: StallWatch,
    closed: bool,
}

impl TurnCoordinator {
    /// A coordinator for the session bound to `runtime`.
    pub fn new(config: CoordinatorConfig, runtime: Runtime) -> Self {
        TurnCoordinator {
            config,
            runtime,
            turns: InFlight::default(),
            out: Outbox::default(),
            deferred: Deferral::default(),
            uuids: UuidCounter::default(),
            runs: RunLedger::default(),
            stall: StallWatch::default(),
            closed: false,
        }
    }

    /// The session runtime frames are filtered against.
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// The configuration.
    pub fn config(&self) -> &CoordinatorConfig {
        &self.config
    }

    /// Starts tracking a sent turn. It becomes active at once when nothing is active or queued;
    /// otherwise it waits in FIFO order until server activity activates it. Ignored after close.
    pub fn track_sent_turn(
        &mut self,
        now_ms: u64,
        client_message_id: String,
        otid: Option<String>,
    ) {
        self.track(Turn::new(client_message_id, otid), now_ms);
    }

    /// [`Self::track_sent_turn`] for a chat that shows the user's own messages: when the turn
    /// starts (see `echo`), a [`SdkMessage::UserEcho`] of `text` comes before its first row.
    pub fn track_echoed_turn(
        &mut self,
        now_ms: u64,
        client_message_id: String,
        otid: Option<String>,
        text: String,
    ) {
        let mut turn = Turn::new(client_message_id, otid);
        turn.echo = Some(text);
        self.track(turn, now_ms);
    }

    fn track(&mut self, turn: Turn, now_ms: u64) {
        if self.closed {
            return;
        }
        if let Some(turn) = self.turns.enqueue(turn) {
            self.activate(turn, now_ms);
        }
    }

    /// Stops tracking a turn that was never sent (e.g. the input write failed). No result is
    /// emitted. Returns whether a turn with that id was tracked.
    pub fn remove_tracked_turn(&mut self, client_message_id: &str) -> bool {
        self.turns.remove(client_message_id)
    }

    /// Marks the active turn abort-requested (its idle then ends it as `interrupted`).
    /// Returns whether a turn was active.
    pub fn request_abort(&mut self) -> bool {
        match self.turns.active_mut() {
            Some(turn) => {
                turn.abort_requested = true;
                true
            }
            None => false,
        }
    }

    /// Feeds one parsed frame. Frames for another runtime and frame types the coordinator does
    /// not handle are ignored; nothing here panics on odd input.
    pub fn handle_frame(&mut self, frame: &ParsedFrame<'_>, now_ms: u64) {
        if !frame.scope.matches(&self.runtime) {
            return;
        }
        if self.closed {
            self.observe_after_close(frame, now_ms);
            return;
        }
        if self.deferred.is_full() && self.in_finishing_phase() {
            self.settle_finishing_turn(now_ms);
        }
        self.dispatch(frame, now_ms);
        self.replay_deferred(now_ms);
    }

    /// Parses and feeds one frame text (device-status bodies are not parsed). Returns `false`
    /// when the text is not a JSON object (dropped).
    pub fn handle_text(&mut self, text: &str, now_ms: u64) -> bool {
        match parse_frame(text) {
            Some(frame) => {
                self.handle_frame(&frame, now_ms);
                true
            }
            None => false,
        }
    }

    /// The next time [`Self::on_tick`] must run (grace, stream-tail or turn timeout), if any.
    pub fn next_deadline(&self) -> Option<u64> {
        if self.closed {
            return None;
        }
        let turn = self.turns.active()?;
        let timeout = turn
            .timeout_at
            .filter(|_| !turn.terminal.is_authoritative());
        let earliest = match (turn.terminal.deadline(), timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match (earliest, self.stall.deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The next message to yield, FIFO.
    pub fn pop_message(&mut self) -> Option<SdkMessage> {
        self.out.pop()
    }

    /// Every waiting message as one JSON array, in FIFO order, and the queue emptied; `None`
    /// when nothing waits. One serializer pass for the whole batch instead of a `String` per
    /// message joined by hand: simpler, and as fast (`bench/run ab`, bench/RESULTS.md).
    pub fn take_messages_json(&mut self) -> Option<String> {
        self.out.take_json()
    }

    /// How many messages are waiting.
    pub fn pending_messages(&self) -> usize {
        self.out.len()
    }

    /// Whether a turn is active or queued.
    pub fn has_in_flight_turn(&self) -> bool {
        !self.turns.is_empty()
    }

    /// When the active turn became active.
    pub fn active_turn_started_at(&self) -> Option<u64> {
        self.turns.active().map(|t| t.started_at)
    }

    /// The active turn's `client_message_id`.
    pub fn active_client_message_id(&self) -> Option<&str> {
        self.turns.active().map(|t| t.client_message_id.as_str())
    }

    /// The active turn's caller-supplied otid, if any.
    pub fn active_otid(&self) -> Option<&str> {
        self.turns.active().and_then(|t| t.otid.as_deref())
    }

    /// Closed and drained: the stream has ended (`nextMessage` resolves `null`).
    pub fn is_closed(&self) -> bool {
        self.closed && self.out.is_empty()
    }

    /// Close was requested (frames are ignored from now on); messages may still be queued.
    pub fn close_requested(&self) -> bool {
        self.closed
    }

    fn activate(&mut self, mut turn: Turn, now_ms: u64) {
        echo::echo_started(&mut self.out, &mut turn);
        turn.started_at = now_ms;
        turn.timeout_at = self
            .config
            .request_timeout_ms
            .map(|ms| now_ms.saturating_add(ms));
        self.turns.start(turn);
        self.refresh_stall(now_ms);
    }

    /// Activates the next queued turn when none is active (protocol activity started it).
    fn activate_next_queued(&mut self, now_ms: u64) {
        if let Some(next) = self.turns.next_to_start() {
            self.activate(next, now_ms);
        }
    }

    /// A grace or stream-tail timer is running on the active turn.
    fn in_finishing_phase(&self) -> bool {
        self.turns
            .active()
            .is_some_and(|t| t.terminal.deadline().is_some())
    }

    fn dispatch(&mut self, frame: &ParsedFrame<'_>, now_ms: u64) {
        match &frame.body {
            FrameBody::QueueUpdate(queue) => {
                self.on_queue_removals(queue, now_ms);
                self.out.push(queue.to_message());
            }
            FrameBody::InputAccepted(accepted) => self.on_input_accepted(
                frame.request_id.as_deref(),
                accepted.accepted,
                accepted.disposition.as_deref(),
                now_ms,
            ),
            FrameBody::LoopStatus(status) => self.on_loop_status(frame, status, now_ms),
            FrameBody::TurnFinished(finished) => self.on_turn_finished(frame, finished, now_ms),
            FrameBody::StreamDelta(delta) => self.on_stream_delta(frame, delta, now_ms),
            _ => {}
        }
    }

    /// Stores a frame for replay after the finishing turn's result.
    fn defer(&mut self, frame: &ParsedFrame<'_>) {
        self.deferred.push(frame.raw);
    }

    /// Ends the active turn with its pending terminal's outcome, if it has one. Returns whether
    /// a turn completed.
    fn complete_pending(&mut self, now_ms: u64) -> bool {
        match self
            .turns
            .active_mut()
            .and_then(|turn| turn.terminal.take_outcome())
        {
            Some(outcome) => {
                self.complete_active(outcome, now_ms);
                true
            }
            None => false,
        }
    }

    /// Ends the active turn on a plain stop reason (`None`: on idle).
    #[inline(never)]
    fn complete_stop(&mut self, stop_reason: Option<&str>, now_ms: u64) {
        self.complete_active(Outcome::stop(stop_reason), now_ms);
    }

    /// Ends the active turn with `outcome`: settles its runs and queues the result.
    fn complete_active(&mut self, outcome: Outcome, now_ms: u64) {
        let Some(turn) = self.turns.take_active() else {
            return;
        };
        self.stall.reset();
        self.runs.turn_completed(&turn, now_ms);
        self.deferred.turn_ended();
        let batch = Self::batch_label(&turn);
        let message = result::build_result(
            outcome.clone(),
            result::ResultContext {
                assistant_text: &turn.assistant_text,
                duration_ms: now_ms.saturating_sub(turn.started_at),
                conversation_id: Some(&self.runtime.conversation_id),
                run_ids: turn.run_ids.clone(),
                batch: batch.clone(),
            },
        );
        self.out.push(SdkMessage::Result(message));
        if let Some(batch) = batch {
            self.end_carried(&turn, &outcome, &batch, now_ms);
        }
    }
}
