//! A tracked turn, its pending terminal, and the outcome a result is assembled from.

use crate::protocol::errors::{is_failure_stop_reason, ErrorCode};
use crate::protocol::sdk_message::ErrorMessage;

/// How a turn ended (or will end); turned into a `result` by `result::build_result`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Outcome {
    /// Wire stop reason (`None`: the turn ended on idle).
    pub stop_reason: Option<String>,
    /// Explicit success flag (`None`: decided by the stop reason).
    pub success: Option<bool>,
    /// Failure detail.
    pub detail: Option<String>,
    /// Explicit error code.
    pub error_code: Option<ErrorCode>,
    /// Explicit recoverability.
    pub recoverable: Option<bool>,
}

impl Outcome {
    /// Only a stop reason (streamed `stop_reason`, approval wait).
    pub fn stop(stop_reason: Option<&str>) -> Self {
        Outcome {
            stop_reason: stop_reason.map(str::to_owned),
            ..Default::default()
        }
    }

    /// The authoritative terminal of a `turn_finished` receipt.
    pub fn turn_finished(stop_reason: &str, error: Option<&str>) -> Self {
        let success = !is_failure_stop_reason(Some(stop_reason));
        Outcome {
            stop_reason: Some(stop_reason.to_owned()),
            success: Some(success),
            detail: error.map(str::to_owned),
            error_code: if success {
                None
            } else {
                Some(ErrorCode::from_stop_reason(stop_reason).unwrap_or(ErrorCode::Error))
            },
            recoverable: None,
        }
    }

    /// A turn failed by an `error` message built from a delta.
    pub fn from_error(error: &ErrorMessage) -> Self {
        Outcome {
            stop_reason: Some(error.stop_reason.clone()),
            success: Some(false),
            detail: error
                .error_detail
                .clone()
                .or_else(|| Some(error.message.clone())),
            error_code: error.error_code,
            recoverable: None,
        }
    }

    /// A failure with an explicit code (timeout, transport loss, abort).
    pub fn failure(code: ErrorCode, detail: &str, recoverable: Option<bool>) -> Self {
        Outcome {
            stop_reason: Some(code.as_str().to_owned()),
            success: Some(false),
            detail: Some(detail.to_owned()),
            error_code: Some(code),
            recoverable,
        }
    }

    /// An aborted turn that went idle.
    pub fn interrupted() -> Self {
        Outcome::failure(ErrorCode::Interrupted, "Interrupted", None)
    }
}

/// Where the pending-terminal machinery of spec §3.9 stands (the outcome is kept beside it, in
/// [`Terminal`], so moving between phases never moves the outcome).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Nothing pending.
    #[default]
    None,
    /// The stream's `stop_reason` arrived; waiting for `turn_finished` (no timer).
    Streamed,
    /// Trailing-usage grace: settle at `deadline` or as soon as usage arrives. `authoritative`
    /// when the outcome came from `turn_finished` (else from a streamed stop reason that an idle
    /// status confirmed on a server that never sent `turn_finished`).
    Grace {
        /// When to settle without usage.
        deadline: u64,
        /// Whether `turn_finished` decided the outcome.
        authoritative: bool,
    },
    /// `turn_finished` overtook the stream: wait for the stream's `stop_reason` until `deadline`.
    StreamTail {
        /// When to settle without the stream's stop reason.
        deadline: u64,
    },
}

/// A turn's pending terminal: its phase and, unless the phase is `None`, the outcome to settle.
#[derive(Debug, Clone, Default)]
pub(crate) struct Terminal {
    /// The phase.
    pub phase: Phase,
    /// The pending outcome (`None` exactly when the phase is `None`).
    outcome: Option<Outcome>,
}

impl Terminal {
    /// Records a pending `outcome` in `phase`.
    #[inline(never)]
    pub fn set(&mut self, phase: Phase, outcome: Outcome) {
        self.phase = phase;
        self.outcome = Some(outcome);
    }

    /// The timer of a finishing phase (grace or stream tail).
    pub fn deadline(&self) -> Option<u64> {
        match self.phase {
            Phase::Grace { deadline, .. } | Phase::StreamTail { deadline } => Some(deadline),
            _ => None,
        }
    }

    /// Whether `turn_finished` has decided the outcome.
    pub fn is_authoritative(&self) -> bool {
        matches!(
            self.phase,
            Phase::StreamTail { .. }
                | Phase::Grace {
                    authoritative: true,
                    ..
                }
        )
    }

    /// The stream's own stop reason has been seen (streamed or confirmed by idle).
    pub fn stream_stop_seen(&self) -> bool {
        matches!(
            self.phase,
            Phase::Streamed
                | Phase::Grace {
                    authoritative: false,
                    ..
                }
        )
    }

