//! Small readers of wire values shared by the frame decoders (on top of [`crate::json`]):
//! `??`-style optional members, the "text of content" rule, and JS-shaped numbers.

use crate::json::{parse_array, Object, Value};
use serde_json::value::RawValue;
use serde_json::Number;
use std::borrow::Cow;

/// `raw` unless it is JSON `null`: a member read with JS `??` semantics (absent and `null` are
/// both "not given").
pub fn non_null(raw: Option<&RawValue>) -> Option<&RawValue> {
    raw.filter(|raw| !raw.get().trim_start().starts_with('n'))
}

/// Splits a leading JSON string without escapes off `text`: `"abc"rest` → `("abc", "rest")`.
/// `None` when `text` does not start with `"` or the string has an escape (or no end). On text
/// already validated as JSON the slice is exactly the decoded string.
pub fn plain_string(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix('"')?;
    let end = body.bytes().position(|b| b == b'"' || b == b'\\')?;
    if body.as_bytes().get(end) != Some(&b'"') {
        return None;
    }
    Some((body.get(..end)?, body.get(end + 1..)?))
}

/// True when `raw` is a JSON array.
pub fn is_array(raw: &RawValue) -> bool {
    raw.get().trim_start().starts_with('[')
}

/// The first element of an array when it is an object (`None` for an empty array, a first
/// element of another kind, or a value that is not an array).
pub fn first_object(raw: &RawValue) -> Option<Object<'_>> {
    parse_array(raw.get())?
        .first()
        .copied()
        .and_then(Object::from_raw)
}

/// The string elements of an array member (other elements skipped; not an array → empty).
pub fn string_items<'a>(obj: &Object<'a>, key: &str) -> Vec<Cow<'a, str>> {
    obj.array(key)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|raw| Value::classify(raw).into_str())
        .collect()
}

/// "Text of content" (spec §5): a string as-is; an array → the concatenation of its string items
/// and of its object items' string `text` (`None` when that is empty); an object with a string
/// `text` → it; anything else → `None`.
pub fn text_of(raw: &RawValue) -> Option<Cow<'_, str>> {
    match Value::classify(raw) {
        Value::String(s) => Some(s),
        Value::Object(obj) => Object::from_raw(obj)?.str("text"),
        Value::Array(list) => {
            let mut joined: Option<Cow<'_, str>> = None;
            for item in parse_array(list.get())? {
                let piece = match Value::classify(item) {
                    Value::String(s) => s,
                    Value::Object(obj) => match Object::from_raw(obj).and_then(|o| o.str("text")) {
                        Some(s) => s,
                        None => continue,
                    },
                    _ => continue,
                };
                joined = Some(match joined {
                    None => piece,
                    Some(prev) => Cow::Owned(prev.into_owned() + &piece),
                });
            }
            joined.filter(|s| !s.is_empty())
        }
        _ => None,
    }
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

    fn raw(text: &str) -> &RawValue {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn text_of_follows_the_content_rule() {
        assert_eq!(text_of(raw(r#""s""#)).as_deref(), Some("s"));
        assert_eq!(text_of(raw(r#"{"text":"t"}"#)).as_deref(), Some("t"));
        assert_eq!(text_of(raw(r#"{"text":""}"#)).as_deref(), Some(""));
        assert_eq!(
            text_of(raw(r#"["a",{"text":"b"},{"text":1},[],"c"]"#)).as_deref(),
            Some("abc")
        );
        assert!(matches!(
            text_of(raw(r#"[{"type":"text","text":"one"}]"#)),
            Some(Cow::Borrowed("one"))
        ));
        for none in ["[]", r#"[""]"#, "null", "1", "{}", r#"[{"x":1}]"#] {
            assert_eq!(text_of(raw(none)), None, "{none}");
        }
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
    fn null_is_not_given() {
        assert!(non_null(Some(raw("null"))).is_none());
        assert!(non_null(None).is_none());
        assert!(non_null(Some(raw("0"))).is_some());
        assert!(first_object(raw(r#"["x",{"a":1}]"#)).is_none());
        assert_eq!(
            first_object(raw(r#"[{"a":1},2]"#)).unwrap().f64("a"),
            Some(1.0)
        );
    }
}
