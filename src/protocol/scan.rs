//! The `type` of a frame without parsing it, so that big frames nobody asked for
//! (`update_device_status`, 3–13 KB and frequent) are dropped for the cost of a prefix check.
//!
//! The observed app server always writes `type` first, so only a frame that starts with
//! `{"type":"<name>"` (no escapes in the name) is recognised. Anything else returns `None` and
//! the caller falls back to the full parse, which also validates whatever is kept.

use super::wire::plain_string;
use std::borrow::Cow;

/// The `<name>` of a frame starting with `{"type":"<name>"`, else `None`. Always borrowed.
pub fn peek_frame_type(text: &str) -> Option<Cow<'_, str>> {
    let (name, _) = plain_string(text.strip_prefix("{\"type\":")?)?;
    Some(Cow::Borrowed(name))
}

#[cfg(test)]
mod tests {
    use super::peek_frame_type;

    #[test]
    fn reads_a_leading_type() {
        assert_eq!(peek_frame_type(r#"{"type":"a"}"#).as_deref(), Some("a"));
        assert_eq!(
            peek_frame_type(r#"{"type":"update_device_status","device_status":{"#).as_deref(),
            Some("update_device_status")
        );
        assert_eq!(peek_frame_type(r#"{"type":""}"#).as_deref(), Some(""));
    }

    #[test]
    fn anything_else_falls_back_to_the_full_parse() {
        for text in [
            "",
            "[]",
            "{",
            "{}",
            r#" {"type":"a"}"#,
            r#"{ "type":"a"}"#,
            r#"{"type" : "a"}"#,
            r#"{"type":1}"#,
            r#"{"x":1,"type":"a"}"#,
            r#"{"type":"unterminated"#,
            r#"{"type":"stream\u005fdelta"}"#,
            r#"{"ty\u0070e":"a"}"#,
        ] {
            assert_eq!(peek_frame_type(text), None, "{text}");
        }
    }
}
