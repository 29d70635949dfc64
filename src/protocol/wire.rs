//! Small readers of wire values shared by the frame decoders (on top of [`crate::json`]):
//! `??`-style optional members, the "text of content" rule, and JS-shaped numbers.

use crate::json::Value;
use serde_json::Number;
use std::borrow::Cow;

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

/// The first element of an array when it is an object (`None` for an empty array, a first
/// element of another kind, or a value that is not an array).
pub fn first_object<'t, 'a>(value: &'t Value<'a>) -> Option<&'t crate::json::Object<'a>> {
    value.as_array()?.first()?.as_object()
}

/// The string elements of an array (other elements skipped; not an array → empty).
pub fn string_items(value: Value<'_>) -> Vec<Cow<'_, str>> {
    value
        .into_array()
        .unwrap_or_default()
        .into_iter()
        .filter_map(Value::into_str)
        .collect()
}

/// "Text of content" (spec §5): a string as-is; an array → the concatenation of its string items
/// and of its object items' string `text` (`None` when that is empty); an object with a string
/// `text` → it; anything else → `None`.
pub fn text_of<'t>(value: &'t Value<'_>) -> Option<Cow<'t, str>> {
    match value {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Object(obj) => obj.get("text").as_str().map(Cow::Borrowed),
        Value::Array(list) => {
            let mut joined: Option<Cow<'t, str>> = None;
            for item in list {
                let piece = match item {
                    Value::String(s) => s.as_ref(),
                    Value::Object(obj) => match obj.get("text").as_str() {
                        Some(s) => s,
                        None => continue,
                    },
                    _ => continue,
                };
                match &mut joined {
                    None => joined = Some(Cow::Borrowed(piece)),
                    Some(prev) => prev.to_mut().push_str(piece),
                }
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

    fn parse(text: &str) -> Value<'_> {
        crate::json::parse(text).unwrap()
    }

    #[test]
    fn text_of_follows_the_content_rule() {
        let text = |json: &str| text_of(&parse(json)).map(Cow::into_owned);
        assert_eq!(text(r#""s""#).as_deref(), Some("s"));
        assert_eq!(text(r#"{"text":"t"}"#).as_deref(), Some("t"));
        assert_eq!(text(r#"{"text":""}"#).as_deref(), Some(""));
        assert_eq!(
            text(r#"["a",{"text":"b"},{"text":1},[],"c"]"#).as_deref(),
            Some("abc")
        );
        let one = parse(r#"[{"type":"text","text":"one"}]"#);
        assert!(matches!(text_of(&one), Some(Cow::Borrowed("one"))));
        for none in ["[]", r#"[""]"#, "null", "1", "{}", r#"[{"x":1}]"#] {
            assert_eq!(text(none), None, "{none}");
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
    fn first_object_and_string_items() {
        assert!(first_object(&parse(r#"["x",{"a":1}]"#)).is_none());
        assert_eq!(
            first_object(&parse(r#"[{"a":1},2]"#)).unwrap().f64("a"),
            Some(1.0)
        );
        assert_eq!(string_items(parse(r#"["a",1,"b"]"#)), ["a", "b"]);
        assert!(string_items(parse("{}")).is_empty());
    }
}
