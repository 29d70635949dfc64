//! Text identity (aliases), replay suppression and stream events.

use super::{apply, assistant, rows, texts};
use crate::transcript::replay::{ReplayTable, MAX_RUNS};
use crate::transcript::TranscriptAccumulator;
use serde_json::json;

fn msg(ty: &str, content: &str, uuid: &str, otid: Option<&str>, seq: u64) -> serde_json::Value {
    let mut m = assistant(content, uuid, otid, seq, "r1");
    m["type"] = json!(ty);
    m
}

#[test]
fn text_thinking_text_under_one_message_id_opens_rows_in_order() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, msg("assistant", "first", "m1", Some("o1"), 1));
    apply(&mut acc, msg("reasoning", "thinking", "m1", Some("o2"), 2));
    apply(&mut acc, msg("assistant", "second", "m1", Some("o3"), 3));
    // A later id-only fragment continues the newest assistant slice.
    apply(&mut acc, msg("assistant", "-tail", "m1", None, 4));
    let r = rows(&acc);
    let keys: Vec<_> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].clone())
        .collect();
    assert_eq!(
        keys,
        vec![
            json!("assistant:otid:o1"),
            json!("reasoning:otid:o2"),
            json!("assistant:otid:o3")
        ]
    );
    assert_eq!(
        texts(&acc),
        vec![json!("first"), json!("thinking"), json!("second-tail")]
    );
    assert!(r.as_array().unwrap().iter().all(|row| row["uuid"] == "m1"));
}

#[test]
fn id_only_then_id_and_otid_stays_one_row_and_gains_the_otid() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, msg("assistant", "Hel", "m1", None, 1));
    apply(&mut acc, msg("assistant", "lo", "m1", Some("o1"), 2));
    apply(&mut acc, msg("assistant", "!", "m2", Some("o1"), 3));
    let r = &rows(&acc)[0];
    assert_eq!(rows(&acc).as_array().map(Vec::len), Some(1));
    assert_eq!(r["key"], "assistant:uuid:m1");
    assert_eq!(r["otid"], "o1");
    assert_eq!(r["text"], "Hello!");
    assert_eq!(r["uuid"], "m1", "uuid is pinned to the opening envelope");
}

#[test]
fn empty_ids_never_merge() {
    let mut acc = TranscriptAccumulator::new();
    let m = json!({"type": "assistant", "content": "x", "uuid": "", "otid": ""});
    apply(&mut acc, m.clone());
    apply(&mut acc, m);
    let r = rows(&acc);
    assert_eq!(r[0]["key"], "assistant:auto:1");
    assert_eq!(r[1]["key"], "assistant:auto:2");
    acc.reset();
    apply(&mut acc, json!({"type": "reasoning", "content": "y"}));
    assert_eq!(
        rows(&acc)[0]["key"],
        "reasoning:auto:1",
        "reset clears the counter"
    );
}

#[test]
fn replay_is_a_per_run_high_water_mark() {
    let mut acc = TranscriptAccumulator::new();
    assert!(apply(&mut acc, msg("assistant", "a", "m1", Some("o1"), 5)));
    // Out of order within the run, even for another family, is dropped.
    assert!(!apply(&mut acc, msg("reasoning", "r", "m2", Some("o2"), 4)));
    // No seqId: never suppressed.
    assert!(apply(
        &mut acc,
        json!({"type": "assistant", "content": "b", "uuid": "m1", "otid": "o1"})
    ));
    assert!(apply(&mut acc, msg("assistant", "c", "m1", Some("o1"), 6)));
    assert_eq!(texts(&acc), vec![json!("abc")]);
}

#[test]
fn runs_without_run_id_share_one_bucket() {
    let mut acc = TranscriptAccumulator::new();
    let m =
        |c: &str, seq: u64| json!({"type": "assistant", "content": c, "uuid": "m1", "seqId": seq});
    assert!(apply(&mut acc, m("a", 2)));
    assert!(!apply(&mut acc, m("a", 2)));
    assert!(!apply(&mut acc, m("a", 1)));
    assert!(apply(&mut acc, m("b", 3)));
    assert_eq!(texts(&acc), vec![json!("ab")]);
}

