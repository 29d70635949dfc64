//! Transcript-specific reads on top of the crate's JSON access layer ([`crate::json`]).

use crate::json::{Object, Value};
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// "Text of content" (spec §9 / §6.1): a string as is; an array → the concatenation of its
/// string items and its object items' string `text` (`None` when that is empty); an object →
/// its string `text`; anything else → `None`.
pub(super) fn content_text(content: Value<'_>) -> Option<Cow<'_, str>> {
    match content {
        Value::String(s) => Some(s),
        Value::Object(_) => content.as_object()?.str("text"),
        Value::Array(_) => {
            let mut out: Option<Cow<'_, str>> = None;
            for raw in content.as_array()? {
                let part = match Value::classify(raw) {
                    Value::String(s) => s,
                    part @ Value::Object(_) => match part.as_object().and_then(|o| o.str("text")) {
                        Some(text) => text,
                        None => continue,
                    },
                    _ => continue,
                };
                match &mut out {
                    None => out = Some(part),
                    Some(acc) => acc.to_mut().push_str(&part),
                }
            }
            out.filter(|s| !s.is_empty())
        }
        _ => None,
    }
}

/// An object member, or the first element of an array member when that is an object.
pub(super) fn first_object(value: Value<'_>) -> Option<Object<'_>> {
    match value {
        Value::Array(_) => value
            .as_array()?
            .first()
            .and_then(|&raw| Object::from_raw(raw)),
        _ => value.as_object(),
    }
}

/// A string that is present and non-empty (JavaScript truthiness of a string field).
pub(super) fn non_empty(s: Option<Cow<'_, str>>) -> Option<Cow<'_, str>> {
    s.filter(|s| !s.is_empty())
}

/// A finite number (lenient: other kinds and non-finite numbers read as `None`).
pub(super) fn finite(value: &Value<'_>) -> Option<f64> {
    value.as_f64().filter(|n| n.is_finite())
}

/// One element of a JSON array read in a single pass: an object's members, or `None` for any
/// other JSON value (batches and history pages skip those).
#[derive(Debug, Default)]
pub(super) struct Element<'a>(pub Option<Object<'a>>);

/// Parses JSON text that must be an array; `None` for invalid JSON or another kind.
pub(super) fn parse_elements(text: &str) -> Option<Vec<Element<'_>>> {
    serde_json::from_str(text).ok()
}

impl<'de> Deserialize<'de> for Element<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ElementVisitor)
    }
}

struct ElementVisitor;

impl<'de> Visitor<'de> for ElementVisitor {
    type Value = Element<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Object::deserialize(MapAccessDeserializer::new(map)).map(|o| Element(Some(o)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Element(None))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Element(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Element(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Element(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Element(None))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Element(None))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Element(None))
    }
}
