//! The transcript binding under wasm-bindgen-test, in Node (this file) and in headless
//! Chromium (`wasm_browser.rs` runs the same checks through `transcript_binding_checks`).
#![cfg(target_arch = "wasm32")]

use letta_agent_wasm::js::transcript::{extract_stream_text_delta, TranscriptCore};
use wasm_bindgen_test::wasm_bindgen_test;

fn patch_rows(patch: &str) -> serde_json::Value {
    serde_json::from_str(patch).expect("the patch is JSON")
}

#[wasm_bindgen_test]
fn apply_returns_a_patch_only_when_rows_change() {
    let mut core = TranscriptCore::new();
    let message =
        r#"{"type":"assistant","content":"Hel","uuid":"m1","otid":"o1","runId":"r1","seqId":1}"#;
    let patch = patch_rows(&core.apply(message).expect("a new row"));
    assert_eq!(patch["len"], 1);
    assert_eq!(patch["rows"][0][0], 0);
    assert_eq!(patch["rows"][0][1]["text"], "Hel");
    assert_eq!(patch["rows"][0][1]["key"], "assistant:otid:o1");

    assert!(
        core.apply(message).is_none(),
        "a replayed seqId changes nothing"
    );
    assert!(core.apply("not json").is_none());
    assert!(core.apply(r#"{"type":"assistant","content":7}"#).is_none());

    let next =
        r#"{"type":"assistant","content":"lo","uuid":"m1","otid":"o1","runId":"r1","seqId":2}"#;
    let patch = patch_rows(&core.apply(next).expect("an append"));
    assert_eq!(patch["rows"][0][1]["text"], "Hello");
}

#[wasm_bindgen_test]
fn rebase_reports_moved_rows() {
    let mut core = TranscriptCore::new();
    core.apply(r#"{"type":"assistant","content":"live","uuid":"m2","runId":"r1"}"#);
    let page = r#"{"messages":[{"id":"m1","message_type":"user_message","content":"hi"}]}"#;
    let patch = patch_rows(&core.rebase(page, 1).expect("a history row"));
    assert_eq!(patch["len"], 2);
    assert_eq!(patch["moved"], serde_json::json!([-1, 0]));
    assert_eq!(patch["rows"][0][1]["kind"], "user");
}

#[wasm_bindgen_test]
fn extract_stream_text_delta_round_trips_json() {
    assert_eq!(
        extract_stream_text_delta(r#"{"delta":{"text":"hi"}}"#),
        r#"{"kind":"assistant","text":"hi"}"#
    );
    assert_eq!(
        extract_stream_text_delta(r#"{"message_type":"stop_reason"}"#),
        "null"
    );
}
