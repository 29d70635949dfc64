//! Result assembly (spec §3.7, newest variant of the `error` text).

use super::turn::Outcome;
use crate::protocol::errors::{is_approval_conflict_signal, is_failure_stop_reason, ErrorCode};
use crate::protocol::sdk_message::{ResultMessage, TurnBatch};

/// What a result needs from the turn besides its outcome.
pub(crate) struct ResultContext<'a> {
    /// All assistant text of the turn.
    pub assistant_text: &'a str,
    /// `now - started_at`.
    pub duration_ms: u64,
    /// The runtime's conversation id (`None` → `null`).
    pub conversation_id: Option<&'a str>,
    /// Runs of the turn.
    pub run_ids: Vec<String>,
    /// The batch the turn's input was run in, if the server ran several together.
    pub batch: Option<TurnBatch>,
}

/// Builds the `result` message:
/// - `success` = explicit flag (default true) and not an approval conflict and not a failure stop;
/// - `errorCode` = `approval_conflict` on conflict, else the explicit code, else the known
///   stop-reason code, else `error` (failures only);
/// - `error` = the code unless it is `error`, in which case the detail, else the stop reason;
/// - `recoverable` = true on conflict, omitted on success, else the given value or false;
/// - `result` = the turn's assistant text on success, omitted when empty.
pub(crate) fn build_result(outcome: Outcome, ctx: ResultContext<'_>) -> ResultMessage {
    let stop_reason = outcome
        .stop_reason
        .or_else(|| (outcome.success == Some(false)).then(|| "error".to_owned()));
    let conflict =
        is_approval_conflict_signal(outcome.detail.as_deref(), None, stop_reason.as_deref());
    let success = outcome.success.unwrap_or(true)
        && !conflict
        && !is_failure_stop_reason(stop_reason.as_deref());
    let code = if conflict {
        Some(ErrorCode::ApprovalConflict)
    } else {
        outcome
            .error_code
            .or_else(|| stop_reason.as_deref().and_then(ErrorCode::from_stop_reason))
    };
    let (error, error_code, error_detail) = if success {
        (None, None, None)
    } else {
        let code = code.unwrap_or(ErrorCode::Error);
        let error = match code {
            ErrorCode::Error => outcome
                .detail
                .as_deref()
                .or(stop_reason.as_deref())
                .unwrap_or("error"),
            _ => code.as_str(),
        };
        (Some(error.to_owned()), Some(code), outcome.detail)
    };
    ResultMessage {
        success,
        result: (success && !ctx.assistant_text.is_empty()).then(|| ctx.assistant_text.to_owned()),
        error,
        error_code,
        approval_conflict: conflict.then_some(true),
        recoverable: if conflict {
            Some(true)
        } else if success {
            None
        } else {
            Some(outcome.recoverable.unwrap_or(false))
        },
        error_detail,
        stop_reason,
        duration_ms: ctx.duration_ms,
        conversation_id: ctx.conversation_id.map(str::to_owned),
        run_ids: ctx.run_ids,
        batch: ctx.batch,
    }
}
