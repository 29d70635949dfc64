//! Runs in headless Chromium: the transcript binding and the session binding (configuration
//! check, typed errors) behave there as in Node.
#![cfg(target_arch = "wasm32")]

use js_sys::JsString;
use letta_agent_wasm::js::session::SessionDriver;
use letta_agent_wasm::js::transcript::TranscriptCore;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn transcript_binding_in_the_browser() {
    let mut core = TranscriptCore::new();
    let message = r#"{"type":"reasoning","content":"hm","uuid":"m1","runId":"r1","seqId":1}"#;
    assert!(core.apply_message(&JsString::from(message)));
    assert!(core.take_patch().unwrap().contains(r#""kind":"reasoning""#));
    assert!(!core.apply_message(&JsString::from(message)));
}

#[wasm_bindgen_test]
fn the_session_binding_refuses_a_configuration_of_another_shape() {
    let refused = SessionDriver::new(
        r#"{"target":{"kind":"resumeSession","id":"conv-1"}}"#,
        "n",
        "ws://127.0.0.1:9/ws".to_owned(),
        None,
        None,
        js_sys::Function::new_no_args(""),
    );
    let error = refused.err().expect("a typed error");
    let name = js_sys::Reflect::get(&error, &"name".into()).unwrap();
    let code = js_sys::Reflect::get(&error, &"code".into()).unwrap();
    assert_eq!(
        name.as_string().as_deref(),
        Some("LettaInvalidArgumentError")
    );
    assert_eq!(code.as_string().as_deref(), Some("invalid_argument"));
}

#[wasm_bindgen_test]
fn a_released_session_is_closed_and_throws_a_typed_error() {
    let driver = SessionDriver::new(
        r#"{"target":{"kind":"resumeConversation","conversationId":"conv-1"},"options":{}}"#,
        "n",
        "ws://127.0.0.1:9/ws".to_owned(),
        None,
        None,
        js_sys::Function::new_no_args(""),
    )
    .expect("a valid configuration");
    assert!(!driver.is_closed());
    driver.release();
    assert!(driver.is_closed());
    let error = driver.send_raw("{}").expect_err("closed");
    let code = js_sys::Reflect::get(&error, &"code".into()).unwrap();
    assert_eq!(code.as_string().as_deref(), Some("closed"));
}
