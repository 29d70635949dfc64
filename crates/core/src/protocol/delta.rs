//! Borrowed view of a `stream_delta.delta` object: the fields normalization and turn logic read.
//! The delta keeps its parsed object (written back as `stream_event.event`); members are read
//! from it on demand, each where it is used.

use super::wire::first_object;
use crate::json::{Object, Value};

/// A stream delta: its parsed object, read through [`StreamDelta::fields`].
#[derive(Debug, Clone)]
pub struct StreamDelta<'a> {
    object: Object<'a>,
}

impl<'a> StreamDelta<'a> {
    /// A delta from its parsed value; `None` unless it is a JSON object.
    pub fn from_value(value: Value<'a>) -> Option<Self> {
        Some(StreamDelta {
            object: value.into_object()?,
        })
    }

    /// Reads a delta from JSON text; `None` unless the text is a JSON object.
    pub fn parse(text: &'a str) -> Option<Self> {
        Some(StreamDelta {
            object: Object::parse(text)?,
        })
    }

    /// The delta object as received (becomes `stream_event.event`).
    pub fn object(&self) -> &Object<'a> {
        &self.object
    }

    /// The known fields.
    pub fn fields(&self) -> DeltaFields<'_> {
        DeltaFields::read(&self.object)
    }

    /// `delta.message_type` when a string.
    pub fn message_type(&self) -> Option<&str> {
        self.object.get("message_type").as_str()
    }

    /// `delta.run_id` when a string.
    pub fn run_id(&self) -> Option<&str> {
        self.object.get("run_id").as_str()
    }

    /// `delta.stop_reason` when a string.
    pub fn stop_reason(&self) -> Option<&str> {
        self.object.get("stop_reason").as_str()
    }
}

/// A delta's members as normalization reads them: [`DeltaFields::get`] (absent reads as
/// [`Value::Absent`], the last duplicate wins), [`DeltaFields::optional`] (JS `??`), and the
/// nested tool call and tool return.
#[derive(Debug, Clone, Copy)]
pub struct DeltaFields<'a> {
    /// The delta object.
    pub object: &'a Object<'a>,
    /// `id` (becomes `uuid` when a string).
    pub id: &'a Value<'a>,
}

impl<'a> DeltaFields<'a> {
    /// A view of the delta object.
    pub fn read(object: &'a Object<'a>) -> Self {
        DeltaFields {
            object,
            id: object.get("id"),
        }
    }

    /// Any member of the delta (`Value::Absent` when missing).
    pub fn get(&self, key: &str) -> &'a Value<'a> {
        self.object.get(key)
    }

    /// A member, `None` when absent or `null` (JS `??`).
    pub fn optional(&self, key: &str) -> Option<&'a Value<'a>> {
        non_null(self.object.get(key))
    }

    /// `firstToolCall`: the first element of a `tool_calls` array (`None` if it is empty or not an
    /// object), `tool_calls` itself when it is an object, else `tool_call` when it is an object.
    pub fn first_tool_call(&self) -> Option<&'a Object<'a>> {
        match self.optional("tool_calls") {
            Some(calls @ Value::Array(_)) => first_object(calls),
            Some(Value::Object(call)) => Some(call),
            _ => self.optional("tool_call")?.as_object(),
        }
    }

    /// `firstToolReturn`: the first element of a `tool_returns` array when it is an object.
    pub fn first_tool_return(&self) -> Option<&'a Object<'a>> {
        first_object(self.get("tool_returns"))
    }
}

/// `value` unless it is absent or `null` (JS `??`).
pub fn non_null<'t, 'a>(value: &'t Value<'a>) -> Option<&'t Value<'a>> {
    (!value.is_nullish()).then_some(value)
}
