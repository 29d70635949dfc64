//! The `SDKMessage` union (spec §2) as Rust types whose JSON text is exactly the JS shape:
//! a `type` tag, camelCase fields, optional fields omitted when absent. Wire payloads passed on
//! (`stream_event.event`, `tool_call.toolInput`, queue item `content`) are kept as parsed values
//! and written back member by member, in document order. All of it is `#[derive(Serialize)]`.

use super::errors::ErrorCode;
use crate::json::{Object, Value};
use serde::Serialize;
use serde_json::Number;

/// One message yielded by a session stream, written as `{"type": "<snake_case>", …fields}`.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SdkMessage {
    /// `assistant`: a text fragment of the reply.
    Assistant(TextMessage),
    /// `reasoning`: a reasoning fragment.
    Reasoning(TextMessage),
    /// `tool_call`.
    ToolCall(ToolCallMessage),
    /// `tool_result`.
    ToolResult(ToolResultMessage),
    /// `result`: the end of a turn.
    Result(ResultMessage),
    /// `error`.
    Error(ErrorMessage),
    /// `retry`: the server retries an LLM request.
    Retry(RetryMessage),
    /// `queue_update`: the server-side input queue changed.
    QueueUpdate(QueueUpdateMessage),
    /// `loop_status`: the agent loop's state.
    LoopStatus(LoopStatusMessage),
    /// `stream_event`: any other delta, passed on whole.
    StreamEvent(StreamEventMessage),
    /// The user's own input when its turn starts, for a chat's transcript only
    /// (`session::coordinator::echo`; a session's `stream()` never yields it).
    #[serde(rename = "user")]
    UserEcho(UserEcho),
}

impl SdkMessage {
    /// The message's `type` string.
    pub fn type_str(&self) -> &'static str {
        match self {
            SdkMessage::Assistant(_) => "assistant",
            SdkMessage::Reasoning(_) => "reasoning",
            SdkMessage::ToolCall(_) => "tool_call",
            SdkMessage::ToolResult(_) => "tool_result",
            SdkMessage::Result(_) => "result",
            SdkMessage::Error(_) => "error",
            SdkMessage::Retry(_) => "retry",
            SdkMessage::QueueUpdate(_) => "queue_update",
            SdkMessage::LoopStatus(_) => "loop_status",
            SdkMessage::StreamEvent(_) => "stream_event",
            SdkMessage::UserEcho(_) => "user",
        }
    }

    /// The JSON text of the message, exactly as the JS API exposes it.
    pub fn to_json(&self) -> String {
        crate::json::to_string(self)
    }
}

/// The user's own input (`SdkMessage::UserEcho`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UserEcho {
    /// The input's otid (its `client_message_id` when none was given): history's user message
    /// carries it, so the chat's row and history's are one row.
    pub otid: String,
    /// The text the user sent.
    pub content: String,
}

/// `assistant` / `reasoning` fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessage {
    /// The fragment (never empty).
    pub content: String,
    /// Wire `id`, else a synthetic `"<label>-<n>"`.
    pub uuid: String,
    /// Absent, `null` (`Some(None)`), or the wire otid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub otid: Option<Option<String>>,
    /// Per-run replay cursor (a wire number; integral values are written as integers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq_id: Option<Number>,
    /// The run that produced the fragment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
}

/// `tool_call` fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallMessage {
    /// Joins the call with its results.
    pub tool_call_id: String,
    /// Tool name, `"?"` when unknown.
    pub tool_name: String,
    /// The arguments object (`{}`, the wire object, the parsed string, or `{raw}`).
    pub tool_input: Object<'static>,
    /// The argument string as received, when the arguments came as a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_arguments: Option<String>,
    /// Wire `id`, else synthetic.
    pub uuid: String,
    /// The run that made the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
}

/// `tool_result` fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultMessage {
    /// The call this result belongs to.
    pub tool_call_id: String,
    /// Text of the tool return (`""` when none).
    pub content: String,
    /// `status === "error"`.
    pub is_error: bool,
    /// Wire `id`, else synthetic.
    pub uuid: String,
    /// The run that ran the tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
}

