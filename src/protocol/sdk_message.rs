//! The `SDKMessage` union (spec §2) as Rust types whose JSON text is exactly the JS shape:
//! a `type` tag, camelCase fields, optional fields omitted when absent. Wire payloads passed on
//! (`stream_event.event`, `tool_call.toolInput`, queue item `content`) are kept as parsed values
//! and written back member by member, in document order.

use super::errors::ErrorCode;
use crate::json::{Members, Object, Value};
use serde_json::Number;

/// One message yielded by a session stream.
#[derive(Debug, Clone)]
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
        }
    }

    /// The JSON text of the message, exactly as the JS API exposes it.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let mut m = Members::open(&mut out);
        m.string("type", self.type_str());
        match self {
            SdkMessage::Assistant(t) | SdkMessage::Reasoning(t) => {
                m.string("content", &t.content).string("uuid", &t.uuid);
                if let Some(otid) = &t.otid {
                    m.nullable_string("otid", otid);
                }
                m.opt("seqId", &t.seq_id).opt_string("runId", &t.run_id);
            }
            SdkMessage::ToolCall(c) => {
                m.string("toolCallId", &c.tool_call_id)
                    .string("toolName", &c.tool_name)
                    .serialize("toolInput", &c.tool_input)
                    .opt_string("rawArguments", &c.raw_arguments)
                    .string("uuid", &c.uuid)
                    .opt_string("runId", &c.run_id);
            }
            SdkMessage::ToolResult(r) => {
                m.string("toolCallId", &r.tool_call_id)
                    .string("content", &r.content)
                    .bool("isError", r.is_error)
                    .string("uuid", &r.uuid)
                    .opt_string("runId", &r.run_id);
            }
            SdkMessage::Result(r) => {
                m.bool("success", r.success)
                    .opt_string("result", &r.result)
                    .opt_string("error", &r.error)
                    .opt("errorCode", &r.error_code)
                    .opt_bool("approvalConflict", r.approval_conflict)
                    .opt_bool("recoverable", r.recoverable)
                    .opt_string("errorDetail", &r.error_detail)
                    .opt_string("stopReason", &r.stop_reason)
                    .u64("durationMs", r.duration_ms)
                    .nullable_string("conversationId", &r.conversation_id);
                if !r.run_ids.is_empty() {
                    m.serialize("runIds", &r.run_ids);
                }
            }
            SdkMessage::Error(e) => {
                m.string("message", &e.message)
                    .opt("errorCode", &e.error_code)
                    .opt_bool("approvalConflict", e.approval_conflict)
                    .opt_bool("recoverable", e.recoverable)
                    .opt_string("errorDetail", &e.error_detail)
                    .string("stopReason", &e.stop_reason)
                    .opt_string("runId", &e.run_id);
            }
            SdkMessage::Retry(r) => {
                m.string("reason", &r.reason)
                    .serialize("attempt", &r.attempt)
                    .serialize("maxAttempts", &r.max_attempts)
                    .serialize("delayMs", &r.delay_ms)
                    .opt_string("runId", &r.run_id);
            }
            SdkMessage::QueueUpdate(q) => {
                m.serialize("queue", &q.queue);
            }
            SdkMessage::LoopStatus(l) => {
                m.string("status", &l.status)
                    .serialize("activeRunIds", &l.active_run_ids);
            }
            SdkMessage::StreamEvent(e) => {
                m.serialize("event", &e.event).string("uuid", &e.uuid);
            }
        }
        m.close();
        out
    }
}

/// `assistant` / `reasoning` fields.
#[derive(Debug, Clone)]
pub struct TextMessage {
    /// The fragment (never empty).
    pub content: String,
    /// Wire `id`, else a synthetic `"<label>-<n>"`.
    pub uuid: String,
    /// Absent, `null` (`Some(None)`), or the wire otid.
    pub otid: Option<Option<String>>,
    /// Per-run replay cursor (a wire number; integral values are written as integers).
    pub seq_id: Option<Number>,
    /// The run that produced the fragment.
    pub run_id: Option<String>,
}

