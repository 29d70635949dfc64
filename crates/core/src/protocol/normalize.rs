//! `stream_delta.delta` → `SDKMessage` (spec §3.6 table, transcript.md §10.1 identity rules).

use super::delta::{non_null, DeltaFields, StreamDelta};
use super::errors::{is_approval_conflict_signal, ErrorCode};
use super::sdk_message::{
    ErrorMessage, RetryMessage, SdkMessage, StreamEventMessage, TextMessage, ToolCallMessage,
    ToolResultMessage,
};
use super::wire::number;
use crate::json::content_text;
use crate::json::{Object, Value};
use serde_json::Number;
use std::borrow::Cow;

/// Mints synthetic message ids `"<label>-<n>"` for deltas without a string `id`. Owned by the
/// coordinator so numbering is per session.
#[derive(Debug, Clone, Default)]
pub struct UuidCounter {
    next: u64,
}

impl UuidCounter {
    /// The next synthetic id for `label`.
    pub fn mint(&mut self, label: &str) -> String {
        self.next += 1;
        let mut id = String::with_capacity(label.len() + 4);
        id.push_str(label);
        id.push('-');
        crate::json::write_u64(&mut id, self.next);
        id
    }
}

/// Normalizes one delta. `None` means the delta yields no message (empty text, `stop_reason`,
/// `ping`, a tool return without an id, a tool-call message without any tool call). A synthetic
/// uuid is minted only when a message is produced.
pub fn normalize_delta(
    delta: &StreamDelta<'_>,
    label: &str,
    uuids: &mut UuidCounter,
) -> Option<SdkMessage> {
    let fields = delta.fields();
    let f = &fields;
    let mut uuid = || match f.id.as_str() {
        Some(id) => id.to_owned(),
        None => uuids.mint(label),
    };
    let run_id = f.get("run_id").as_str().map(str::to_owned);
    match f.get("message_type").as_str() {
        Some(kind @ ("assistant_message" | "reasoning_message")) => {
            let reasoning = kind == "reasoning_message";
            // A reasoning message prefers its string `reasoning` over `content`.
            let content = match f.get("reasoning") {
                Value::String(s) if reasoning => Some(Cow::Borrowed(s.as_ref())),
                _ => content_text(f.get("content")),
            }
            .filter(|c| !c.is_empty())?;
            let message = text_message(f, content, uuid(), run_id);
            Some(if reasoning {
                SdkMessage::Reasoning(message)
            } else {
                SdkMessage::Assistant(message)
            })
        }
        Some(kind @ ("tool_call_message" | "approval_request_message")) => {
            let call = f.first_tool_call()?;
            Some(tool_call_message(kind, call, uuid(), run_id))
        }
        Some("tool_return_message") => {
            tool_result_message(f, run_id, &mut uuid).map(SdkMessage::ToolResult)
        }
        Some("error_message" | "loop_error") => Some(error_message(f, label, run_id)),
        Some("retry") => Some(SdkMessage::Retry(RetryMessage {
            reason: f.get("reason").as_str().unwrap_or("error").to_owned(),
            attempt: number_or_zero(f.get("attempt")),
            max_attempts: number_or_zero(f.get("max_attempts")),
            delay_ms: number_or_zero(f.get("delay_ms")),
            run_id,
        })),
        Some("stop_reason" | "ping") => None,
        _ => Some(SdkMessage::StreamEvent(StreamEventMessage {
            event: delta.object().to_static(),
            uuid: uuid(),
        })),
    }
}

fn text_message(
    f: &DeltaFields<'_>,
    content: Cow<'_, str>,
    uuid: String,
    run_id: Option<String>,
) -> TextMessage {
    TextMessage {
        content: content.into_owned(),
        uuid,
        otid: match f.get("otid") {
            Value::String(s) => Some(Some(s.as_ref().to_owned())),
            Value::Null => Some(None),
            _ => None,
        },
        seq_id: number(f.get("seq_id")),
        run_id,
    }
}

fn number_or_zero(value: &Value<'_>) -> Number {
    number(value).unwrap_or_else(|| Number::from(0u8))
}

