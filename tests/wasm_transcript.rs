//! The transcript binding under wasm-bindgen-test in Node (`wasm_browser.rs` runs in Chromium).
#![cfg(target_arch = "wasm32")]

use letta_agent_wasm::js::transcript::{
    extract_stream_text_delta, json_input, patch_op, TranscriptCore,
};
use wasm_bindgen_test::wasm_bindgen_test;

fn take_patch(core: &mut TranscriptCore) -> serde_json::Value {
    serde_json::from_str(&core.patch(patch_op::TAKE).expect("a patch")).expect("the patch is JSON")
}

#[wasm_bindgen_test]
fn json_messages_produce_a_patch_only_when_rows_change() {
    let mut core = TranscriptCore::new();
    let message =
        r#"{"type":"assistant","content":"Hel","uuid":"m1","otid":"o1","runId":"r1","seqId":1}"#;
    assert!(core.apply_json(json_input::MESSAGE, message));
    let p = take_patch(&mut core);
    assert_eq!(p["len"], 1);
    assert_eq!(p["rows"][0][0], 0);
    assert_eq!(p["rows"][0][1]["text"], "Hel");
    assert_eq!(p["rows"][0][1]["key"], "assistant:otid:o1");
    assert!(
        !core.apply_json(json_input::MESSAGE, message),
        "a replayed seqId changes nothing"
    );
    assert!(!core.apply_json(json_input::MESSAGE, "not json"));
    assert!(!core.apply_json(json_input::MESSAGE, r#"{"type":"assistant","content":7}"#));
    assert!(core.patch(patch_op::TAKE).is_none());
}

#[wasm_bindgen_test]
fn typed_fragments_report_plain_appends() {
    let mut core = TranscriptCore::new();
    core.set_text_ids(Some("m1".into()), Some("o1".into()), Some("r1".into()));
    assert_eq!(
        core.apply_text(1, "Hel", Some(1.0)),
        -2,
        "a new row needs the patch"
    );
    assert_eq!(take_patch(&mut core)["rows"][0][1]["text"], "Hel");
    assert_eq!(core.apply_text(1, "lo", Some(2.0)), 0, "an append to row 0");
    core.patch(patch_op::DISCARD);
    assert!(core.patch(patch_op::TAKE).is_none());
    assert_eq!(
        core.apply_text(1, "!", Some(2.0)),
        -1,
        "a replay changes nothing"
    );
    assert_ne!(core.apply_text(1, "!", Some(3.0)), -1);
    assert_eq!(take_patch(&mut core)["rows"][0][1]["text"], "Hello!");
}

#[wasm_bindgen_test]
fn rebase_reports_moved_rows() {
    let mut core = TranscriptCore::new();
    core.apply_json(
        json_input::MESSAGE,
        r#"{"type":"assistant","content":"live","uuid":"m2","runId":"r1"}"#,
    );
    core.patch(patch_op::TAKE);
    let page = r#"{"messages":[{"id":"m1","message_type":"user_message","content":"hi"}]}"#;
    assert!(core.apply_json(json_input::PAGE_ASC, page));
    let p = take_patch(&mut core);
    assert_eq!(p["len"], 2);
    assert_eq!(p["moved"], serde_json::json!([-1, 0]));
    assert_eq!(p["rows"][0][1]["kind"], "user");
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
