//! Runs in headless Chromium: the transcript binding behaves there as in Node.
#![cfg(target_arch = "wasm32")]

use letta_agent_wasm::js::transcript::TranscriptCore;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn transcript_binding_in_the_browser() {
    let mut core = TranscriptCore::new();
    let first = core
        .apply(r#"{"type":"reasoning","content":"hm","uuid":"m1","runId":"r1","seqId":1}"#)
        .expect("a new row");
    assert!(first.contains(r#""kind":"reasoning""#));
    assert!(core
        .apply(r#"{"type":"reasoning","content":"hm","uuid":"m1","runId":"r1","seqId":1}"#)
        .is_none());
}
