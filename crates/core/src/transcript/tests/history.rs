//! `rebase()`: mapping, order detection and leniency (spec §6).

use super::{apply, assistant, rebase, rows, texts};
use crate::transcript::rebase::parse_date_ms;
use crate::transcript::{HistoryOrder, HistoryPage, TranscriptAccumulator};
use serde_json::json;

#[test]
fn pages_that_are_not_objects_or_arrays_are_rejected() {
    let mut acc = TranscriptAccumulator::new();
    for page in ["42", "null", "\"x\"", "nope", "{\"messages\": [", "true"] {
        assert!(!acc.rebase_json(page, None), "{page}");
    }
    for page in [
        "{}",
        "{\"messages\": null}",
        "{\"messages\": 5}",
        "[]",
        "[1, null, \"x\"]",
    ] {
        assert!(!acc.rebase_json(page, None), "{page}");
    }
    assert_eq!(acc.take_patch(), None);
}

#[test]
fn odd_messages_are_skipped_not_fatal() {
    let mut acc = TranscriptAccumulator::new();
    let page = json!({"nextBefore": null, "messages": [
        7,
        {"message_type": "user_message", "content": null, "id": "u0"},
        {"message_type": "user_message", "content": [], "id": "u0b"},
        {"message_type": 5, "content": "x"},
        {"message_type": "tool_call_message", "tool_call": {"name": "NoId"}},
        {"message_type": "tool_return_message", "tool_return": "lost"},
        {"message_type": "user_message", "id": 9, "content": ["he", {"type": "text", "text": "llo"}, {"text": 3}]},
        {"message_type": "user_message", "id": "u2", "content": ""},
        {"message_type": "assistant_message", "id": "a1", "content": {"text": "hi"}, "otid": 4, "seq_id": "x"},
    ]});
    assert!(acc.rebase_json(&page.to_string(), Some(HistoryOrder::Asc)));
    assert_eq!(texts(&acc), vec![json!("hello"), json!(""), json!("hi")]);
    let r = rows(&acc);
    assert_eq!(r[0]["key"], "user:auto:1");
    assert_eq!(r[1]["key"], "user:uuid:u2");
    assert!(r[2].get("otid").is_none() && r[2].get("seqId").is_none());
}

#[test]
fn seq_ids_raise_thresholds_even_for_ignored_types() {
    let mut acc = TranscriptAccumulator::new();
    let page = json!([{"message_type": "system_message", "id": "s", "seq_id": 50, "run_id": "r1"}]);
    assert!(!rebase(&mut acc, page));
    assert!(!apply(&mut acc, assistant("x", "m1", Some("o1"), 50, "r1")));
    assert!(apply(&mut acc, assistant("y", "m1", Some("o1"), 51, "r1")));
}

#[test]
fn reasoning_prefers_the_reasoning_member_even_when_empty() {
    let mut acc = TranscriptAccumulator::new();
    let page = json!([
        {"message_type": "reasoning_message", "id": "r1", "reasoning": "", "content": "c"},
        {"message_type": "reasoning_message", "id": "r2", "content": "from content"},
    ]);
    acc.rebase_json(&page.to_string(), Some(HistoryOrder::Asc));
    assert_eq!(texts(&acc), vec![json!(""), json!("from content")]);
}

#[test]
fn replace_mode_can_shorten_text_and_later_deltas_append() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, assistant("Hello wor", "m1", Some("o1"), 3, "r1"));
    rebase(
        &mut acc,
        json!([{"id": "m1", "message_type": "assistant_message", "content": "Hel", "otid": "o1", "seq_id": 1, "run_id": "r1"}]),
    );
    assert_eq!(texts(&acc), vec![json!("Hel")]);
    apply(&mut acc, assistant("!", "m1", Some("o1"), 4, "r1"));
    assert_eq!(texts(&acc), vec![json!("Hel!")]);
    assert_eq!(rows(&acc)[0]["seqId"], 4);
}

#[test]
fn later_newer_page_goes_first() {
    let mut acc = TranscriptAccumulator::new();
    rebase(
        &mut acc,
        json!([{"id": "m1", "message_type": "user_message", "content": "one"}]),
    );
    rebase(
        &mut acc,
        json!([{"id": "m2", "message_type": "user_message", "content": "two"}]),
    );
    assert_eq!(texts(&acc), vec![json!("two"), json!("one")]);
}

#[test]
fn order_detection_uses_seq_ids_then_dates() {
    let page = |a: serde_json::Value, b: serde_json::Value| {
        let mut x = json!({"id": "x", "message_type": "user_message", "content": "first-in-page"});
        let mut y = json!({"id": "y", "message_type": "user_message", "content": "last-in-page"});
        for (m, extra) in [(&mut x, a), (&mut y, b)] {
            if let (Some(m), serde_json::Value::Object(extra)) = (m.as_object_mut(), extra) {
                m.extend(extra);
            }
        }
        json!([x, y])
    };
    let run = |p: serde_json::Value, order: Option<HistoryOrder>| {
        let mut acc = TranscriptAccumulator::new();
        acc.rebase_json(&p.to_string(), order);
        texts(&acc)[0].clone()
    };
    let desc = json!("last-in-page");
    let asc = json!("first-in-page");
    assert_eq!(
        run(page(json!({"seq_id": 9}), json!({"seq_id": 2})), None),
        desc
    );
    assert_eq!(
        run(page(json!({"seq_id": 2}), json!({"seq_id": 9})), None),
        asc
    );
    assert_eq!(
        run(page(json!({"seq_id": 2}), json!({"seq_id": 2})), None),
        asc
    );
    // Only one seq_id: dates decide.
    let d1 = json!({"seq_id": 1, "date": "2026-07-28T00:00:02Z"});
    assert_eq!(
        run(
            page(d1, json!({"date": "2026-07-28T00:00:01.5+00:00"})),
            None
        ),
        desc
    );
    let d2 = json!({"date": "2026-07-28T02:00:00+02:00"});
    assert_eq!(
        run(page(d2, json!({"date": "2026-07-28T00:30:00Z"})), None),
        asc
    );
    assert_eq!(
        run(
            page(json!({"date": "garbage"}), json!({"date": "2020-01-01"})),
            None
        ),
        asc
    );
    assert_eq!(
        run(page(json!({}), json!({})), Some(HistoryOrder::Desc)),
        desc
    );
    assert_eq!(
        run(
            page(json!({"seq_id": 9}), json!({"seq_id": 2})),
            Some(HistoryOrder::Asc)
        ),
        asc
    );
}

