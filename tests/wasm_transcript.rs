//! The transcript binding under wasm-bindgen-test in Node (`wasm_browser.rs` runs in Chromium).
#![cfg(target_arch = "wasm32")]

use js_sys::JsString;
use letta_agent_wasm::js::transcript::{TextFragment, TranscriptCore};
use wasm_bindgen_test::wasm_bindgen_test;

fn take_patch(core: &mut TranscriptCore) -> serde_json::Value {
    serde_json::from_str(&core.take_patch().expect("a patch")).expect("the patch is JSON")
}

#[wasm_bindgen_test]
fn json_messages_produce_a_patch_only_when_rows_change() {
    let mut core = TranscriptCore::new();
    let message =
        r#"{"type":"assistant","content":"Hel","uuid":"m1","otid":"o1","runId":"r1","seqId":1}"#;
    assert!(core.apply_message(&JsString::from(message)));
    let p = take_patch(&mut core);
    assert_eq!(p["len"], 1);
    assert_eq!(p["rows"][0][0], 0);
    assert_eq!(p["rows"][0][1]["text"], "Hel");
    assert_eq!(p["rows"][0][1]["key"], "assistant:otid:o1");
    assert!(
        !core.apply_message(&JsString::from(message)),
        "a replayed seqId changes nothing"
    );
    assert!(!core.apply_message(&JsString::from("not json")));
    assert!(!core.apply_message(&JsString::from(r#"{"type":"assistant","content":7}"#)));
    assert!(core.take_patch().is_none());
}

#[wasm_bindgen_test]
fn typed_fragments_report_plain_appends() {
    let mut core = TranscriptCore::new();
    assert_eq!(
        core.apply_with_ids(
            TextFragment::Assistant,
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
        core.apply_same_ids(TextFragment::Assistant, "lo", Some(2.0)),
        0,
        "an append to row 0"
    );
    core.discard_patch();
    assert!(core.take_patch().is_none());
    assert_eq!(
        core.apply_same_ids(TextFragment::Assistant, "!", Some(2.0)),
        -1,
        "a replay changes nothing"
    );
    assert_ne!(
        core.apply_same_ids(TextFragment::Assistant, "!", Some(3.0)),
        -1
    );
    assert_eq!(take_patch(&mut core)["rows"][0][1]["text"], "Hello!");
}

#[wasm_bindgen_test]
fn rebase_reports_moved_rows() {
    let mut core = TranscriptCore::new();
    core.apply_message(&JsString::from(
        r#"{"type":"assistant","content":"live","uuid":"m2","runId":"r1"}"#,
    ));
    core.take_patch();
    let page = r#"{"messages":[{"id":"m1","message_type":"user_message","content":"hi"}]}"#;
    assert!(core.rebase(&JsString::from(page), Some("asc".into())));
    let p = take_patch(&mut core);
    assert_eq!(p["len"], 2);
    assert_eq!(p["moved"], serde_json::json!([-1, 0]));
    assert_eq!(p["rows"][0][1]["kind"], "user");
}

#[wasm_bindgen_test]
fn extract_stream_text_delta_round_trips_json() {
    assert_eq!(
        TranscriptCore::extract_stream_text_delta(r#"{"delta":{"text":"hi"}}"#).as_str(),
        r#"{"kind":"assistant","text":"hi"}"#
    );
    assert_eq!(
        TranscriptCore::extract_stream_text_delta(r#"{"message_type":"stop_reason"}"#).as_str(),
        "null"
    );
}

#[wasm_bindgen_test]
fn tool_call_fragments_take_typed_arguments() {
    let mut core = TranscriptCore::new();
    let fragment = |core: &mut TranscriptCore, input: Option<&str>| {
        core.apply_tool_call(
            "call-1",
            Some("Bash".into()),
            None,
            input.map(Into::into),
            Some("m1".into()),
            Some("r1".into()),
        )
    };
    assert!(fragment(&mut core, Some(r#"{"command":"ls"}"#)));
    let p = take_patch(&mut core);
    assert_eq!(p["rows"][0][1]["kind"], "tool_call");
    assert_eq!(p["rows"][0][1]["toolName"], "Bash");
    assert!(
        !fragment(&mut core, Some("[1]")),
        "a toolInput that is not an object changes nothing"
    );
}
