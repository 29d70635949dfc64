//! The patch format consumed by the JS wrapper.

use super::{apply, assistant, rebase, rows, take};
use crate::transcript::{HistoryOrder, TranscriptAccumulator};
use serde_json::json;

#[test]
fn fresh_accumulator_has_no_patch() {
    let mut acc = TranscriptAccumulator::new();
    assert_eq!(acc.take_patch(), None);
    assert_eq!(acc.rows_json(), "[]");
}

#[test]
fn append_lists_new_rows_at_their_indices() {
    let mut acc = TranscriptAccumulator::new();
    assert!(apply(&mut acc, assistant("a", "m1", Some("o1"), 1, "r1")));
    let p = take(&mut acc).expect("patch");
    assert_eq!(
        p,
        json!({"len": 1, "rows": [[0, {"key": "assistant:otid:o1", "kind": "assistant", "uuid": "m1",
            "otid": "o1", "runId": "r1", "seqId": 1, "text": "a"}]]})
    );
    assert!(apply(&mut acc, assistant("b", "m2", Some("o2"), 2, "r1")));
    let p = take(&mut acc).expect("patch");
    assert_eq!(p["len"], 2);
    assert!(p.get("moved").is_none());
    assert_eq!(p["rows"].as_array().map(Vec::len), Some(1));
    assert_eq!(p["rows"][0][0], 1);
    assert_eq!(p["rows"][0][1]["text"], "b");
    assert_eq!(acc.take_patch(), None, "taking clears the tracking");
}

#[test]
fn in_place_update_lists_only_the_written_row() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("a", "m1", Some("o1"), 1, "r1"));
    apply(&mut acc, assistant("x", "m2", Some("o2"), 2, "r1"));
    take(&mut acc);
    assert!(apply(&mut acc, assistant("b", "m1", Some("o1"), 3, "r1")));
    let p = take(&mut acc).expect("patch");
    assert_eq!(p["len"], 2);
    assert_eq!(p["rows"].as_array().map(Vec::len), Some(1));
    assert_eq!(p["rows"][0][0], 0);
    assert_eq!(p["rows"][0][1]["text"], "ab");
    assert_eq!(p["rows"][0][1]["seqId"], 3);
}

#[test]
fn several_writes_to_one_row_are_listed_once_with_the_final_value() {
    let mut acc = TranscriptAccumulator::new();
    for (i, t) in ["a", "b", "c"].into_iter().enumerate() {
        apply(&mut acc, assistant(t, "m1", Some("o1"), i as u64 + 1, "r1"));
    }
    let p = take(&mut acc).expect("patch");
    assert_eq!(p["len"], 1);
    assert_eq!(p["rows"].as_array().map(Vec::len), Some(1));
    assert_eq!(p["rows"][0][1]["text"], "abc");
}

#[test]
fn identical_rewrite_still_counts_as_written() {
    let mut acc = TranscriptAccumulator::new();
    let call = json!({"type": "tool_call", "toolCallId": "c1", "toolName": "Bash",
        "toolInput": {"a": 1}, "rawArguments": "{\"a\":1}", "uuid": "e1"});
    assert!(apply(&mut acc, call.clone()));
    take(&mut acc);
    assert!(apply(&mut acc, call));
    let p = take(&mut acc).expect("an identical write is still a write");
    assert_eq!(p["rows"][0][0], 0);
}

#[test]
fn unchanged_ops_give_no_patch() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("a", "m1", Some("o1"), 7, "r1"));
    take(&mut acc);
    assert!(
        !apply(&mut acc, assistant("a", "m1", Some("o1"), 7, "r1")),
        "replay"
    );
    assert!(!rebase(&mut acc, json!({"messages": []})), "empty page");
    assert!(
        !apply(&mut acc, json!({"type": "result", "success": true})),
        "ignored type"
    );
    let no_text =
        json!({"type": "stream_event", "uuid": "g", "event": {"type": "content_block_stop"}});
    assert!(!apply(&mut acc, no_text));
    assert_eq!(acc.take_patch(), None);
}

