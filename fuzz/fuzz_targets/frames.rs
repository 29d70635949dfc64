//! The frame reader and normalizer: any text as one incoming frame. Reads its type and
//! broadcast ids without parsing, parses it (device-status bodies included), normalizes a
//! stream delta and projects a device status. Nothing may panic, and every SDKMessage written
//! must be valid JSON.
#![no_main]

use letta_core::protocol::frames::{parse_frame_with, FrameBody, ParseOptions};
use letta_core::protocol::{normalize_delta, peek_event_ids, peek_frame_type, UuidCounter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let peeked = peek_frame_type(text);
    let ids = peek_event_ids(text);
    if let Some(key) = ids.idempotency_key {
        assert!(text.contains(key));
    }
    let Some(frame) = parse_frame_with(
        text,
        ParseOptions {
            device_status: true,
        },
    ) else {
        return;
    };
    // A type read by the peek is the type the parse reads.
    if let Some(peeked) = peeked {
        assert_eq!(peeked, frame.frame_type, "peeked type of {text}");
    }
    match &frame.body {
        FrameBody::StreamDelta(delta) => {
            let mut uuids = UuidCounter::default();
            if let Some(message) = normalize_delta(delta, "app-server", &mut uuids) {
                let json = message.to_json();
                assert!(
                    serde_json::from_str::<serde_json::Value>(&json).is_ok(),
                    "invalid JSON written: {json}"
                );
            }
        }
        FrameBody::DeviceStatus(status) => {
            if let Some(projected) = status.project() {
                let _ = format!("{projected:?}");
            }
        }
        _ => {}
    }
});
