//! Invalid input leaves the accumulator untouched; batches skip invalid elements.

use super::{apply, assistant, rows, take, texts};
use crate::transcript::TranscriptAccumulator;
use serde_json::json;

/// A seeded accumulator: one row, replay threshold r1=1, patch taken.
fn seeded() -> TranscriptAccumulator {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("a", "m1", Some("o1"), 1, "r1"));
    take(&mut acc);
    acc
}

#[test]
fn wrong_member_types_make_the_message_invalid() {
    let bad = [
        json!({"type": "assistant", "content": 42, "uuid": "m1", "otid": "o1", "seqId": 5, "runId": "r1"}),
        json!({"type": "assistant", "content": "x", "uuid": "m1", "otid": 5, "seqId": 5, "runId": "r1"}),
        json!({"type": "assistant", "content": "x", "uuid": "m1", "otid": "o1", "seqId": "5", "runId": "r1"}),
        json!({"type": "assistant", "content": "x", "uuid": ["m1"], "otid": "o1", "seqId": 5}),
        json!({"type": "reasoning", "content": "x", "uuid": "m1", "runId": false}),
        json!({"type": "tool_call", "toolCallId": {}, "toolName": "Bash"}),
        json!({"type": "tool_call", "toolCallId": "c1", "toolInput": [1]}),
        json!({"type": "tool_call", "toolCallId": "c1", "toolInput": "{}"}),
        json!({"type": "tool_call", "toolCallId": "c1", "rawArguments": 7}),
        json!({"type": "tool_call", "toolName": "Bash", "toolInput": {}}),
        json!({"type": "tool_call", "toolCallId": "", "toolInput": {}}),
        json!({"type": "tool_result", "toolCallId": "c1", "content": "x", "isError": "yes"}),
        json!({"type": "tool_result", "toolCallId": "c1", "content": {"text": "x"}}),
        json!({"type": "stream_event", "uuid": 3, "event": {"delta": {"text": "x"}}}),
    ];
    for m in bad {
        let mut acc = seeded();
        let before = rows(&acc);
        assert!(!apply(&mut acc, m.clone()), "accepted {m}");
        assert_eq!(rows(&acc), before, "{m}");
        assert_eq!(acc.take_patch(), None, "{m}");
        // The replay threshold did not move either: seq 2 of run r1 is still accepted.
        assert!(
            apply(&mut acc, assistant("b", "m1", Some("o1"), 2, "r1")),
            "{m}"
        );
    }
}

#[test]
fn invalid_seq_message_does_not_raise_the_threshold() {
    let mut acc = seeded();
    let bad = json!({"type": "assistant", "content": 1, "uuid": "m1", "otid": "o1", "seqId": 9, "runId": "r1"});
    assert!(!apply(&mut acc, bad));
    assert!(apply(&mut acc, assistant("b", "m1", Some("o1"), 2, "r1")));
    assert_eq!(texts(&acc), vec![json!("ab")]);
}

#[test]
fn non_objects_unknown_types_and_bad_json_are_ignored() {
    for text in [
        "42",
        "null",
        "\"assistant\"",
        "[]",
        "{}",
        "{\"type\": 3}",
        "{\"type\": \"user\", \"content\": \"x\"}",
        "{\"type\": \"nope\"}",
        "{\"type\": \"assistant\", \"content\": \"x\"",
        "not json",
    ] {
        let mut acc = seeded();
        assert!(!acc.apply_json(text), "{text}");
        assert_eq!(acc.take_patch(), None, "{text}");
        assert_eq!(texts(&acc), vec![json!("a")]);
    }
}

#[test]
fn ignored_types_are_valid_but_change_nothing() {
    let mut acc = seeded();
    for ty in [
        "init",
        "result",
        "error",
        "retry",
        "queue_update",
        "loop_status",
    ] {
        assert!(!apply(&mut acc, json!({"type": ty, "content": 42})), "{ty}");
    }
    assert_eq!(acc.take_patch(), None);
}

#[test]
fn null_members_count_as_absent_and_extra_members_are_fine() {
    let mut acc = TranscriptAccumulator::new();
    let m = json!({"type": "assistant", "content": "x", "uuid": "m1", "otid": null, "seqId": null,
        "runId": null, "extra": {"deep": [1, 2]}});
    assert!(apply(&mut acc, m));
    let r = &rows(&acc)[0];
    assert_eq!(r["key"], "assistant:uuid:m1");
    assert!(r.get("otid").is_none() && r.get("seqId").is_none() && r.get("runId").is_none());
    let call =
        json!({"type": "tool_call", "toolCallId": "c1", "toolInput": null, "rawArguments": null});
    assert!(apply(&mut acc, call));
    assert_eq!(rows(&acc)[1]["status"], "streaming");
}

#[test]
fn missing_content_is_an_empty_slice() {
    let mut acc = TranscriptAccumulator::new();
    assert!(apply(&mut acc, json!({"type": "assistant", "uuid": "m1"})));
    assert_eq!(texts(&acc), vec![json!("")]);
}

#[test]
fn escaped_strings_are_unescaped() {
    let mut acc = TranscriptAccumulator::new();
    let m = r#"{"type":"assistant","content":"a\"b\n\u00e9","uuid":"m\u0031","otid":"o1"}"#;
    assert!(acc.apply_json(m));
    assert_eq!(texts(&acc), vec![json!("a\"b\né")]);
    assert_eq!(rows(&acc)[0]["uuid"], "m1");
}

#[test]
fn apply_many_skips_invalid_elements() {
    let mut acc = TranscriptAccumulator::new();
    let batch = json!([
        assistant("a", "m1", Some("o1"), 1, "r1"),
        42,
        {"type": "assistant", "content": 1},
        assistant("b", "m1", Some("o1"), 2, "r1"),
        assistant("b", "m1", Some("o1"), 2, "r1"),
        {"type": "result"},
    ]);
    assert!(acc.apply_many_json(&batch.to_string()));
    assert_eq!(texts(&acc), vec![json!("ab")]);
    let p = take(&mut acc).expect("one patch for the batch");
    assert_eq!(p["rows"].as_array().map(Vec::len), Some(1));
}

#[test]
fn apply_many_rejects_non_arrays_and_reports_unchanged_batches() {
    let mut acc = seeded();
    assert!(!acc.apply_many_json("{}"));
    assert!(!acc.apply_many_json("nope"));
    assert!(!acc.apply_many_json("[]"));
    assert!(!acc.apply_many_json(r#"[{"type":"init"}, 1, null]"#));
    assert_eq!(acc.take_patch(), None);
}

#[test]
fn apply_many_reads_every_element_kind_in_one_pass() {
    let mut acc = TranscriptAccumulator::new();
    let batch = r#"[[1, {"type": "assistant"}], "x", true, false, null, 1.5, -2, {},
        {"ty\u0070e": "assistant", "content": "a\u00e9", "uuid": "m1", "extra": [{"deep": [1]}]},
        {"type": "tool_call", "toolCallId": "c1", "toolInput": {"raw": "{"}, "rawArguments": "{"},
        {"type": "tool_call", "toolCallId": "c1", "toolInput": {"raw": "}"}, "rawArguments": "}"}]"#;
    assert!(acc.apply_many_json(batch));
    let r = rows(&acc);
    assert_eq!(r[0]["text"], "aé");
    assert_eq!(r[1]["status"], "ready");
    assert_eq!(r.as_array().map(Vec::len), Some(2));
    assert!(!acc.apply_many_json(r#"[{"type": "assistant", "content": "x"}"#));
}