    /// Takes the pending outcome, leaving phase `None`.
    pub fn take_outcome(&mut self) -> Option<Outcome> {
        self.phase = Phase::None;
        self.outcome.take()
    }
}

/// One `send()` the coordinator correlates with server activity.
#[derive(Debug, Clone)]
pub(crate) struct Turn {
    /// Correlation id sent as `client_message_id`.
    pub client_message_id: String,
    /// Caller otid, when given.
    pub otid: Option<String>,
    /// Runs attributed to the turn, in first-seen order.
    pub run_ids: Vec<String>,
    /// Turn evidence seen (spec §3.7).
    pub evidence: bool,
    /// A `requires_approval` stop was seen (stream or receipt).
    pub requires_approval_stop: bool,
    /// `abort()` was called while the turn was active.
    pub abort_requested: bool,
    /// When the turn became active.
    pub started_at: u64,
    /// Request-timeout deadline (cleared by an authoritative terminal).
    pub timeout_at: Option<u64>,
    /// All assistant text of the turn.
    pub assistant_text: String,
    /// Pending terminal.
    pub terminal: Terminal,
    /// Runs whose `usage_statistics` arrived.
    pub usage_runs: Vec<String>,
    /// A run-less `usage_statistics` arrived after the latest streamed stop reason.
    pub runless_usage_after_stop: bool,
    /// The `request_id` of the `input` that sent the turn (matches its `input_accepted`).
    pub input_request_id: Option<String>,
    /// The server acknowledged the input (`input_accepted`).
    pub acknowledged: bool,
    /// The server queued the input (`disposition: "queued"`) and has not dequeued it yet: no
    /// run can be this turn's until the server says so (a `dequeued` removal or its run map).
    pub server_queued: bool,
    /// Runs whose `turn_finished` arrived.
    pub finished_runs: Vec<String>,
    /// The server's id of the turn (`turn_finished.turn_id`), once known.
    pub turn_id: Option<String>,
    /// Our later inputs the server dequeued together with this one and runs in the same turn
    /// (see `batch`): each ends with this turn, with its own result.
    pub batched: Vec<Turn>,
    /// The user's text, shown when the turn starts (a chat's own messages, see `echo`).
    pub echo: Option<String>,
}

impl Turn {
    /// A new, not yet active turn.
    pub fn new(client_message_id: String, otid: Option<String>) -> Self {
        Turn {
            client_message_id,
            otid,
            run_ids: Vec::new(),
            evidence: false,
            requires_approval_stop: false,
            abort_requested: false,
            started_at: 0,
            timeout_at: None,
            assistant_text: String::new(),
            terminal: Terminal::default(),
            usage_runs: Vec::new(),
            runless_usage_after_stop: false,
            input_request_id: None,
            acknowledged: false,
            server_queued: false,
            finished_runs: Vec::new(),
            turn_id: None,
            batched: Vec::new(),
            echo: None,
        }
    }

    /// Whether `run_id` is attributed to this turn.
    pub fn has_run(&self, run_id: &str) -> bool {
        lists(&self.run_ids, run_id)
    }

    /// Attributes `run_id` to this turn (once).
    pub fn add_run(&mut self, run_id: &str) {
        if !self.has_run(run_id) {
            self.run_ids.push(run_id.to_owned());
        }
    }

    /// Takes `run_id` away from this turn (the server attributes it to another message).
    pub fn drop_run(&mut self, run_id: &str) {
        unlist(&mut self.run_ids, run_id);
    }

    /// Whether a frame of `run_id` (`None`: run-less) may count for this turn: always, unless
    /// the server still holds the turn's input in its queue and the run is not known as ours.
    pub fn may_own(&self, run_id: Option<&str>) -> bool {
        !self.server_queued || run_id.is_some_and(|run| self.has_run(run))
    }

    /// Usage for `run_id` (or run-less usage after the stream's stop reason) was already seen,
    /// so a terminal for that run need not wait for trailing usage.
    pub fn usage_seen_for(&self, run_id: &str) -> bool {
        self.runless_usage_after_stop || lists(&self.usage_runs, run_id)
    }
}

/// Whether `ids` holds `id` (for the short run-id lists of one turn: a plain scan).
pub(crate) fn lists(ids: &[String], id: &str) -> bool {
    ids.iter().any(|listed| listed == id)
}

/// Removes every `id` from `ids`, keeping the order of the rest (a plain loop: no closure).
pub(crate) fn unlist(ids: &mut Vec<String>, id: &str) {
    let mut at = 0;
    while at < ids.len() {
        if ids[at] == id {
            ids.remove(at);
        } else {
            at += 1;
        }
    }
}
