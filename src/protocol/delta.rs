//! Borrowed view of a `stream_delta.delta` object: the fields normalization and turn logic read.
//! Fields of rare message types (tool calls and returns) stay raw and are decoded only on demand.

use super::wire::{first_object, is_array, non_null};
use crate::json::{is_object, Object, Value};
use serde_json::value::RawValue;

/// A stream delta: its decoded fields and its verbatim object text.
#[derive(Debug, Clone)]
pub struct StreamDelta<'a> {
    /// Decoded fields.
    pub fields: DeltaFields<'a>,
    raw: &'a RawValue,
}

impl<'a> StreamDelta<'a> {
    /// Decodes a delta object; `None` unless `raw` is a JSON object.
    pub fn from_raw(raw: &'a RawValue) -> Option<Self> {
        let object = Object::from_raw(raw)?;
        Some(StreamDelta {
            fields: DeltaFields::read(&object),
            raw,
        })
    }

    /// The delta object exactly as received (becomes `stream_event.event`). Always `Some`.
    pub fn raw(&self) -> Option<&'a RawValue> {
        Some(self.raw)
    }

    /// `delta.message_type` when a string.
    pub fn message_type(&self) -> Option<&str> {
        self.fields.message_type.as_str()
    }

    /// `delta.run_id` when a string.
    pub fn run_id(&self) -> Option<&str> {
        self.fields.run_id.as_str()
    }
}

/// The delta keys read by the client (absent keys read as [`Value::Absent`], raw members that are
/// absent or `null` as `None`). Unknown keys are skipped.
#[derive(Debug, Clone, Default)]
pub struct DeltaFields<'a> {
    /// `message_type`.
    pub message_type: Value<'a>,
    /// `id` (becomes `uuid` when a string).
    pub id: Value<'a>,
    /// `otid` (string or null is copied).
    pub otid: Value<'a>,
    /// `seq_id` (copied when a number).
    pub seq_id: Value<'a>,
    /// `run_id`.
    pub run_id: Value<'a>,
    /// `content` (text extracted on demand).
    pub content: Option<&'a RawValue>,
    /// `reasoning`.
    pub reasoning: Value<'a>,
    /// `tool_call` (raw).
    pub tool_call: Option<&'a RawValue>,
    /// `tool_calls` (raw: array or object).
    pub tool_calls: Option<&'a RawValue>,
    /// `tool_call_id`.
    pub tool_call_id: Value<'a>,
    /// `tool_return` (raw; text extracted on demand).
    pub tool_return: Option<&'a RawValue>,
    /// `tool_returns` (raw array).
    pub tool_returns: Option<&'a RawValue>,
    /// `status`.
    pub status: Value<'a>,
    /// `detail` (errors).
    pub detail: Value<'a>,
    /// `message` (errors).
    pub message: Value<'a>,
    /// `stop_reason`.
    pub stop_reason: Value<'a>,
    /// `error_type` (errors).
    pub error_type: Value<'a>,
    /// `reason` (retry).
    pub reason: Value<'a>,
    /// `attempt` (retry).
    pub attempt: Value<'a>,
    /// `max_attempts` (retry).
    pub max_attempts: Value<'a>,
    /// `delay_ms` (retry).
    pub delay_ms: Value<'a>,
}

impl<'a> DeltaFields<'a> {
    /// Reads the known members in one pass over the object (the last duplicate wins).
    pub fn read(object: &Object<'a>) -> Self {
        let mut f = DeltaFields::default();
        for (key, raw) in object.members() {
            let slot = match key {
                "message_type" => &mut f.message_type,
                "id" => &mut f.id,
                "otid" => &mut f.otid,
                "seq_id" => &mut f.seq_id,
                "run_id" => &mut f.run_id,
                "reasoning" => &mut f.reasoning,
                "tool_call_id" => &mut f.tool_call_id,
                "status" => &mut f.status,
                "detail" => &mut f.detail,
                "message" => &mut f.message,
                "stop_reason" => &mut f.stop_reason,
                "error_type" => &mut f.error_type,
                "reason" => &mut f.reason,
                "attempt" => &mut f.attempt,
                "max_attempts" => &mut f.max_attempts,
                "delay_ms" => &mut f.delay_ms,
                "content" => {
                    f.content = non_null(Some(raw));
                    continue;
                }
                "tool_call" => {
                    f.tool_call = non_null(Some(raw));
                    continue;
                }
                "tool_calls" => {
                    f.tool_calls = non_null(Some(raw));
                    continue;
                }
                "tool_return" => {
                    f.tool_return = non_null(Some(raw));
                    continue;
                }
                "tool_returns" => {
                    f.tool_returns = non_null(Some(raw));
                    continue;
                }
                _ => continue,
            };
            *slot = Value::classify(raw);
        }
        f
    }

    /// `firstToolCall`: the first element of a `tool_calls` array (`None` if it is empty or not an
    /// object), `tool_calls` itself when it is an object, else `tool_call` when it is an object.
    pub fn first_tool_call(&self) -> Option<ToolCallFields<'a>> {
        if let Some(raw) = self.tool_calls {
            if is_array(raw) {
                return first_object(raw).map(|o| ToolCallFields::read(&o));
            }
            if is_object(raw) {
                return Object::from_raw(raw).map(|o| ToolCallFields::read(&o));
            }
        }
        let call = Object::from_raw(self.tool_call?)?;
        Some(ToolCallFields::read(&call))
    }

    /// `firstToolReturn`: the first element of a `tool_returns` array when it is an object.
    pub fn first_tool_return(&self) -> Option<ToolReturnFields<'a>> {
        let first = first_object(self.tool_returns?)?;
        Some(ToolReturnFields {
            tool_call_id: first.get("tool_call_id"),
            tool_return: non_null(first.raw("tool_return")),
            content: non_null(first.raw("content")),
            status: first.get("status"),
        })
    }
}

/// One tool call of a `tool_call_message` / `approval_request_message`.
#[derive(Debug, Clone, Default)]
pub struct ToolCallFields<'a> {
    /// `tool_call_id`.
    pub tool_call_id: Value<'a>,
    /// `id` (OpenAI form).
    pub id: Value<'a>,
    /// `name`.
    pub name: Value<'a>,
    /// `function` object (OpenAI nested form), when an object.
    pub function: Option<FunctionFields<'a>>,
    /// `arguments` (raw: object, string, or anything; `None` when absent or null).
    pub arguments: Option<&'a RawValue>,
}

impl<'a> ToolCallFields<'a> {
    /// Reads a tool call object.
    pub fn read(call: &Object<'a>) -> Self {
        ToolCallFields {
            tool_call_id: call.get("tool_call_id"),
            id: call.get("id"),
            name: call.get("name"),
            function: call.object("function").map(|function| FunctionFields {
                name: function.get("name"),
                arguments: non_null(function.raw("arguments")),
            }),
            arguments: non_null(call.raw("arguments")),
        }
    }
}

/// `tool_call.function` of the OpenAI nested form.
#[derive(Debug, Clone, Default)]
pub struct FunctionFields<'a> {
    /// `function.name`.
    pub name: Value<'a>,
    /// `function.arguments` (raw).
    pub arguments: Option<&'a RawValue>,
}

/// One entry of `tool_returns`.
#[derive(Debug, Clone, Default)]
pub struct ToolReturnFields<'a> {
    /// `tool_call_id`.
    pub tool_call_id: Value<'a>,
    /// `tool_return` (raw).
    pub tool_return: Option<&'a RawValue>,
    /// `content` (raw).
    pub content: Option<&'a RawValue>,
    /// `status`.
    pub status: Value<'a>,
}
