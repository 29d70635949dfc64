//! What a frame is, read without parsing it:
//! - its `type`, so that big frames nobody asked for (`update_device_status`, 3–13 KB and
//!   frequent) are dropped for the cost of a prefix check;
//! - its broadcast identity (`event_seq`, `idempotency_key`), so that a repeated frame is dropped
//!   for the cost of a suffix check (issue 11).
//!
//! The observed app server always writes `type` first, so only a frame that starts with
//! `{"type":"<name>"` (no escapes in the name) is recognised. It writes the broadcast members
//! last (letta-code 0.32.18 `emitProtocolV2Message`: `{...message, runtime, event_seq,
//! emitted_at, idempotency_key}` through `JSON.stringify`), so only that tail is read. Anything
//! else reads as absent and the frame takes the ordinary path (the full parse validates what is
//! kept).

use super::wire::plain_string;
use std::borrow::Cow;

/// The `<name>` of a frame starting with `{"type":"<name>"`, else `None`. Always borrowed.
pub fn peek_frame_type(text: &str) -> Option<Cow<'_, str>> {
    let (name, _) = plain_string(text.strip_prefix("{\"type\":")?)?;
    Some(Cow::Borrowed(name))
}

/// The broadcast identity of a frame, read from its tail (absent members are `None`).
/// Responses and `input_accepted` carry neither.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventIds<'a> {
    /// Top-level `event_seq` (the server's per-connection counter).
    pub event_seq: Option<u64>,
    /// Top-level `idempotency_key` (`<type>:<event_seq>:<uuid>`).
    pub idempotency_key: Option<&'a str>,
    /// Where the broadcast members begin (the `,` of `,"event_seq":`) when `event_seq` was
    /// read: the frame's own content, which both sockets' copies share, ends there.
    pub envelope_at: Option<usize>,
}

impl EventIds<'_> {
    /// Neither member was found.
    pub fn is_empty(&self) -> bool {
        self.event_seq.is_none() && self.idempotency_key.is_none()
    }
}

/// The `event_seq` and `idempotency_key` of a frame ending in
/// `,"event_seq":<n>,"emitted_at":"<s>","idempotency_key":"<k>"}` (or in `,"event_seq":<n>}`).
/// Only the tail is looked at: a frame laid out otherwise reads as having neither. On text that
/// is a JSON object, the members found are the top-level ones: the final `}` closes the object,
/// and a string value without escapes cannot hold the unescaped quotes of a member name.
pub fn peek_event_ids(text: &str) -> EventIds<'_> {
    let Some(body) = text.strip_suffix('}') else {
        return EventIds::default();
    };
    let (event_seq, idempotency_key) = match trailing_string(body, ",\"idempotency_key\":") {
        Some((rest, key)) => (
            trailing_string(rest, ",\"emitted_at\":")
                .and_then(|(rest, _)| trailing_number(rest, ",\"event_seq\":")),
            Some(key),
        ),
        None => (trailing_number(body, ",\"event_seq\":"), None),
    };
    EventIds {
        event_seq: event_seq.map(|(_, seq)| seq),
        idempotency_key,
        envelope_at: event_seq.map(|(at, _)| at),
    }
}

/// Splits `<rest><member>"<value>"` (a value without escapes) at the end of `text`.
fn trailing_string<'a>(text: &'a str, member: &str) -> Option<(&'a str, &'a str)> {
    let body = text.strip_suffix('"')?;
    let open = body.bytes().rposition(|b| b == b'"' || b == b'\\')?;
    if body.as_bytes().get(open) != Some(&b'"') {
        return None;
    }
    let (head, value) = body.split_at_checked(open)?;
    Some((head.strip_suffix(member)?, value.get(1..)?))
}

/// The non-negative integer of `<member><digits>` at the end of `text` (`None` beyond `u64`),
/// with where `<member>` starts.
fn trailing_number(text: &str, member: &str) -> Option<(usize, u64)> {
    let digits = text.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (head, number) = text.split_at_checked(text.len() - digits)?;
    if digits == 0 || digits > 20 || !head.ends_with(member) {
        return None;
    }
    let number = number.bytes().try_fold(0u64, |n, b| {
        n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
    })?;
    Some((head.len() - member.len(), number))
}

#[cfg(test)]
mod tests {
    use super::{peek_event_ids, peek_frame_type, EventIds};

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

    #[test]
    fn reads_the_broadcast_tail_of_a_recorded_frame() {
        let text = r#"{"type":"stream_delta","delta":{"id":"m","event_seq":99,"idempotency_key":"inner"},"runtime":{"agent_id":"a","conversation_id":"c"},"event_seq":10,"emitted_at":"2026-11-30T15:22:03.764Z","idempotency_key":"stream_delta:10:b42c5345"}"#;
        let envelope = text.find(r#","event_seq":10,"#).unwrap();
        assert_eq!(
            peek_event_ids(text),
            EventIds {
                event_seq: Some(10),
                idempotency_key: Some("stream_delta:10:b42c5345"),
                envelope_at: Some(envelope),
            }
        );
        assert_eq!(
            peek_event_ids(r#"{"type":"x","event_seq":7}"#),
            EventIds {
                event_seq: Some(7),
                idempotency_key: None,
                envelope_at: Some(11),
            }
        );
        assert_eq!(
            peek_event_ids(r#"{"type":"x","event_seq":18446744073709551615}"#).event_seq,
            Some(u64::MAX)
        );
        // A key with no `event_seq` / `emitted_at` pair before it still counts.
        assert_eq!(
            peek_event_ids(r#"{"type":"x","idempotency_key":"k"}"#).idempotency_key,
            Some("k")
        );
    }

    #[test]
    fn anything_but_the_broadcast_tail_reads_as_absent() {
        for text in [
            "",
            "}",
            r#"{"type":"list_messages_response","request_id":"r1","success":true}"#,
            r#"{"type":"input_accepted","request_id":"input-1","accepted":true}"#,
            // Nested members are not the frame's.
            r#"{"type":"x","delta":{"event_seq":3,"idempotency_key":"k"}}"#,
            r#"{"type":"x","delta":{"idempotency_key":"k"},"n":1}"#,
            // Escapes, trailing space, numbers that are not plain integers.
            r#"{"type":"x","idempotency_key":"a\"b"}"#,
            r#"{"type":"x","note":"\",\"idempotency_key\":\"k"}"#,
            r#"{"type":"x","idempotency_key":"k"} "#,
            r#"{"type":"x","event_seq":-1}"#,
            r#"{"type":"x","event_seq":1.5}"#,
            r#"{"type":"x","event_seq":}"#,
            r#"{"type":"x","event_seq":99999999999999999999}"#,
            r#"{"type":"x","event_seq":18446744073709551616}"#,
            r#"{"type":"x","event_seq":"1"}"#,
        ] {
            assert!(peek_event_ids(text).is_empty(), "{text}");
        }
        // A tail with a key whose event_seq is not in place keeps the key only.
        let ids =
            peek_event_ids(r#"{"event_seq":1,"type":"x","emitted_at":"t","idempotency_key":"k"}"#);
        assert_eq!(
            (ids.event_seq, ids.idempotency_key, ids.envelope_at),
            (None, Some("k"), None)
        );
    }
}
