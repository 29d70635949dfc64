//! `extractStreamTextDelta` (spec §9): assistant/reasoning text from a raw stream payload.

use super::json::non_empty;
use super::rows::TextKind;
use crate::json::content_text;
use crate::json::{Object, Value};
use serde::Serialize;
use std::borrow::Cow;

/// A `stream_event` payload. Any JSON value is accepted: a non-object reads as an object without
/// members, and members of the wrong type read as absent.
#[derive(Debug, Default)]
pub struct StreamEvent<'a>(Object<'a>);

/// A text delta: `{ kind, text }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    pub fn from_value(value: Value<'a>) -> StreamEvent<'a> {
        StreamEvent(value.into_object().unwrap_or_default())
    }

    /// The payload's members (none for a non-object).
    pub fn object(&self) -> &Object<'a> {
        &self.0
    }
}

/// Spec §9: `{kind, text}` for assistant or reasoning text, else `None`.
pub fn extract_stream_text_delta<'t>(event: &'t StreamEvent<'_>) -> Option<TextDelta<'t>> {
    let e = &event.0;
    if let Some(delta) = e.object("delta") {
        for (key, kind) in [
            ("reasoning", TextKind::Reasoning),
            ("text", TextKind::Assistant),
        ] {
            if let Some(text) = non_empty(delta.get(key).as_str()) {
                return Some(TextDelta {
                    kind,
                    text: Cow::Borrowed(text),
                });
            }
        }
    }
    let (kind, text) = match e.get("message_type").as_str() {
        // `reasoning` wins when it is a string, even an empty one.
        Some("reasoning_message") => (TextKind::Reasoning, e.get("reasoning").as_str()),
        Some("assistant_message") => (TextKind::Assistant, None),
        _ => return None,
    };
    let text = text
        .map(Cow::Borrowed)
        .or_else(|| content_text(e.get("content")));
    text.filter(|t| !t.is_empty())
        .map(|text| TextDelta { kind, text })
}

/// [`extract_stream_text_delta`] on JSON text; returns `{"kind":…,"text":…}` or `null` as JSON.
pub fn extract_stream_text_delta_json(json: &str) -> String {
    let event = StreamEvent::from_json(json);
    match extract_stream_text_delta(&event) {
        Some(delta) => crate::json::to_string(&delta),
        None => "null".to_owned(),
    }
}
