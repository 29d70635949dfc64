//! Parsing JS-provided `SDKMessage`s (spec §7) into typed [`SdkInput`]s.
//!
//! Messages come from application code, so parsing never fails on a wrong type by itself: the
//! object's members are collected once ([`crate::json::Object`]), then the members the message
//! type uses are read strictly. A member that is absent or `null` counts as absent; a member the
//! message type uses that has the wrong JSON type makes the whole message invalid. Unknown
//! members are ignored.

use super::rows::TextKind;
use super::stream_text::StreamEvent;
use crate::json::{Object, WrongType};
use std::borrow::Cow;

/// One `SDKMessage` the accumulator understands.
#[derive(Debug)]
pub enum SdkInput<'a> {
    /// `assistant` or `reasoning`: a text slice to append.
    Text(TextInput<'a>),
    /// `tool_call`: a call fragment to merge.
    ToolCall(ToolCallInput<'a>),
    /// `tool_result`: a result to merge.
    ToolResult(ToolResultInput<'a>),
    /// `stream_event`: a raw payload that may carry assistant/reasoning text.
    StreamEvent(StreamEvent<'a>),
    /// A valid message of a type the accumulator ignores (`init`, `result`, `error`, `retry`,
    /// `queue_update`, `loop_status`).
    Ignored,
}

/// An `assistant` or `reasoning` slice.
#[derive(Debug, Clone)]
pub struct TextInput<'a> {
    pub kind: TextKind,
    /// The delta text, taken as is (may be empty).
    pub content: Cow<'a, str>,
    pub uuid: Option<Cow<'a, str>>,
    pub otid: Option<Cow<'a, str>>,
    pub run_id: Option<Cow<'a, str>>,
    /// Replay cursor; must be finite.
    pub seq_id: Option<f64>,
}

/// A `tool_call` fragment.
#[derive(Debug, Clone)]
pub struct ToolCallInput<'a> {
    /// Must be non-empty.
    pub tool_call_id: Cow<'a, str>,
    pub tool_name: Option<Cow<'a, str>>,
    /// Decoded arguments (or the `{ raw }` wrapper).
    pub tool_input: Option<Object<'a>>,
    pub raw_arguments: Option<Cow<'a, str>>,
    pub uuid: Option<Cow<'a, str>>,
    pub run_id: Option<Cow<'a, str>>,
}

/// A `tool_result`.
#[derive(Debug, Clone)]
pub struct ToolResultInput<'a> {
    /// Must be non-empty.
    pub tool_call_id: Cow<'a, str>,
    pub content: Cow<'a, str>,
    pub is_error: bool,
    pub uuid: Option<Cow<'a, str>>,
    pub run_id: Option<Cow<'a, str>>,
}

impl<'a> SdkInput<'a> {
    /// Parses one message from JSON text. `None` when the text is not JSON, not an object, has no
    /// or an unknown `type`, or a used member has the wrong type.
    pub fn from_json(json: &'a str) -> Option<SdkInput<'a>> {
        SdkInput::from_object(Object::parse(json)?)
    }

    /// Reads one message from an object, taking the members it uses (same rules as
    /// [`SdkInput::from_json`]).
    pub fn from_object(mut m: Object<'a>) -> Option<SdkInput<'a>> {
        let message_type = m.take("type").into_str()?;
        let input = match message_type.as_ref() {
            "assistant" => text(m, TextKind::Assistant),
            "reasoning" => text(m, TextKind::Reasoning),
            "tool_call" => tool_call(m),
            "tool_result" => tool_result(m),
            // The envelope uuid is ignored, but it must still be a string when present.
            "stream_event" => m
                .take("uuid")
                .opt_str()
                .map(|_| SdkInput::StreamEvent(StreamEvent::from_value(m.take("event")))),
            "init" | "result" | "error" | "retry" | "queue_update" | "loop_status" => {
                Ok(SdkInput::Ignored)
            }
            _ => Err(WrongType),
        };
        input.ok()
    }
}

fn text(mut m: Object<'_>, kind: TextKind) -> Result<SdkInput<'_>, WrongType> {
    Ok(SdkInput::Text(TextInput {
        kind,
        seq_id: m.get("seqId").opt_f64()?,
        content: m.take("content").opt_str()?.unwrap_or_default(),
        uuid: m.take("uuid").opt_str()?,
        otid: m.take("otid").opt_str()?,
        run_id: m.take("runId").opt_str()?,
    }))
}

fn tool_call(mut m: Object<'_>) -> Result<SdkInput<'_>, WrongType> {
    Ok(SdkInput::ToolCall(ToolCallInput {
        tool_call_id: tool_call_id(&mut m)?,
        tool_name: m.take("toolName").opt_str()?,
        tool_input: m.take("toolInput").opt_object()?,
        raw_arguments: m.take("rawArguments").opt_str()?,
        uuid: m.take("uuid").opt_str()?,
        run_id: m.take("runId").opt_str()?,
    }))
}

fn tool_result(mut m: Object<'_>) -> Result<SdkInput<'_>, WrongType> {
    Ok(SdkInput::ToolResult(ToolResultInput {
        is_error: m.get("isError").opt_bool()?.unwrap_or(false),
        tool_call_id: tool_call_id(&mut m)?,
        content: m.take("content").opt_str()?.unwrap_or_default(),
        uuid: m.take("uuid").opt_str()?,
        run_id: m.take("runId").opt_str()?,
    }))
}

/// A tool message cannot be keyed without a non-empty `toolCallId`.
fn tool_call_id<'a>(m: &mut Object<'a>) -> Result<Cow<'a, str>, WrongType> {
    m.take("toolCallId")
        .opt_str()?
        .filter(|s| !s.is_empty())
        .ok_or(WrongType)
}
