//! Small readers of wire values shared by the frame decoders (on top of [`crate::json`]):
//! `??`-style optional members and JS-shaped numbers.

use crate::json::Value;
use serde_json::Number;
use std::borrow::Cow;

/// Splits a leading JSON string without escapes off `text`: `"abc"rest` → `("abc", "rest")`.
/// `None` when `text` does not start with `"` or the string has an escape (or no end). On text
/// already validated as JSON the slice is exactly the decoded string.
pub fn plain_string(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix('"')?;
    let mut end = 0;
    loop {
        match *body.as_bytes().get(end)? {
            b'"' => break,
            b'\\' => return None,
            _ => end += 1,
        }
    }
    let (string, rest) = body.split_at_checked(end)?;
    Some((string, rest.get(1..)?))
}

/// The first element of an array when it is an object (`None` for an empty array, a first
/// element of another kind, or a value that is not an array).
pub fn first_object<'t, 'a>(value: &'t Value<'a>) -> Option<&'t crate::json::Object<'a>> {
    value.as_array()?.first()?.as_object()
}

/// The string elements of an array (other elements skipped; not an array → empty).
pub fn string_items<'a>(value: &Value<'a>) -> Vec<Cow<'a, str>> {
    let mut items = Vec::new();
    for item in value.as_array().unwrap_or_default() {
        if let Some(s) = item.to_str() {
            items.push(s);
        }
    }
    items
}

/// A wire number as JS would write it back: integral values as integers (`4`, never `4.0`),
/// others as floats; `None` when not finite.
pub fn js_number(n: f64) -> Option<Number> {
    if n.fract() == 0.0 && n.abs() < 9.0e18 {
        // Exact: every integral f64 below 2^63 converts to i64 without loss. `-0` becomes `0`,
        // as in `JSON.stringify(-0)`.
        Some(Number::from(n as i64))
    } else {
        Number::from_f64(n)
    }
}

/// A number member as a JS-shaped number (`None` unless a finite number).
pub fn number(value: &Value<'_>) -> Option<Number> {
    value.as_f64().and_then(js_number)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Value<'_> {
        crate::json::parse(text).unwrap()
    }

    #[test]
    fn numbers_keep_integers_integral() {
        let json = |n: f64| js_number(n).map(|n| serde_json::to_string(&n).unwrap());
        assert_eq!(json(4.0).as_deref(), Some("4"));
        assert_eq!(json(-0.0).as_deref(), Some("0"));
        assert_eq!(json(1.5).as_deref(), Some("1.5"));
        assert_eq!(json(1_700_000_000_000.0).as_deref(), Some("1700000000000"));
        assert_eq!(json(f64::INFINITY), None);
    }

    #[test]
    fn first_object_and_string_items() {
        assert!(first_object(&parse(r#"["x",{"a":1}]"#)).is_none());
        assert_eq!(
            first_object(&parse(r#"[{"a":1},2]"#)).unwrap().f64("a"),
            Some(1.0)
        );
        assert_eq!(string_items(&parse(r#"["a",1,"b"]"#)), ["a", "b"]);
        assert!(string_items(&parse("{}")).is_empty());
    }
}
