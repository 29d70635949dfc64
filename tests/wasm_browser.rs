//! Runs in headless Chromium: the transcript binding and the session binding (configuration
//! check, effects) behave there as in Node.
#![cfg(target_arch = "wasm32")]

use letta_agent_wasm::js::session::{op, SessionMachine};
use letta_agent_wasm::js::transcript::{op as transcript_op, TranscriptCore};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn transcript_binding_in_the_browser() {
    let mut core = TranscriptCore::new();
    let message = r#"{"type":"reasoning","content":"hm","uuid":"m1","runId":"r1","seqId":1}"#;
    assert!(core.run(transcript_op::MESSAGE, message).is_some());
    assert!(core
        .run(transcript_op::TAKE_PATCH, "")
        .unwrap()
        .contains(r#""kind":"reasoning""#));
    assert!(core.run(transcript_op::MESSAGE, message).is_none());
}

#[wasm_bindgen_test]
fn the_session_binding_refuses_a_configuration_of_another_shape() {
    // The wrapper (driver.js) turns the refusal into a typed `invalid_argument` error.
    let machine =
        SessionMachine::create(r#"{"target":{"kind":"resumeSession","id":"conv-1"}}"#, "n");
    assert!(machine.is_none());
}

#[wasm_bindgen_test]
fn the_session_binding_reports_a_synchronous_error_as_name_code_and_message() {
    let mut machine = SessionMachine::create(
        r#"{"target":{"kind":"resumeConversation","conversationId":"conv-1"},"options":{}}"#,
        "n",
    )
    .expect("a valid configuration");
    let error = machine
        .run(op::SEND_RAW, 0.0, "[]", None, 0.0, 0.0)
        .expect("an error");
    let error: js_sys::Array = js_sys::JSON::parse(&error).unwrap().into();
    assert_eq!(error.length(), 3);
    assert!(error
        .get(0)
        .as_string()
        .is_some_and(|n| n.starts_with("Letta")));
    assert!(error.get(2).as_string().is_some_and(|m| !m.is_empty()));
}

#[wasm_bindgen_test]
fn the_session_binding_hands_out_effects_as_json() {
    let mut machine = SessionMachine::create(
        r#"{"target":{"kind":"resumeConversation","conversationId":"conv-1"},"options":{}}"#,
        "n",
    )
    .expect("a valid configuration");
    machine.run(op::BEGIN, 1.0, "", None, 0.0, 0.0);
    machine.run(op::OPEN, 0.0, "", None, 0.0, 0.0);
    let effects = machine
        .run(op::TAKE_EFFECTS, 0.0, "", None, 0.0, 0.0)
        .expect("the start sequence writes a frame");
    let effects: js_sys::Array = js_sys::JSON::parse(&effects).unwrap().into();
    let first: js_sys::Array = effects.get(0).into();
    assert_eq!(first.get(0).as_string().as_deref(), Some("write"));
    let frame = js_sys::JSON::parse(&first.get(1).as_string().unwrap()).unwrap();
    let frame_type = js_sys::Reflect::get(&frame, &"type".into()).unwrap();
    assert!(frame_type.as_string().is_some_and(|t| !t.is_empty()));
    assert!(
        machine
            .run(op::TAKE_EFFECTS, 0.0, "", None, 0.0, 0.0)
            .is_none(),
        "effects are handed out once"
    );
    assert!(
        machine.query(op::NEXT_DEADLINE) > 0.0,
        "the start request has a timeout"
    );

    machine.run(op::CLOSE, 0.0, "", None, 0.0, 0.0);
    let effects = machine
        .run(op::TAKE_EFFECTS, 0.0, "", None, 0.0, 0.0)
        .expect("closing settles the start call");
    assert!(effects.contains(r#"["error",1,"#), "{effects}");
    assert_eq!(machine.query(op::STREAM_ENDED), 1.0);
    assert_eq!(machine.query(op::NEXT_DEADLINE), -1.0);
}
