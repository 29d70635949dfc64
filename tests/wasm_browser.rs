//! Runs in headless Chromium: the transcript binding and the session binding (configuration
//! check, effects) behave there as in Node.
#![cfg(target_arch = "wasm32")]

use letta_agent_wasm::js::session::SessionMachine;
use letta_agent_wasm::js::transcript::TranscriptCore;
use wasm_bindgen::JsCast;
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
fn the_session_binding_refuses_a_configuration_of_another_shape_with_a_typed_error() {
    let error = SessionMachine::new(r#"{"target":{"kind":"resumeSession","id":"conv-1"}}"#, "n")
        .err()
        .expect("an error");
    let code = js_sys::Reflect::get(&error, &"code".into()).unwrap();
    assert_eq!(code.as_string().as_deref(), Some("invalid_argument"));
    assert!(error.is_instance_of::<js_sys::Error>());
}

#[wasm_bindgen_test]
fn the_session_binding_hands_out_effects_as_json() {
    let mut machine = SessionMachine::new(
        r#"{"target":{"kind":"resumeConversation","conversationId":"conv-1"},"options":{}}"#,
        "n",
    )
    .expect("a valid configuration");
    machine.begin(1, 0.0);
    machine.on_open(0.0);
    let effects = machine
        .take_effects()
        .expect("the start sequence writes a frame");
    let effects: js_sys::Array = js_sys::JSON::parse(&effects).unwrap().into();
    let first: js_sys::Array = effects.get(0).into();
    assert_eq!(first.get(0).as_string().as_deref(), Some("write"));
    let frame = js_sys::JSON::parse(&first.get(1).as_string().unwrap()).unwrap();
    let frame_type = js_sys::Reflect::get(&frame, &"type".into()).unwrap();
    assert!(frame_type.as_string().is_some_and(|t| !t.is_empty()));
    assert!(
        machine.take_effects().is_none(),
        "effects are handed out once"
    );
    assert!(
        machine.next_deadline() > 0.0,
        "the start request has a timeout"
    );

    machine.close(0.0);
    let effects = machine
        .take_effects()
        .expect("closing settles the start call");
    assert!(effects.contains(r#"["error",1,"#), "{effects}");
    assert!(machine.stream_ended());
    assert_eq!(machine.next_deadline(), -1.0);
}
