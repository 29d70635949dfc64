//! `extractStreamTextDelta` (spec §9): assistant/reasoning text from a raw stream payload.

use super::json::{lenient_object, ContentText, Loose};
use super::rows::TextKind;
use serde::de::Deserialize;
use std::borrow::Cow;

/// A `stream_event` payload, read leniently: any JSON value is accepted and only the members the
/// accumulator needs are kept (wrong types read as absent).
#[derive(Debug, Default)]
pub struct StreamEvent<'a> {
    is_object: bool,
    delta: Delta<'a>,
    message_type: Loose<'a>,
    reasoning: Loose<'a>,
    content: ContentText<'a>,
    pub(super) id: Loose<'a>,
    pub(super) otid: Loose<'a>,
    pub(super) run_id: Loose<'a>,
    pub(super) seq_id: Loose<'a>,
}

/// `event.delta` when it is an object.
#[derive(Debug, Default)]
struct Delta<'a> {
    is_object: bool,
    reasoning: Loose<'a>,
    text: Loose<'a>,
}

/// A text delta: `{ kind, text }`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TextDelta<'a> {
    pub kind: TextKind,
    pub text: Cow<'a, str>,
}

impl<'a> StreamEvent<'a> {
    /// Reads a payload from JSON text; invalid JSON reads as a non-object.
    pub fn from_json(json: &'a str) -> StreamEvent<'a> {
        serde_json::from_str(json).unwrap_or_default()
    }

    /// Reads a payload from a `serde_json::Value`.
    pub fn from_value(value: &'a serde_json::Value) -> StreamEvent<'a> {
        StreamEvent::deserialize(value).unwrap_or_default()
    }
}

/// Spec §9: `{kind, text}` for assistant or reasoning text, else `None`.
pub fn extract_stream_text_delta<'e>(event: &'e StreamEvent<'_>) -> Option<TextDelta<'e>> {
    if !event.is_object {
        return None;
    }
    let delta = &event.delta;
    if delta.is_object {
        if let Some(t) = delta.reasoning.non_empty_str() {
            return Some(delta_of(TextKind::Reasoning, t));
        }
        if let Some(t) = delta.text.non_empty_str() {
            return Some(delta_of(TextKind::Assistant, t));
        }
    }
    let content = event.content.0.as_deref();
    let (kind, text) = match event.message_type.as_str() {
        Some("reasoning_message") => (TextKind::Reasoning, event.reasoning.as_str().or(content)),
        Some("assistant_message") => (TextKind::Assistant, content),
        _ => return None,
    };
    text.filter(|t| !t.is_empty()).map(|t| delta_of(kind, t))
}

fn delta_of(kind: TextKind, text: &str) -> TextDelta<'_> {
    TextDelta {
        kind,
        text: Cow::Borrowed(text),
    }
}

/// [`extract_stream_text_delta`] on JSON text; returns `{"kind":…,"text":…}` or `null` as JSON.
pub fn extract_stream_text_delta_json(json: &str) -> String {
    let event = StreamEvent::from_json(json);
    match extract_stream_text_delta(&event) {
        Some(delta) => serde_json::to_string(&delta).unwrap_or_else(|_| "null".to_owned()),
        None => "null".to_owned(),
    }
}

lenient_object!(StreamEvent, |map, out| {
    "delta" => out.delta = map.next_value()?,
    "message_type" => out.message_type = map.next_value()?,
    "reasoning" => out.reasoning = map.next_value()?,
    "content" => out.content = map.next_value()?,
    "id" => out.id = map.next_value()?,
    "otid" => out.otid = map.next_value()?,
    "run_id" => out.run_id = map.next_value()?,
    "seq_id" => out.seq_id = map.next_value()?,
});

lenient_object!(Delta, |map, out| {
    "reasoning" => out.reasoning = map.next_value()?,
    "text" => out.text = map.next_value()?,
});
