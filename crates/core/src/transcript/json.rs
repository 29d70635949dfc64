//! Transcript-specific reads on top of the crate's JSON access layer ([`crate::json`]).

use crate::json::{Object, Value};

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