/// `tool_call` fields.
#[derive(Debug, Clone)]
pub struct ToolCallMessage {
    /// Joins the call with its results.
    pub tool_call_id: String,
    /// Tool name, `"?"` when unknown.
    pub tool_name: String,
    /// The arguments object (`{}`, the wire object, the parsed string, or `{raw}`).
    pub tool_input: Object<'static>,
    /// The argument string as received, when the arguments came as a string.
    pub raw_arguments: Option<String>,
    /// Wire `id`, else synthetic.
    pub uuid: String,
    /// The run that made the call.
    pub run_id: Option<String>,
}

/// `tool_result` fields.
#[derive(Debug, Clone)]
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
    pub run_id: Option<String>,
}

/// `result` fields (the end of a turn).
#[derive(Debug, Clone)]
pub struct ResultMessage {
    /// Whether the turn succeeded.
    pub success: bool,
    /// All assistant text of the turn; only on success, omitted when empty.
    pub result: Option<String>,
    /// Failure text: the error code unless it is `error`, else the detail, else the stop reason.
    pub error: Option<String>,
    /// Failure code.
    pub error_code: Option<ErrorCode>,
    /// `true` for approval conflicts, else omitted.
    pub approval_conflict: Option<bool>,
    /// Omitted on success; on failure whether a retry may work.
    pub recoverable: Option<bool>,
    /// Failure detail.
    pub error_detail: Option<String>,
    /// Wire stop reason (omitted when the turn ended on idle).
    pub stop_reason: Option<String>,
    /// Milliseconds since the turn became active.
    pub duration_ms: u64,
    /// The runtime's conversation (`null` when unknown).
    pub conversation_id: Option<String>,
    /// Runs of the turn, omitted when empty.
    pub run_ids: Vec<String>,
}

/// `error` fields.
#[derive(Debug, Clone)]
pub struct ErrorMessage {
    /// Human-readable text.
    pub message: String,
    /// Known code, when there is one.
    pub error_code: Option<ErrorCode>,
    /// `true` for approval conflicts, else omitted.
    pub approval_conflict: Option<bool>,
    /// Whether a retry may work.
    pub recoverable: Option<bool>,
    /// Detail text.
    pub error_detail: Option<String>,
    /// Stop reason (always present).
    pub stop_reason: String,
    /// The run that failed.
    pub run_id: Option<String>,
}

/// `retry` fields (numbers as received, integral ones written as integers; `0` by default).
#[derive(Debug, Clone)]
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
    pub run_id: Option<String>,
}

/// `queue_update` fields.
#[derive(Debug, Clone)]
pub struct QueueUpdateMessage {
    /// The server's queue after the update.
    pub queue: Vec<QueueItem>,
}

/// One queued input.
#[derive(Debug, Clone)]
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
    pub content: Option<Value<'static>>,
    /// Enqueue timestamp (`""` when absent).
    pub enqueued_at: String,
}

/// `loop_status` fields.
#[derive(Debug, Clone)]
pub struct LoopStatusMessage {
    /// E.g. `WAITING_ON_INPUT`.
    pub status: String,
    /// String run ids of the status (non-strings dropped).
    pub active_run_ids: Vec<String>,
}

/// `stream_event` fields.
#[derive(Debug, Clone)]
pub struct StreamEventMessage {
    /// The wire delta object, as received.
    pub event: Object<'static>,
    /// Wire `id`, else synthetic.
    pub uuid: String,
}

impl crate::json::ToJson for QueueItem {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.string("id", &self.id)
            .string("clientMessageId", &self.client_message_id)
            .string("kind", &self.kind)
            .string("source", &self.source)
            .opt("content", &self.content)
            .string("enqueuedAt", &self.enqueued_at);
        m.close();
    }
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
