//! The transcript binding under wasm-bindgen-test in Node (`wasm_browser.rs` runs in Chromium).
#![cfg(target_arch = "wasm32")]

use letta_agent_wasm::js::transcript::{op, TranscriptCore, NEW_IDS, TOOL_CALL};
use wasm_bindgen_test::wasm_bindgen_test;

fn take_patch(core: &mut TranscriptCore) -> serde_json::Value {
    serde_json::from_str(&core.run(op::TAKE_PATCH, "").expect("a patch"))
        .expect("the patch is JSON")
}

#[wasm_bindgen_test]
fn json_messages_produce_a_patch_only_when_rows_change() {
    let mut core = TranscriptCore::new();
    let message =
        r#"{"type":"assistant","content":"Hel","uuid":"m1","otid":"o1","runId":"r1","seqId":1}"#;
    assert!(core.run(op::MESSAGE, message).is_some());
    let p = take_patch(&mut core);
    assert_eq!(p["len"], 1);
    assert_eq!(p["rows"][0][0], 0);
    assert_eq!(p["rows"][0][1]["text"], "Hel");
    assert_eq!(p["rows"][0][1]["key"], "assistant:otid:o1");
    assert!(
        core.run(op::MESSAGE, message).is_none(),
        "a replayed seqId changes nothing"
    );
    assert!(core.run(op::MESSAGE, "not json").is_none());
    assert!(core
        .run(op::MESSAGE, r#"{"type":"assistant","content":7}"#)
        .is_none());
    assert!(core.run(op::TAKE_PATCH, "").is_none());
}

#[wasm_bindgen_test]
fn typed_fragments_report_plain_appends() {
    let mut core = TranscriptCore::new();
    assert_eq!(
        core.apply_text(
            1 | NEW_IDS,
            "Hel",
            Some(1.0),
            Some("m1".into()),
            Some("o1".into()),
            Some("r1".into())
        ),
        -2,
        "a new row needs the patch"
    );
    assert_eq!(take_patch(&mut core)["rows"][0][1]["text"], "Hel");
    assert_eq!(
        core.apply_text(1, "lo", Some(2.0), None, None, None),
        0,
        "an append to row 0"
    );
    core.run(op::DISCARD_PATCH, "");
    assert!(core.run(op::TAKE_PATCH, "").is_none());
    assert_eq!(
        core.apply_text(1, "!", Some(2.0), None, None, None),
        -1,
        "a replay changes nothing"
    );
    assert_ne!(core.apply_text(1, "!", Some(3.0), None, None, None), -1);
    assert_eq!(take_patch(&mut core)["rows"][0][1]["text"], "Hello!");
}

#[wasm_bindgen_test]
fn rebase_reports_moved_rows() {
    let mut core = TranscriptCore::new();
    core.run(
        op::MESSAGE,
        r#"{"type":"assistant","content":"live","uuid":"m2","runId":"r1"}"#,
    );
    core.run(op::TAKE_PATCH, "");
    let page = r#"{"messages":[{"id":"m1","message_type":"user_message","content":"hi"}]}"#;
    assert!(core.run(op::PAGE_ASC, page).is_some());
    let p = take_patch(&mut core);
    assert_eq!(p["len"], 2);
    assert_eq!(p["moved"], serde_json::json!([-1, 0]));
    assert_eq!(p["rows"][0][1]["kind"], "user");
}

#[wasm_bindgen_test]
fn extract_stream_text_delta_round_trips_json() {
    assert_eq!(
        TranscriptCore::new()
            .run(op::STREAM_TEXT_DELTA, r#"{"delta":{"text":"hi"}}"#)
            .as_deref(),
        Some(r#"{"kind":"assistant","text":"hi"}"#)
    );
    assert_eq!(
        TranscriptCore::new()
            .run(op::STREAM_TEXT_DELTA, r#"{"message_type":"stop_reason"}"#)
            .as_deref(),
        Some("null")
    );
}

#[wasm_bindgen_test]
fn tool_call_fragments_share_the_fragment_entry_point() {
    let mut core = TranscriptCore::new();
    let fragment = |core: &mut TranscriptCore, input: Option<&str>| {
        core.apply_fragment(
            TOOL_CALL,
            "call-1",
            None,
            Some("Bash".into()),
            None,
            input.map(Into::into),
            Some("m1".into()),
            Some("r1".into()),
        )
    };
    assert_eq!(fragment(&mut core, Some(r#"{"command":"ls"}"#)), -2);
    let p = take_patch(&mut core);
    assert_eq!(p["rows"][0][1]["kind"], "tool_call");
    assert_eq!(p["rows"][0][1]["toolName"], "Bash");
    assert_eq!(
        fragment(&mut core, Some("[1]")),
        -1,
        "a toolInput that is not an object changes nothing"
    );
}