fn tool_call_message(
    kind: &str,
    call: &Object<'_>,
    uuid: String,
    run_id: Option<String>,
) -> SdkMessage {
    let function = call.object("function");
    let Some(tool_call_id) = call
        .get("tool_call_id")
        .as_str()
        .or_else(|| call.get("id").as_str())
    else {
        let detail = "Missing tool_call_id in ".to_owned() + kind + " (uuid=" + &uuid + ")";
        let code = Some(ErrorCode::ProtocolError);
        return error(detail, code, false, "protocol_error", run_id);
    };
    let tool_name = call
        .get("name")
        .as_str()
        .or_else(|| function?.get("name").as_str())
        .unwrap_or("?");
    let arguments =
        non_null(call.get("arguments")).or_else(|| non_null(function?.get("arguments")));
    let (tool_input, raw_arguments) = tool_input_from_arguments(arguments);
    SdkMessage::ToolCall(ToolCallMessage {
        tool_call_id: tool_call_id.to_owned(),
        tool_name: tool_name.to_owned(),
        tool_input,
        raw_arguments,
        uuid,
        run_id,
    })
}

/// `toolInputFromArguments`: an object → itself (no raw); a string parsing to an object → that
/// object + raw; any other non-empty string → `{raw}` + raw; anything else → `{}`.
pub fn tool_input_from_arguments(args: Option<&Value<'_>>) -> (Object<'static>, Option<String>) {
    let raw = match args {
        Some(Value::Object(object)) => return (object.to_static(), None),
        Some(Value::String(s)) if !s.is_empty() => s.as_ref(),
        _ => return (Object::new(), None),
    };
    // JSON whitespace is exactly what the rule trims (space, tab, LF, CR): no trim needed.
    if let Some(parsed) = Object::parse(raw) {
        return (parsed.into_static(), Some(raw.to_owned()));
    }
    let mut wrapper = Object::new();
    wrapper.push("raw", Value::String(Cow::Owned(raw.to_owned())));
    (wrapper, Some(raw.to_owned()))
}

fn tool_result_message(
    f: &DeltaFields<'_>,
    run_id: Option<String>,
    uuid: &mut impl FnMut() -> String,
) -> Option<ToolResultMessage> {
    let first = f.first_tool_return();
    let tool_call_id = match f.get("tool_call_id").as_str() {
        Some(id) => id,
        None => first?.get("tool_call_id").as_str()?,
    };
    // `delta.tool_return ?? ret.tool_return ?? ret.content`, where `ret` defaults to the delta.
    let source = f.optional("tool_return").or_else(|| match first {
        Some(ret) => non_null(ret.get("tool_return")).or_else(|| non_null(ret.get("content"))),
        None => f.optional("content"),
    });
    let content = source.and_then(content_text).unwrap_or_default();
    let status = match (f.get("status"), first) {
        (Value::String(s), _) => Some(s.as_ref()),
        (_, Some(ret)) => ret.get("status").as_str(),
        (_, None) => None,
    };
    Some(ToolResultMessage {
        tool_call_id: tool_call_id.to_owned(),
        content: content.into_owned(),
        is_error: status == Some("error"),
        uuid: uuid(),
        run_id,
    })
}

fn error_message(f: &DeltaFields<'_>, label: &str, run_id: Option<String>) -> SdkMessage {
    let detail = f
        .get("detail")
        .as_str()
        .or_else(|| f.get("message").as_str())
        .map(str::to_owned)
        .unwrap_or_else(|| label.to_owned() + " turn failed");
    let stop_reason = f
        .get("stop_reason")
        .as_str()
        .or_else(|| f.get("error_type").as_str())
        .unwrap_or("error");
    let conflict =
        is_approval_conflict_signal(Some(&detail), f.get("message").as_str(), Some(stop_reason));
    let code = if conflict {
        Some(ErrorCode::ApprovalConflict)
    } else {
        ErrorCode::from_stop_reason(stop_reason)
    };
    error(detail, code, conflict, stop_reason, run_id)
}

/// An `error` message whose `message` and `error_detail` are both `detail`.
fn error(
    detail: String,
    error_code: Option<ErrorCode>,
    approval_conflict: bool,
    stop_reason: &str,
    run_id: Option<String>,
) -> SdkMessage {
    SdkMessage::Error(ErrorMessage {
        message: detail.clone(),
        error_code,
        approval_conflict: approval_conflict.then_some(true),
        recoverable: Some(approval_conflict),
        error_detail: Some(detail),
        stop_reason: stop_reason.to_owned(),
        run_id,
    })
}
