//! Parsing JS-provided `SDKMessage`s (spec §7) into typed [`SdkInput`]s.
//!
//! Messages come from application code, so parsing never fails on a wrong type by itself: the
//! object's members are collected once ([`crate::json::Object`]), then the members the message
//! type uses are read strictly. A member that is absent or `null` counts as absent; a member the
//! message type uses that has the wrong JSON type makes the whole message invalid. Unknown
//! members are ignored.

use super::rows::TextKind;
use super::stream_text::StreamEvent;
use crate::json::{Object, Value};
use crate::protocol::sdk_message::{SdkMessage, TextMessage};
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
    /// A chat's own user message when its turn starts (`SdkMessage::UserEcho`; only from a
    /// session, never from JSON): the `user` row history will have under the same otid.
    UserEcho { otid: &'a str, text: &'a str },
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
        let (strings, kind) = match message_type.as_ref() {
            "assistant" => (TEXT_STRINGS, Kind::Text(TextKind::Assistant)),
            "reasoning" => (TEXT_STRINGS, Kind::Text(TextKind::Reasoning)),
            "tool_call" => (CALL_STRINGS, Kind::ToolCall),
            "tool_result" => (RESULT_STRINGS, Kind::ToolResult),
            // The envelope uuid is ignored, but it must still be a string when present.
            "stream_event" => (&["uuid"][..], Kind::StreamEvent),
            "init" | "result" | "error" | "retry" | "queue_update" | "loop_status" => {
                return Some(SdkInput::Ignored)
            }
            _ => return None,
        };
        if !strings.iter().all(|&key| string_or_absent(m.get(key))) {
            return None;
        }
        // Every string member is now a string or absent: the fallible reads come first, so no
        // member is taken before the message is known to be valid.
        Some(match kind {
            Kind::Text(kind) => {
                let seq_id = m.get("seqId").opt_f64().ok()?;
                SdkInput::Text(TextInput {
                    kind,
                    seq_id,
                    content: string(&mut m, "content").unwrap_or_default(),
                    uuid: string(&mut m, "uuid"),
                    otid: string(&mut m, "otid"),
                    run_id: string(&mut m, "runId"),
                })
            }
            Kind::ToolCall => {
                has_tool_call_id(&m)?;
                let tool_input = m.take("toolInput").opt_object().ok()?;
                SdkInput::ToolCall(ToolCallInput {
                    tool_call_id: string(&mut m, "toolCallId").unwrap_or_default(),
                    tool_name: string(&mut m, "toolName"),
                    tool_input,
                    raw_arguments: string(&mut m, "rawArguments"),
                    uuid: string(&mut m, "uuid"),
                    run_id: string(&mut m, "runId"),
                })
            }
            Kind::ToolResult => {
                has_tool_call_id(&m)?;
                let is_error = m.get("isError").opt_bool().ok()?.unwrap_or(false);
                SdkInput::ToolResult(ToolResultInput {
                    tool_call_id: string(&mut m, "toolCallId").unwrap_or_default(),
                    content: string(&mut m, "content").unwrap_or_default(),
                    is_error,
                    uuid: string(&mut m, "uuid"),
                    run_id: string(&mut m, "runId"),
                })
            }
            Kind::StreamEvent => SdkInput::StreamEvent(StreamEvent::from_value(m.take("event"))),
        })
    }
}

/// The string members of each message type.
const TEXT_STRINGS: &[&str] = &["content", "uuid", "otid", "runId"];
const CALL_STRINGS: &[&str] = &["toolCallId", "toolName", "rawArguments", "uuid", "runId"];
const RESULT_STRINGS: &[&str] = &["toolCallId", "content", "uuid", "runId"];

/// Which input a message type builds.
enum Kind {
    Text(TextKind),
    ToolCall,
    ToolResult,
    StreamEvent,
}

/// A string member, or one that is absent or `null`.
fn string_or_absent(value: &Value<'_>) -> bool {
    matches!(value, Value::Absent | Value::Null | Value::String(_))
}

/// A tool message cannot be keyed without a non-empty `toolCallId`.
fn has_tool_call_id(m: &Object<'_>) -> Option<()> {
    m.get("toolCallId").non_empty_str().map(drop)
}

/// Takes a member that is known to be a string or absent.
fn string<'a>(m: &mut Object<'a>, key: &str) -> Option<Cow<'a, str>> {
    m.take(key).into_str()
}

impl<'a> SdkInput<'a> {
    /// The input a session's own typed message makes, without a JSON round trip: the same
    /// input [`SdkInput::from_json`] reads from the message's JSON (the chat store feeds its
    /// accumulator this way, `session::chat_feed`).
    pub fn from_message(message: &'a SdkMessage) -> SdkInput<'a> {
        let text = |kind, m: &'a TextMessage| {
            SdkInput::Text(TextInput {
                kind,
                content: Cow::Borrowed(&m.content),
                uuid: Some(Cow::Borrowed(&m.uuid)),
                otid: m
                    .otid
                    .as_ref()
                    .and_then(|o| o.as_deref())
                    .map(Cow::Borrowed),
                run_id: m.run_id.as_deref().map(Cow::Borrowed),
                seq_id: m.seq_id.as_ref().and_then(|n| n.as_f64()),
            })
        };
        match message {
            SdkMessage::Assistant(m) => text(TextKind::Assistant, m),
            SdkMessage::Reasoning(m) => text(TextKind::Reasoning, m),
            SdkMessage::ToolCall(m) if !m.tool_call_id.is_empty() => {
                SdkInput::ToolCall(ToolCallInput {
                    tool_call_id: Cow::Borrowed(&m.tool_call_id),
                    tool_name: Some(Cow::Borrowed(&m.tool_name)),
                    tool_input: Some(m.tool_input.clone()),
                    raw_arguments: m.raw_arguments.as_deref().map(Cow::Borrowed),
                    uuid: Some(Cow::Borrowed(&m.uuid)),
                    run_id: m.run_id.as_deref().map(Cow::Borrowed),
                })
            }
            SdkMessage::ToolResult(m) if !m.tool_call_id.is_empty() => {
                SdkInput::ToolResult(ToolResultInput {
                    tool_call_id: Cow::Borrowed(&m.tool_call_id),
                    content: Cow::Borrowed(&m.content),
                    is_error: m.is_error,
                    uuid: Some(Cow::Borrowed(&m.uuid)),
                    run_id: m.run_id.as_deref().map(Cow::Borrowed),
                })
            }
            SdkMessage::UserEcho(m) => SdkInput::UserEcho {
                otid: &m.otid,
                text: &m.content,
            },
            SdkMessage::StreamEvent(m) => {
                SdkInput::StreamEvent(StreamEvent::from_value(Value::Object(m.event.clone())))
            }
            _ => SdkInput::Ignored,
        }
    }
}
