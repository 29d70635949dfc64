//! Parsing JS-provided `SDKMessage`s (spec §7) into typed [`SdkInput`]s.
//!
//! Messages come from application code, so parsing never fails on a wrong type by itself: every
//! member is read loosely first, then validated per message type. A member that is absent or
//! `null` counts as absent; a member the message type uses that has the wrong JSON type makes the
//! whole message invalid. Unknown members are ignored.

use super::json::{lenient_object, Loose, WrongType};
use super::rows::TextKind;
use super::stream_text::StreamEvent;
use serde_json::value::RawValue;
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
    StreamEvent(Box<StreamEvent<'a>>),
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
    /// Decoded arguments (or the `{ raw }` wrapper); must be a JSON object.
    pub tool_input: Option<&'a RawValue>,
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
        serde_json::from_str::<RawMessage<'a>>(json)
            .ok()
            .and_then(RawMessage::into_input)
    }
}

/// Parses a JSON array of messages; `None` when the text is not a JSON array. Elements that are
/// not valid messages are `None`.
pub(super) fn parse_many(json: &str) -> Option<Vec<Option<SdkInput<'_>>>> {
    let raw: Vec<RawMessage<'_>> = serde_json::from_str(json).ok()?;
    Some(raw.into_iter().map(RawMessage::into_input).collect())
}

/// Every member any message type uses, read loosely.
#[derive(Debug, Default)]
pub(super) struct RawMessage<'a> {
    is_object: bool,
    ty: Loose<'a>,
    content: Loose<'a>,
    uuid: Loose<'a>,
    otid: Loose<'a>,
    run_id: Loose<'a>,
    seq_id: Loose<'a>,
    tool_call_id: Loose<'a>,
    tool_name: Loose<'a>,
    raw_arguments: Loose<'a>,
    is_error: Loose<'a>,
    tool_input: Option<&'a RawValue>,
    event: Option<Box<StreamEvent<'a>>>,
}

lenient_object!(RawMessage, |map, out| {
    "type" => out.ty = map.next_value()?,
    "content" => out.content = map.next_value()?,
    "uuid" => out.uuid = map.next_value()?,
    "otid" => out.otid = map.next_value()?,
    "runId" => out.run_id = map.next_value()?,
    "seqId" => out.seq_id = map.next_value()?,
    "toolCallId" => out.tool_call_id = map.next_value()?,
    "toolName" => out.tool_name = map.next_value()?,
    "rawArguments" => out.raw_arguments = map.next_value()?,
    "isError" => out.is_error = map.next_value()?,
    "toolInput" => out.tool_input = Some(map.next_value()?),
    "event" => out.event = Some(map.next_value()?),
});

/// True when `raw` is the JSON text of an object.
pub(super) fn is_object_json(raw: &RawValue) -> bool {
    raw.get()
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
}

impl<'a> RawMessage<'a> {
    fn into_input(mut self) -> Option<SdkInput<'a>> {
        if !self.is_object {
            return None;
        }
        let ty = std::mem::take(&mut self.ty);
        let input = match ty.as_str()? {
            "assistant" => self.text(TextKind::Assistant),
            "reasoning" => self.text(TextKind::Reasoning),
            "tool_call" => self.tool_call(),
            "tool_result" => self.tool_result(),
            "stream_event" => {
                // The envelope uuid is ignored, but it must still be a string when present.
                let event = self.event.take().unwrap_or_default();
                self.uuid
                    .into_opt_str()
                    .map(|_| SdkInput::StreamEvent(event))
            }
            "init" | "result" | "error" | "retry" | "queue_update" | "loop_status" => {
                Ok(SdkInput::Ignored)
            }
            _ => Err(WrongType),
        };
        input.ok()
    }

    fn text(self, kind: TextKind) -> Result<SdkInput<'a>, WrongType> {
        Ok(SdkInput::Text(TextInput {
            kind,
            seq_id: self.seq_id.opt_num()?,
            content: self.content.into_opt_str()?.unwrap_or_default(),
            uuid: self.uuid.into_opt_str()?,
            otid: self.otid.into_opt_str()?,
            run_id: self.run_id.into_opt_str()?,
        }))
    }

    fn tool_call(self) -> Result<SdkInput<'a>, WrongType> {
        let tool_input = match self.tool_input {
            Some(raw) if raw.get() == "null" => None,
            Some(raw) if is_object_json(raw) => Some(raw),
            Some(_) => return Err(WrongType),
            None => None,
        };
        Ok(SdkInput::ToolCall(ToolCallInput {
            tool_call_id: tool_call_id(self.tool_call_id)?,
            tool_name: self.tool_name.into_opt_str()?,
            tool_input,
            raw_arguments: self.raw_arguments.into_opt_str()?,
            uuid: self.uuid.into_opt_str()?,
            run_id: self.run_id.into_opt_str()?,
        }))
    }

    fn tool_result(self) -> Result<SdkInput<'a>, WrongType> {
        Ok(SdkInput::ToolResult(ToolResultInput {
            is_error: self.is_error.opt_bool()?.unwrap_or(false),
            tool_call_id: tool_call_id(self.tool_call_id)?,
            content: self.content.into_opt_str()?.unwrap_or_default(),
            uuid: self.uuid.into_opt_str()?,
            run_id: self.run_id.into_opt_str()?,
        }))
    }
}

/// A tool message cannot be keyed without a non-empty `toolCallId`.
fn tool_call_id(v: Loose<'_>) -> Result<Cow<'_, str>, WrongType> {
    v.into_opt_str()?.filter(|s| !s.is_empty()).ok_or(WrongType)
}