#[test]
fn dates_parse_like_iso_8601() {
    assert_eq!(parse_date_ms("1970-01-01T00:00:00Z"), Some(0.0));
    assert_eq!(parse_date_ms("1970-01-02"), Some(86_400_000.0));
    assert_eq!(
        parse_date_ms("2000-03-01T00:00:00.250Z"),
        Some(951_868_800_250.0)
    );
    assert_eq!(parse_date_ms("1970-01-01T01:00:00+0100"), Some(0.0));
    assert_eq!(parse_date_ms("1970-01-01 00:01"), Some(60_000.0));
    for bad in [
        "",
        "2026",
        "2026-13-01",
        "2026-01-01T",
        "2026-01-01T10:00Zx",
        "yesterday",
    ] {
        assert_eq!(parse_date_ms(bad), None, "{bad}");
    }
}

#[test]
fn history_tool_calls_in_all_shapes() {
    let mut acc = TranscriptAccumulator::new();
    let page = json!([
        {"id": "h1", "message_type": "approval_request_message", "seq_id": 1, "run_id": "r1",
         "tool_calls": [{"id": "c1", "function": {"name": "Write", "arguments": "{\"path\":\"a\"}"}}, {"tool_call_id": "c9"}]},
        {"id": "h2", "message_type": "tool_call_message", "tool_calls": {"tool_call_id": "c2", "name": "Read", "arguments": {"p": 1}}},
        {"id": "h3", "message_type": "tool_call_message", "tool_calls": [], "tool_call": {"tool_call_id": "c3", "arguments": "{\"x\""}},
        {"id": "h4", "message_type": "tool_return_message", "tool_returns": [{"tool_call_id": "c2", "content": "done", "status": "error"}]},
    ]);
    assert!(acc.rebase_json(&page.to_string(), Some(HistoryOrder::Asc)));
    let r = rows(&acc);
    assert_eq!(
        r.as_array().map(Vec::len),
        Some(3),
        "only the first call of a message is used"
    );
    assert_eq!(r[0]["toolName"], "Write");
    assert_eq!(r[0]["toolInput"], json!({"path": "a"}));
    assert_eq!(r[0]["status"], "ready");
    assert_eq!(r[0]["uuid"], "h1");
    assert_eq!(r[0]["seqId"], 1);
    assert_eq!(r[1]["toolInput"], json!({"p": 1}));
    assert_eq!(
        r[1]["result"],
        json!({"content": "done", "isError": true, "uuid": "h4"})
    );
    assert_eq!(r[2]["toolName"], "?");
    assert_eq!(r[2]["rawArguments"], "{\"x\"");
    assert_eq!(r[2]["status"], "streaming");
    // Whole mode keeps the first raw text of an unparsed call.
    acc.rebase_json(&json!([{"id": "h5", "message_type": "tool_call_message", "tool_call": {"tool_call_id": "c3", "arguments": ":1"}}]).to_string(), None);
    assert_eq!(rows(&acc)[0]["rawArguments"], "{\"x\"");
}

#[test]
fn typed_page_from_json_text() {
    let text = json!({"messages": [{"id": "u", "message_type": "user_message", "content": "hi"}, 7], "hasMore": false}).to_string();
    let page = HistoryPage::from_json(&text).expect("page");
    assert_eq!(page.len(), 2, "non-objects count but are skipped");
    let mut acc = TranscriptAccumulator::new();
    assert!(acc.rebase(&page, None));
    assert_eq!(texts(&acc), vec![json!("hi")]);
    assert!(HistoryPage::from_json("3").is_none());
    assert!(HistoryPage::from_json(" [1, {}]").is_some_and(|p| p.len() == 2));
}

#[test]
fn tool_returns_may_be_an_object_and_escaped_members_are_read() {
    let mut acc = TranscriptAccumulator::new();
    let page = r#"{"mess\u0061ges": [
        {"id": "h1", "message_type": "tool_return_message",
         "tool_returns": {"tool_call_id": "c1", "tool_return": [{"text": "o"}, "k"], "status": "success"}},
        {"id": "h2", "message_type": "tool_call_message",
         "tool_calls": [{"id": "c1", "function": {"name": "Read", "arguments": {"p": 1}}}]}
    ]}"#;
    assert!(acc.rebase_json(page, Some(HistoryOrder::Asc)));
    let r = rows(&acc);
    assert_eq!(
        r[0]["result"],
        json!({"content": "ok", "isError": false, "uuid": "h1"})
    );
    assert_eq!(r[0]["toolName"], "Read");
    assert_eq!(r[0]["toolInput"], json!({"p": 1}));
    assert_eq!(r[0]["uuid"], "h2");
}