#[test]
fn the_65th_run_evicts_the_first_inserted() {
    let mut acc = TranscriptAccumulator::new();
    for run in 0..MAX_RUNS {
        let m = json!({"type": "assistant", "content": "x", "uuid": format!("m{run}"), "seqId": 10,
            "runId": format!("r{run}")});
        assert!(apply(&mut acc, m));
    }
    // Raising r0 does not refresh its position.
    assert!(apply(
        &mut acc,
        json!({"type": "assistant", "content": "y", "uuid": "m0", "seqId": 11, "runId": "r0"})
    ));
    let replay_r1 =
        json!({"type": "assistant", "content": "dup", "uuid": "m1", "seqId": 10, "runId": "r1"});
    assert!(!apply(&mut acc, replay_r1.clone()), "still tracked");
    assert_eq!(acc.replay.len(), MAX_RUNS);
    assert!(apply(
        &mut acc,
        json!({"type": "assistant", "content": "z", "uuid": "mnew", "seqId": 1, "runId": "new"})
    ));
    assert_eq!(acc.replay.len(), MAX_RUNS);
    assert_eq!(
        acc.replay.threshold(Some("r0")),
        None,
        "r0 was inserted first"
    );
    assert_eq!(acc.replay.threshold(Some("r1")), Some(10.0));
    // A replay of the evicted run is accepted and appends a duplicate.
    let replay_r0 =
        json!({"type": "assistant", "content": "y", "uuid": "m0", "seqId": 11, "runId": "r0"});
    assert!(apply(&mut acc, replay_r0));
    assert_eq!(rows(&acc)[0]["text"], "xyy");
    // Re-inserting r0 evicted the next oldest run, r1.
    assert_eq!(acc.replay.threshold(Some("r1")), None);
    assert!(apply(&mut acc, replay_r1));
}

#[test]
fn replay_table_raise_never_lowers() {
    let mut t = ReplayTable::default();
    t.raise(Some("r"), 5.0);
    t.raise(Some("r"), 3.0);
    assert_eq!(t.threshold(Some("r")), Some(5.0));
    assert!(!t.admit(Some("r"), Some(5.0)));
    assert!(t.admit(Some("r"), Some(5.5)));
    t.clear();
    assert_eq!(t.len(), 0);
}

#[test]
fn stream_events_use_payload_identity() {
    let mut acc = TranscriptAccumulator::new();
    let ev = |event: serde_json::Value| json!({"type": "stream_event", "uuid": "envelope", "event": event});
    apply(
        &mut acc,
        ev(
            json!({"message_type": "reasoning_message", "id": "m1", "otid": "o1", "seq_id": 1,
        "run_id": "r1", "reasoning": "think"}),
        ),
    );
    apply(
        &mut acc,
        json!({"type": "reasoning", "content": "ing", "uuid": "m1", "otid": "o1", "seqId": 2, "runId": "r1"}),
    );
    // Replayed stream position is dropped.
    assert!(!apply(
        &mut acc,
        ev(
            json!({"message_type": "reasoning_message", "id": "m1", "otid": "o1",
        "seq_id": 2, "run_id": "r1", "reasoning": "X"})
        )
    ));
    // Anonymous deltas fold into one live row per family, which never closes.
    apply(
        &mut acc,
        ev(json!({"type": "content_block_delta", "delta": {"text": "a"}})),
    );
    apply(
        &mut acc,
        ev(json!({"type": "content_block_delta", "delta": {"text": "b", "reasoning": ""}})),
    );
    let r = rows(&acc);
    assert_eq!(r[0]["text"], "thinking");
    assert_eq!(r[0]["key"], "reasoning:otid:o1");
    assert_eq!(r[1]["key"], "assistant:uuid:assistant:live");
    assert_eq!(r[1]["uuid"], "assistant:live");
    assert_eq!(r[1]["text"], "ab");
    // Tool payloads inside stream events make no tool row.
    let tool = ev(
        json!({"message_type": "approval_request_message", "id": "m3",
        "tool_call": {"tool_call_id": "c1", "name": "Bash", "arguments": "{}"}}),
    );
    assert!(!apply(&mut acc, tool));
    assert_eq!(r.as_array().map(Vec::len), Some(2));
}

#[test]
fn extract_stream_text_delta_edge_cases() {
    use crate::transcript::extract_stream_text_delta_json as x;
    assert_eq!(x("42"), "null");
    assert_eq!(x("not json"), "null");
    assert_eq!(
        x(r#"{"delta":{"reasoning":"r","text":"t"}}"#),
        r#"{"kind":"reasoning","text":"r"}"#
    );
    assert_eq!(
        x(r#"{"delta":"x","message_type":"assistant_message","content":"c"}"#),
        r#"{"kind":"assistant","text":"c"}"#
    );
    assert_eq!(
        x(r#"{"delta":{"text":""},"message_type":"assistant_message","content":{"text":"o"}}"#),
        r#"{"kind":"assistant","text":"o"}"#
    );
    assert_eq!(
        x(r#"{"message_type":"reasoning_message","reasoning":"","content":"c"}"#),
        "null"
    );
    assert_eq!(
        x(
            r#"{"message_type":"reasoning_message","reasoning":7,"content":["a",{"text":"b"},{"text":1},3]}"#
        ),
        r#"{"kind":"reasoning","text":"ab"}"#
    );
    assert_eq!(
        x(r#"{"message_type":"assistant_message","content":[]}"#),
        "null"
    );
    assert_eq!(
        x(r#"{"message_type":"assistant_message","content":"a\u00e9"}"#),
        r#"{"kind":"assistant","text":"aé"}"#
    );
}
