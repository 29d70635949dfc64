//! A tiny scanner that finds a frame's top-level `"type"` without parsing the rest, so that big
//! frames nobody asked for (`update_device_status`, 3–13 KB and frequent) cost a few bytes of
//! scanning instead of a full parse. Values before `"type"` are skipped structurally (strings,
//! nesting); nothing after it is read. The full parse validates the frame when it is wanted.

use std::borrow::Cow;

/// The top-level `type` string of a frame, or `None` when the text is not a JSON object, has no
/// string `type` before a structural error, or is malformed up to that key.
pub fn peek_frame_type(text: &str) -> Option<Cow<'_, str>> {
    let bytes = text.as_bytes();
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(bytes, i);
        match bytes.get(i)? {
            b'}' => return None,
            b'"' => {}
            _ => return None,
        }
        let (key_end, key_escaped) = string_end(bytes, i)?;
        let is_type = if key_escaped {
            decode_string(&text[i..=key_end]).is_some_and(|k| k == "type")
        } else {
            &text[i + 1..key_end] == "type"
        };
        i = skip_ws(bytes, key_end + 1);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(bytes, i + 1);
        if is_type {
            if bytes.get(i) != Some(&b'"') {
                return None;
            }
            let (end, escaped) = string_end(bytes, i)?;
            return if escaped {
                decode_string(&text[i..=end]).map(Cow::Owned)
            } else {
                Some(Cow::Borrowed(&text[i + 1..end]))
            };
        }
        i = skip_value(bytes, i)?;
        i = skip_ws(bytes, i);
        match bytes.get(i)? {
            b',' => i += 1,
            _ => return None,
        }
    }
}

fn decode_string(quoted: &str) -> Option<String> {
    serde_json::from_str::<String>(quoted).ok()
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(i) {
        i += 1;
    }
    i
}

/// Given `bytes[start] == b'"'`, the index of the closing quote and whether escapes occurred.
fn string_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut i = start + 1;
    let mut escaped = false;
    loop {
        match bytes.get(i)? {
            b'"' => return Some((i, escaped)),
            b'\\' => {
                escaped = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
}

/// Skips one JSON value starting at `i`; returns the index just past it.
fn skip_value(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i)? {
        b'"' => string_end(bytes, i).map(|(end, _)| end + 1),
        b'{' | b'[' => skip_nested(bytes, i),
        _ => {
            let mut j = i;
            while let Some(&b) = bytes.get(j) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

fn skip_nested(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    loop {
        match bytes.get(i)? {
            b'"' => {
                i = string_end(bytes, i)?.0 + 1;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::peek_frame_type;

    #[test]
    fn finds_type_anywhere_at_top_level() {
        assert_eq!(peek_frame_type(r#"{"type":"a"}"#).as_deref(), Some("a"));
        assert_eq!(
            peek_frame_type(r#" { "x" : {"type":"no","y":[1,"}"]}, "n": -1.5e3, "type" : "b" } "#)
                .as_deref(),
            Some("b")
        );
        assert_eq!(
            peek_frame_type(r#"{"ty\u0070e":"stream\u005fdelta"}"#).as_deref(),
            Some("stream_delta")
        );
    }

    #[test]
    fn rejects_non_objects_and_garbage() {
        for text in [
            "",
            "[]",
            "\"type\"",
            "null",
            "{",
            r#"{"type":1}"#,
            r#"{"a":}"#,
            r#"{"a" 1}"#,
            r#"{"a":"unterminated"#,
            r#"{"a":[1,2}"#,
            "{}",
            "{\"a\\",
        ] {
            assert_eq!(peek_frame_type(text), None, "{text}");
        }
    }
}
