//! `SDKErrorCode`, stop-reason classification and approval-conflict detection (spec §2, §3.6).

/// The `SDKErrorCode` union. Written as its snake_case wire string ([`ErrorCode::as_str`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A message was sent while the agent waits for a tool approval.
    ApprovalConflict,
    /// Never produced by the portable core; part of the union.
    ApprovalConflictTerminal,
    /// Malformed wire data (a tool call without an id).
    ProtocolError,
    /// Generic failure.
    Error,
    /// The model provider failed.
    LlmApiError,
    /// The step limit was reached.
    MaxSteps,
    /// The turn was aborted.
    Interrupted,
    /// The transport closed mid-turn.
    StreamClosed,
    /// Structured output failed validation (newest upstream only).
    StructuredOutputError,
}

impl ErrorCode {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::ApprovalConflict => "approval_conflict",
            ErrorCode::ApprovalConflictTerminal => "approval_conflict_terminal",
            ErrorCode::ProtocolError => "protocol_error",
            ErrorCode::Error => "error",
            ErrorCode::LlmApiError => "llm_api_error",
            ErrorCode::MaxSteps => "max_steps",
            ErrorCode::Interrupted => "interrupted",
            ErrorCode::StreamClosed => "stream_closed",
            ErrorCode::StructuredOutputError => "structured_output_error",
        }
    }

    /// Maps a wire stop reason to an error code only when it is literally one of the known codes
    /// (`toSdkErrorCode`); `structured_output_error` is not mapped from the wire.
    pub fn from_stop_reason(value: &str) -> Option<ErrorCode> {
        for code in &WIRE_CODES {
            if code.as_str() == value {
                return Some(*code);
            }
        }
        None
    }
}

/// The codes a wire stop reason may name (all but `structured_output_error`).
const WIRE_CODES: [ErrorCode; 8] = [
    ErrorCode::ApprovalConflict,
    ErrorCode::ApprovalConflictTerminal,
    ErrorCode::ProtocolError,
    ErrorCode::Error,
    ErrorCode::LlmApiError,
    ErrorCode::MaxSteps,
    ErrorCode::Interrupted,
    ErrorCode::StreamClosed,
];

/// Stop reasons that end a turn successfully.
pub const SUCCESS_STOP_REASONS: [&str; 3] = ["end_turn", "tool_rule", "requires_approval"];

/// A non-null stop reason that is not one of [`SUCCESS_STOP_REASONS`].
pub fn is_failure_stop_reason(value: Option<&str>) -> bool {
    value.is_some_and(|v| !SUCCESS_STOP_REASONS.contains(&v))
}

/// `isApprovalConflictSignal`: stop reason `requires_approval`, or a detail/message containing
/// (case-insensitively) one of the server's "waiting for approval" phrases. The phrases are
/// ASCII, so ASCII case folding finds exactly what `toLowerCase().includes(…)` finds.
pub fn is_approval_conflict_signal(
    detail: Option<&str>,
    message: Option<&str>,
    stop_reason: Option<&str>,
) -> bool {
    if stop_reason == Some("requires_approval") {
        return true;
    }
    detail.is_some_and(contains_conflict_phrase) || message.is_some_and(contains_conflict_phrase)
}

fn contains_conflict_phrase(text: &str) -> bool {
    const PHRASES: [&str; 3] = [
        "waiting for approval on a tool call",
        "cannot send a new message",
        "requires_approval",
    ];
    let text = text.as_bytes();
    (0..text.len()).any(|start| {
        PHRASES.iter().any(|phrase| {
            text.get(start..start + phrase.len())
                .is_some_and(|window| window.eq_ignore_ascii_case(phrase.as_bytes()))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{is_approval_conflict_signal, ErrorCode, WIRE_CODES};

    /// The derived JSON of every code is its wire string.
    #[test]
    fn codes_serialize_as_their_wire_strings() {
        for code in WIRE_CODES
            .into_iter()
            .chain([ErrorCode::StructuredOutputError])
        {
            let json = crate::json::to_string(&code);
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn conflict_phrases_match_case_insensitively() {
        let signal = |text: &str| is_approval_conflict_signal(Some(text), None, None);
        assert!(signal(
            "Cannot send a new message: Waiting for approval on a tool call"
        ));
        assert!(signal("x REQUIRES_APPROVAL y"));
        assert!(!signal(""));
        assert!(!signal("requires approval"));
        assert!(signal("café: Requires_Approval"));
        assert!(is_approval_conflict_signal(
            None,
            Some("CANNOT SEND A NEW MESSAGE"),
            None
        ));
        assert!(is_approval_conflict_signal(
            None,
            None,
            Some("requires_approval")
        ));
        assert!(!is_approval_conflict_signal(None, None, Some("end_turn")));
    }
}
