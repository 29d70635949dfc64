//! Borrowed view of a `stream_delta.delta` object: the fields normalization and turn logic read.
//! Fields of rare message types (tool calls and returns) stay raw and are decoded only on demand.

use super::lenient::{is_object, Field, First, Obj};
use serde::Deserialize;
use serde_json::value::RawValue;

/// A stream delta: its decoded fields, and a way to get the verbatim object text.
///
/// Frames are parsed in one pass straight into [`DeltaFields`]; the verbatim text (needed only
/// for `stream_event` messages) is located on demand by [`StreamDelta::raw`].
#[derive(Debug, Clone)]
pub struct StreamDelta<'a> {
    /// Decoded fields.
    pub fields: DeltaFields<'a>,
    source: DeltaSource<'a>,
}

#[derive(Debug, Clone, Copy)]
enum DeltaSource<'a> {
    /// The delta object text itself.
    Delta(&'a RawValue),
    /// The whole `stream_delta` frame text; the delta is its `delta` key.
    Frame(&'a str),
}

#[derive(Deserialize)]
struct DeltaOnly<'a> {
    #[serde(borrow)]
    delta: &'a RawValue,
}

impl<'a> StreamDelta<'a> {
    /// Decodes a delta object; `None` unless `raw` is a JSON object.
    pub fn from_raw(raw: &'a RawValue) -> Option<Self> {
        if !is_object(raw) {
            return None;
        }
        let fields = serde_json::from_str::<DeltaFields<'a>>(raw.get()).ok()?;
        Some(StreamDelta {
            fields,
            source: DeltaSource::Delta(raw),
        })
    }

    /// A delta decoded while parsing its frame (`frame` is the whole frame text).
    pub(crate) fn from_frame(fields: DeltaFields<'a>, frame: &'a str) -> Self {
        StreamDelta {
            fields,
            source: DeltaSource::Frame(frame),
        }
    }

    /// The delta object exactly as received (becomes `stream_event.event`).
    pub fn raw(&self) -> Option<&'a RawValue> {
        match self.source {
            DeltaSource::Delta(raw) => Some(raw),
            DeltaSource::Frame(text) => serde_json::from_str::<DeltaOnly<'a>>(text)
                .ok()
                .map(|frame| frame.delta),
        }
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

/// The delta keys read by the client. Unknown keys are skipped.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct DeltaFields<'a> {
    /// `message_type`.
    #[serde(borrow)]
    pub message_type: Field<'a>,
    /// `id` (becomes `uuid` when a string).
    #[serde(borrow)]
    pub id: Field<'a>,
    /// `otid` (string or null is copied).
    #[serde(borrow)]
    pub otid: Field<'a>,
    /// `seq_id` (copied when a number).
    #[serde(borrow)]
    pub seq_id: Field<'a>,
    /// `run_id`.
    #[serde(borrow)]
    pub run_id: Field<'a>,
    /// `content` (text extracted on demand).
    #[serde(borrow)]
    pub content: Option<&'a RawValue>,
    /// `reasoning`.
    #[serde(borrow)]
    pub reasoning: Field<'a>,
    /// `tool_call` (raw).
    #[serde(borrow)]
    pub tool_call: Option<&'a RawValue>,
    /// `tool_calls` (raw: array or object).
    #[serde(borrow)]
    pub tool_calls: Option<&'a RawValue>,
    /// `tool_call_id`.
    #[serde(borrow)]
    pub tool_call_id: Field<'a>,
    /// `tool_return` (raw; text extracted on demand).
    #[serde(borrow)]
    pub tool_return: Option<&'a RawValue>,
    /// `tool_returns` (raw array).
    #[serde(borrow)]
    pub tool_returns: Option<&'a RawValue>,
    /// `status`.
    #[serde(borrow)]
    pub status: Field<'a>,
    /// `detail` (errors).
    #[serde(borrow)]
    pub detail: Field<'a>,
    /// `message` (errors).
    #[serde(borrow)]
    pub message: Field<'a>,
    /// `stop_reason`.
    #[serde(borrow)]
    pub stop_reason: Field<'a>,
    /// `error_type` (errors).
    #[serde(borrow)]
    pub error_type: Field<'a>,
    /// `reason` (retry).
    #[serde(borrow)]
    pub reason: Field<'a>,
    /// `attempt` (retry).
    #[serde(borrow)]
    pub attempt: Field<'a>,
    /// `max_attempts` (retry).
    #[serde(borrow)]
    pub max_attempts: Field<'a>,
    /// `delay_ms` (retry).
    #[serde(borrow)]
    pub delay_ms: Field<'a>,
}

/// One tool call of a `tool_call_message` / `approval_request_message`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ToolCallFields<'a> {
    /// `tool_call_id`.
    #[serde(borrow)]
    pub tool_call_id: Field<'a>,
    /// `id` (OpenAI form).
    #[serde(borrow)]
    pub id: Field<'a>,
    /// `name`.
    #[serde(borrow)]
    pub name: Field<'a>,
    /// `function` object (OpenAI nested form).
    #[serde(borrow)]
    pub function: Obj<FunctionFields<'a>>,
    /// `arguments` (raw: object, string, or anything).
    #[serde(borrow)]
    pub arguments: Option<&'a RawValue>,
}

/// `tool_call.function` of the OpenAI nested form.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct FunctionFields<'a> {
    /// `function.name`.
    #[serde(borrow)]
    pub name: Field<'a>,
    /// `function.arguments` (raw).
    #[serde(borrow)]
    pub arguments: Option<&'a RawValue>,
}

/// One entry of `tool_returns`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ToolReturnFields<'a> {
    /// `tool_call_id`.
    #[serde(borrow)]
    pub tool_call_id: Field<'a>,
    /// `tool_return` (raw).
    #[serde(borrow)]
    pub tool_return: Option<&'a RawValue>,
    /// `content` (raw).
    #[serde(borrow)]
    pub content: Option<&'a RawValue>,
    /// `status`.
    #[serde(borrow)]
    pub status: Field<'a>,
}

impl<'a> DeltaFields<'a> {
    /// `firstToolCall`: the first element of a `tool_calls` array (`None` if it is empty or not an
    /// object), `tool_calls` itself when it is an object, else `tool_call` when it is an object.
    pub fn first_tool_call(&self) -> Option<ToolCallFields<'a>> {
        if let Some(raw) = self.tool_calls {
            let text = raw.get().trim_start();
            if text.starts_with('[') {
                return serde_json::from_str::<First<Obj<ToolCallFields<'a>>>>(raw.get())
                    .ok()
                    .and_then(|first| first.0)
                    .and_then(|obj| obj.0);
            }
            if text.starts_with('{') {
                return serde_json::from_str::<ToolCallFields<'a>>(raw.get()).ok();
            }
        }
        let raw = self.tool_call.filter(|raw| is_object(raw))?;
        serde_json::from_str::<ToolCallFields<'a>>(raw.get()).ok()
    }

    /// `firstToolReturn`: the first element of a `tool_returns` array when it is an object.
    pub fn first_tool_return(&self) -> Option<ToolReturnFields<'a>> {
        let raw = self.tool_returns?;
        if !raw.get().trim_start().starts_with('[') {
            return None;
        }
        serde_json::from_str::<First<Obj<ToolReturnFields<'a>>>>(raw.get())
            .ok()
            .and_then(|first| first.0)
            .and_then(|obj| obj.0)
    }
}