/// `result` fields (the end of a turn).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultMessage {
    /// Whether the turn succeeded.
    pub success: bool,
    /// All assistant text of the turn; only on success, omitted when empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Failure text: the error code unless it is `error`, else the detail, else the stop reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Failure code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<ErrorCode>,
    /// `true` for approval conflicts, else omitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval_conflict: Option<bool>,
    /// Omitted on success; on failure whether a retry may work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recoverable: Option<bool>,
    /// Failure detail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_detail: Option<String>,
    /// Wire stop reason (omitted when the turn ended on idle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Milliseconds since the turn became active.
    pub duration_ms: u64,
    /// The runtime's conversation (`null` when unknown).
    pub conversation_id: Option<String>,
    /// Runs of the turn, omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub run_ids: Vec<String>,
    /// Set when the server ran several of this session's queued inputs as one turn: each input
    /// gets a result, in the order they were sent, all naming the same batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<TurnBatch>,
}

/// Which server turn carried a batched input (`result.batch`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnBatch {
    /// The server's turn id (`turn_finished.turn_id`, e.g. `batch-1`); the run id when the
    /// turn ended without one.
    pub id: String,
    /// This input's place in the batch (0: the first, whose turn the stream showed).
    pub index: usize,
    /// How many of this session's inputs the batch carried.
    pub size: usize,
}

/// `error` fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorMessage {
    /// Human-readable text.
    pub message: String,
    /// Known code, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<ErrorCode>,
    /// `true` for approval conflicts, else omitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval_conflict: Option<bool>,
    /// Whether a retry may work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recoverable: Option<bool>,
    /// Detail text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_detail: Option<String>,
    /// Stop reason (always present).
    pub stop_reason: String,
    /// The run that failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
}

/// `retry` fields (numbers as received, integral ones written as integers; `0` by default).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RetryMessage {
    /// Why the request is retried (default `"error"`).
    pub reason: String,
    /// Attempt number.
    pub attempt: Number,
    /// Maximum attempts.
    pub max_attempts: Number,
    /// Delay before the retry.
    pub delay_ms: Number,
    /// The run being retried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
}

/// `queue_update` fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueUpdateMessage {
    /// The server's queue after the update.
    pub queue: Vec<QueueItem>,
}

/// One queued input.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueItem {
    /// Server queue item id.
    pub id: String,
    /// The client's message id (`""` when absent).
    pub client_message_id: String,
    /// Item kind (default `"message"`).
    pub kind: String,
    /// Item source (default `"user"`).
    pub source: String,
    /// Content as received (omitted when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Value<'static>>,
    /// Enqueue timestamp (`""` when absent).
    pub enqueued_at: String,
}

/// `loop_status` fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopStatusMessage {
    /// E.g. `WAITING_ON_INPUT`.
    pub status: String,
    /// String run ids of the status (non-strings dropped).
    pub active_run_ids: Vec<String>,
}

/// `stream_event` fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamEventMessage {
    /// The wire delta object, as received.
    pub event: Object<'static>,
    /// Wire `id`, else synthetic.
    pub uuid: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(otid: Option<Option<String>>, seq: f64) -> String {
        SdkMessage::Assistant(TextMessage {
            content: "a\"\u{0}é".into(),
            uuid: "u".into(),
            otid,
            seq_id: crate::protocol::wire::js_number(seq),
            run_id: None,
        })
        .to_json()
    }

    /// `otid` is omitted, `null` or a string; `seqId` keeps integers integral and floats exact.
    #[test]
    fn text_members_follow_the_js_shape() {
        assert_eq!(
            text(None, 3.0),
            r#"{"type":"assistant","content":"a\"\u0000é","uuid":"u","seqId":3}"#
        );
        assert_eq!(
            text(Some(None), 2.5),
            r#"{"type":"assistant","content":"a\"\u0000é","uuid":"u","otid":null,"seqId":2.5}"#
        );
        assert_eq!(
            text(Some(Some("o".into())), f64::NAN),
            r#"{"type":"assistant","content":"a\"\u0000é","uuid":"u","otid":"o"}"#
        );
        assert!(text(None, 1e19).ends_with(r#""seqId":1e+19}"#));
    }
}
