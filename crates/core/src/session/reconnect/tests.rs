//! The pure pieces of `reconnect`: content keys, their window, the backoff.

use super::stream_keys::StreamKeys;
use super::*;

#[test]
fn content_keys_ignore_the_per_socket_envelope() {
    let a = r#"{"type":"stream_delta","delta":{"id":"m1","seq_id":3},"runtime":{"conversation_id":"c"},"event_seq":7,"emitted_at":"t1","idempotency_key":"stream_delta:7:u1"}"#;
    let b = r#"{"type":"stream_delta","delta":{"id":"m1","seq_id":3},"runtime":{"conversation_id":"c"},"event_seq":41,"emitted_at":"t2","idempotency_key":"stream_delta:41:u2"}"#;
    let c = r#"{"type":"stream_delta","delta":{"id":"m1","seq_id":4},"runtime":{"conversation_id":"c"},"event_seq":8,"emitted_at":"t1","idempotency_key":"stream_delta:8:u3"}"#;
    assert_eq!(content_key(a, None), content_key(b, None));
    assert_ne!(content_key(a, None), content_key(c, None));
}

#[test]
fn the_envelope_read_from_the_tail_gives_the_key_of_the_search() {
    // Every stream frame of the recorded turn, with and without the envelope's position.
    let capture = include_str!("../../../../../tests/captures/real-app-server-turn.jsonl");
    let mut frames = 0;
    for line in capture.lines() {
        let Some(frame) = line
            .split_once(r#""dir":"recv","frame":"#)
            .and_then(|(_, rest)| rest.strip_suffix('}'))
        else {
            continue;
        };
        let at = peek_event_ids(frame).envelope_at;
        if frame.starts_with(r#"{"type":"stream_delta""#) {
            assert!(at.is_some(), "{frame}");
            frames += 1;
        }
        assert_eq!(content_key(frame, at), content_key(frame, None), "{frame}");
    }
    assert!(frames > 20, "{frames} stream frames");
}

#[test]
fn content_keys_differ_for_any_one_byte_changed_or_dropped() {
    let frame =
        r#"{"type":"stream_delta","delta":{"id":"m1","content":"hello","seq_id":3},"event_seq":7}"#;
    let body = &frame[..frame.find(r#","event_seq""#).unwrap()];
    let mut variants = std::collections::BTreeSet::from([frame.to_owned()]);
    for at in 0..body.len() {
        let mut changed = frame.as_bytes().to_vec();
        changed[at] ^= 0x01;
        variants.insert(String::from_utf8(changed).unwrap());
        variants.insert(frame[..at].to_owned() + &frame[at + 1..]);
    }
    let keys: std::collections::BTreeSet<u64> =
        variants.iter().map(|v| content_key(v, None)).collect();
    assert!(variants.len() > 2 * body.len() - 10);
    assert_eq!(
        keys.len(),
        variants.len(),
        "every distinct text has its own key"
    );
}

#[test]
fn the_key_window_forgets_the_oldest() {
    let mut keys = StreamKeys::default();
    for key in 0..STREAM_KEY_WINDOW as u64 {
        assert!(keys.insert(key));
    }
    assert!(!keys.insert(0), "still remembered");
    assert!(keys.insert(STREAM_KEY_WINDOW as u64));
    assert!(keys.insert(0), "0 left the window");
    assert_eq!(keys.ring.len(), STREAM_KEY_WINDOW);
}

#[test]
fn backoff_doubles_with_jitter_and_is_capped() {
    let mut connections = Connections::seeded(12345);
    let policy = ReconnectPolicy {
        max_attempts: 10,
        backoff_ms: 100,
    };
    for failures in 1..=4u32 {
        let full = 100 * (1u64 << (failures - 1));
        let delay = connections.backoff(&policy, failures);
        assert!(delay >= full / 2 && delay < full, "{failures}: {delay}");
    }
    assert!(connections.backoff(&policy, 40) <= MAX_BACKOFF_MS);
}
