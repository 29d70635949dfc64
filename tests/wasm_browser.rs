//! Runs in headless Chromium: the transcript binding and the session driver's option checks
//! behave there as in Node.
#![cfg(target_arch = "wasm32")]

use letta_agent_wasm::js::session::SessionDriver;
use letta_agent_wasm::js::transcript::TranscriptCore;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn transcript_binding_in_the_browser() {
    let mut core = TranscriptCore::new();
    let message = r#"{"type":"reasoning","content":"hm","uuid":"m1","runId":"r1","seqId":1}"#;
    assert!(core.apply_json(message));
    assert!(core.take_patch().unwrap().contains(r#""kind":"reasoning""#));
    assert!(!core.apply_json(message));
}

#[wasm_bindgen_test]
fn the_driver_rejects_bad_options_with_typed_errors() {
    let events = js_sys::Function::new_no_args("");
    let error = SessionDriver::new(
        r#"{"backend":"remote","url":"ftp://x"}"#,
        "{}",
        r#"{"kind":"createSession","agentId":"a"}"#,
        "n",
        JsValue::UNDEFINED,
        events.clone(),
    )
    .err()
    .expect("an error");
    let code = js_sys::Reflect::get(&error, &"code".into()).unwrap();
    assert_eq!(code.as_string().as_deref(), Some("invalid_argument"));
    let message = js_sys::Reflect::get(&error, &"message".into()).unwrap();
    assert_eq!(
        message.as_string().as_deref(),
        Some("Unsupported app-server URL protocol: ftp:")
    );
    assert!(SessionDriver::new(
        r#"{"backend":"remote","url":"ws://127.0.0.1:9/ws"}"#,
        r#"{"permissionMode":"strict"}"#,
        r#"{"kind":"resumeSession","id":"conv-1"}"#,
        "n",
        JsValue::UNDEFINED,
        events,
    )
    .is_ok());
}