#[test]
fn reorder_reports_moved_with_minus_one_for_new_rows() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("live", "m9", Some("o9"), 90, "r2"));
    take(&mut acc);
    let page =
        json!([{"id": "m1", "message_type": "user_message", "content": "older", "otid": "o1"}]);
    assert!(rebase(&mut acc, page));
    let p = take(&mut acc).expect("patch");
    assert_eq!(p["len"], 2);
    assert_eq!(p["moved"], json!([-1, 0]));
    // The new row is listed; the moved-but-unwritten live row is not.
    assert_eq!(p["rows"].as_array().map(Vec::len), Some(1));
    assert_eq!(p["rows"][0][0], 0);
    assert_eq!(p["rows"][0][1]["text"], "older");
    // Lookups still find the moved row at its new index.
    apply(&mut acc, assistant("!", "m9", Some("o9"), 91, "r2"));
    let p = take(&mut acc).expect("patch");
    assert!(p.get("moved").is_none());
    assert_eq!(p["rows"][0][0], 1);
    assert_eq!(p["rows"][0][1]["text"], "live!");
}

#[test]
fn reorder_lists_written_rows_at_their_new_index() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("a", "ma", Some("oa"), 1, "r1"));
    apply(&mut acc, assistant("b", "mb", Some("ob"), 2, "r1"));
    take(&mut acc);
    // Rows written before the rebase but after the last take are listed at their new index.
    apply(&mut acc, assistant("+", "ma", Some("oa"), 3, "r1"));
    let page =
        json!([{"id": "mb", "message_type": "assistant_message", "content": "B", "otid": "ob"}]);
    assert!(acc.rebase_json(&page.to_string(), Some(HistoryOrder::Asc)));
    let p = take(&mut acc).expect("patch");
    assert_eq!(p["moved"], json!([1, 0]));
    assert_eq!(p["rows"], json!([[0, rows(&acc)[0]], [1, rows(&acc)[1]]]));
    assert_eq!(rows(&acc)[0]["text"], "B");
    assert_eq!(rows(&acc)[1]["text"], "a+");
}

#[test]
fn rows_created_after_a_reorder_and_two_reorders_compose() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("x", "mx", Some("ox"), 1, "r1"));
    take(&mut acc);
    rebase(
        &mut acc,
        json!([{"id": "u1", "message_type": "user_message", "content": "one"}]),
    );
    rebase(
        &mut acc,
        json!([{"id": "u2", "message_type": "user_message", "content": "two"}]),
    );
    apply(&mut acc, assistant("y", "my", Some("oy"), 2, "r1"));
    let p = take(&mut acc).expect("patch");
    // Now: [two, one, x, y]; only x existed at the last take (index 0).
    assert_eq!(p["len"], 4);
    assert_eq!(p["moved"], json!([-1, -1, 0, -1]));
    let listed: Vec<_> = p["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[0].clone())
        .collect();
    assert_eq!(listed, vec![json!(0), json!(1), json!(3)]);
}

#[test]
fn rebase_that_keeps_the_order_has_no_moved() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("Hel", "m1", Some("o1"), 1, "r1"));
    take(&mut acc);
    let page = json!([{"id": "m1", "message_type": "assistant_message", "content": "Hello", "otid": "o1"}]);
    assert!(rebase(&mut acc, page));
    let p = take(&mut acc).expect("patch");
    assert!(p.get("moved").is_none());
    assert_eq!(p["rows"][0][1]["text"], "Hello");
}

#[test]
fn reset_clears_the_tracking() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("a", "m1", Some("o1"), 1, "r1"));
    acc.reset();
    assert_eq!(acc.take_patch(), None);
    assert!(apply(&mut acc, assistant("a", "m1", Some("o1"), 1, "r1")));
    let p = take(&mut acc).expect("patch");
    assert_eq!(p["len"], 1);
    assert_eq!(p["rows"][0][1]["key"], "assistant:otid:o1");
}
