//! The fallback of [`super::parse`] for text that `JSON.parse` accepts but serde_json rejects
//! because a string holds a lone-surrogate escape (`"\ud83d"` — what a JavaScript server writes
//! when a stream cut a surrogate pair in half). Such escapes are replaced with `\ufffd` (what
//! `TextEncoder` does with a lone surrogate) and the text is parsed again; nothing else changes.
//!
//! This only rewrites `\u` escape sequences: every other escape, `\\` included, is stepped over
//! whole, and backslashes occur nowhere else in valid JSON.

use super::Value;

/// The document with its lone-surrogate escapes replaced, parsed; `None` when it had none (the
/// text is invalid for another reason) or is still invalid.
pub(super) fn parse_repaired(text: &str) -> Option<Value<'static>> {
    let fixed = replace_lone_surrogates(text)?;
    let value = serde_json::from_str::<Value<'_>>(&fixed).ok()?;
    Some(value.into_static())
}

/// `text` with every lone-surrogate escape replaced by `\ufffd`, or `None` when there was none.
fn replace_lone_surrogates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b != b'\\' {
            i += 1;
            continue;
        }
        if bytes.get(i + 1) != Some(&b'u') {
            i += 2; // any other escape, `\\` included
            continue;
        }
        let lone = match unit(bytes, i + 2) {
            Some(0xD800..=0xDBFF) => {
                let paired = bytes.get(i + 6) == Some(&b'\\')
                    && bytes.get(i + 7) == Some(&b'u')
                    && unit(bytes, i + 8).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
                if paired {
                    i += 12;
                    continue;
                }
                true
            }
            // A low surrogate not right after a high one (paired ones were stepped over).
            Some(0xDC00..=0xDFFF) => true,
            _ => false,
        };
        if lone {
            out.push_str(text.get(copied..i)?);
            out.push_str("\\ufffd");
            copied = i + 6;
        }
        i += 6;
    }
    if copied == 0 {
        return None;
    }
    out.push_str(text.get(copied..)?);
    Some(out)
}

/// The UTF-16 unit of the four hex digits at `at`.
fn unit(bytes: &[u8], at: usize) -> Option<u16> {
    let mut unit = 0;
    for i in at..at + 4 {
        unit = unit << 4 | char::from(*bytes.get(i)?).to_digit(16)?;
    }
    Some(unit as u16)
}
