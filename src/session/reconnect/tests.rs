//! The pure pieces of `reconnect`: content keys, their window, the backoff.

use super::*;

#[test]
fn content_keys_ignore_the_per_socket_envelope() {
    let a = r#"{"type":"stream_delta","delta":{"id":"m1","seq_id":3},"runtime":{"conversation_id":"c"},"event_seq":7,"emitted_at":"t1","idempotency_key":"stream_delta:7:u1"}"#;
    let b = r#"{"type":"stream_delta","delta":{"id":"m1","seq_id":3},"runtime":{"conversation_id":"c"},"event_seq":41,"emitted_at":"t2","idempotency_key":"stream_delta:41:u2"}"#;
    let c = r#"{"type":"stream_delta","delta":{"id":"m1","seq_id":4},"runtime":{"conversation_id":"c"},"event_seq":8,"emitted_at":"t1","idempotency_key":"stream_delta:8:u3"}"#;
    assert_eq!(content_key(a), content_key(b));
    assert_ne!(content_key(a), content_key(c));
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
    let keys: std::collections::BTreeSet<u64> = variants.iter().map(|v| content_key(v)).collect();
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
    let mut connections = Connections {
        jitter: 12345,
        ..Connections::default()
    };
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
