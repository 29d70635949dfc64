//! Transcript-specific reads on top of the crate's JSON access layer ([`crate::json`]).

use crate::json::{Object, Value};
use std::borrow::Cow;

/// "Text of content" (spec §9 / §6.1): a string as is; an array → the concatenation of its
/// string items and its object items' string `text` (`None` when that is empty); an object →
/// its string `text`; anything else → `None`.
pub(super) fn content_text<'t>(content: &'t Value<'_>) -> Option<Cow<'t, str>> {
    match content {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Object(o) => o.get("text").as_str().map(Cow::Borrowed),
        Value::Array(items) => {
            let mut out: Option<Cow<'t, str>> = None;
            for item in items {
                let part = match item {
                    Value::String(s) => s.as_ref(),
                    Value::Object(o) => match o.get("text").as_str() {
                        Some(text) => text,
                        None => continue,
                    },
                    _ => continue,
                };
                match &mut out {
                    None => out = Some(Cow::Borrowed(part)),
                    Some(acc) => acc.to_mut().push_str(part),
                }
            }
            out.filter(|s| !s.is_empty())
        }
        _ => None,
    }
}

/// An object member, or the first element of an array member when that is an object.
pub(super) fn first_object<'t, 'a>(value: &'t Value<'a>) -> Option<&'t Object<'a>> {
    match value {
        Value::Array(items) => items.first()?.as_object(),
        _ => value.as_object(),
    }
}

/// A string that is present and non-empty (JavaScript truthiness of a string field).
pub(super) fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}

/// A finite number (lenient: other kinds and non-finite numbers read as `None`).
pub(super) fn finite(value: &Value<'_>) -> Option<f64> {
    value.as_f64().filter(|n| n.is_finite())
}
