//! `extractStreamTextDelta` (spec §9): assistant/reasoning text from a raw stream payload.

use super::json::{content_text, non_empty};
use super::rows::TextKind;
use crate::json::{Object, Value};
use std::borrow::Cow;

/// A `stream_event` payload. Any JSON value is accepted: a non-object reads as an object without
/// members, and members of the wrong type read as absent.
#[derive(Debug, Default)]
pub struct StreamEvent<'a>(Object<'a>);

/// A text delta: `{ kind, text }`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TextDelta<'a> {
    pub kind: TextKind,
    pub text: Cow<'a, str>,
}

impl<'a> StreamEvent<'a> {
    /// Reads a payload from JSON text; invalid JSON reads as a non-object.
    pub fn from_json(json: &'a str) -> StreamEvent<'a> {
        StreamEvent(Object::parse(json).unwrap_or_default())
    }

    /// Reads a payload from an already parsed JSON value.
    pub fn from_value(value: &Value<'a>) -> StreamEvent<'a> {
        StreamEvent(value.as_object().unwrap_or_default())
    }

    /// The payload's members (none for a non-object).
    pub fn object(&self) -> &Object<'a> {
        &self.0
    }
}

/// Spec §9: `{kind, text}` for assistant or reasoning text, else `None`.
pub fn extract_stream_text_delta<'a>(event: &StreamEvent<'a>) -> Option<TextDelta<'a>> {
    let e = &event.0;
    if let Some(delta) = e.object("delta") {
        if let Some(text) = non_empty(delta.str("reasoning")) {
            return Some(TextDelta {
                kind: TextKind::Reasoning,
                text,
            });
        }
        if let Some(text) = non_empty(delta.str("text")) {
            return Some(TextDelta {
                kind: TextKind::Assistant,
                text,
            });
        }
    }
    let (kind, text) = match e.get("message_type").as_str() {
        // `reasoning` wins when it is a string, even an empty one.
        Some("reasoning_message") => (TextKind::Reasoning, e.str("reasoning")),
        Some("assistant_message") => (TextKind::Assistant, None),
        _ => return None,
    };
    let text = text.or_else(|| content_text(e.get("content")));
    non_empty(text).map(|text| TextDelta { kind, text })
}

/// [`extract_stream_text_delta`] on JSON text; returns `{"kind":…,"text":…}` or `null` as JSON.
pub fn extract_stream_text_delta_json(json: &str) -> String {
    let event = StreamEvent::from_json(json);
    match extract_stream_text_delta(&event) {
        Some(delta) => serde_json::to_string(&delta).unwrap_or_else(|_| "null".to_owned()),
        None => "null".to_owned(),
    }
}
