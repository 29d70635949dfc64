//! Tool rows: argument accumulation and result merging (spec §5).

use super::{apply, rows};
use crate::transcript::TranscriptAccumulator;
use serde_json::{json, Value};

fn call(id: &str, name: &str, input: Value, raw: Option<&str>, uuid: &str) -> Value {
    let mut m = json!({"type": "tool_call", "toolCallId": id, "toolName": name, "toolInput": input, "uuid": uuid});
    if let Some(r) = raw {
        m["rawArguments"] = json!(r);
    }
    m
}

fn wrapped(id: &str, frag: &str) -> Value {
    call(id, "Bash", json!({"raw": frag}), Some(frag), "e")
}

#[test]
fn fragments_accumulate_until_they_parse() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, wrapped("c1", "  {\"a\""));
    apply(&mut acc, wrapped("c1", ":[1,2]"));
    assert_eq!(rows(&acc)[0]["status"], "streaming");
    assert_eq!(rows(&acc)[0]["toolInput"], json!({}));
    apply(&mut acc, wrapped("c1", "} \n"));
    let r = &rows(&acc)[0];
    assert_eq!(r["rawArguments"], "  {\"a\":[1,2]} \n");
    assert_eq!(r["toolInput"], json!({"a": [1, 2]}));
    assert_eq!(r["argumentsComplete"], true);
    assert_eq!(r["status"], "ready");
    // A replayed partial after completion changes nothing; a whole object replaces.
    apply(&mut acc, wrapped("c1", ":[1,2]"));
    assert_eq!(rows(&acc)[0]["toolInput"], json!({"a": [1, 2]}));
    apply(&mut acc, wrapped("c1", "{\"b\":true}"));
    assert_eq!(rows(&acc)[0]["toolInput"], json!({"b": true}));
    assert_eq!(rows(&acc)[0]["rawArguments"], "{\"b\":true}");
}

#[test]
fn primitives_and_arrays_never_count_as_parsed() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, wrapped("c1", "[1]"));
    apply(&mut acc, wrapped("c2", "1"));
    for r in rows(&acc).as_array().unwrap() {
        assert_eq!(r["argumentsComplete"], false);
        assert_eq!(r["toolInput"], json!({}));
    }
    assert_eq!(rows(&acc)[0]["rawArguments"], "[1]");
}

#[test]
fn decoded_object_input_and_empty_input() {
    let mut acc = TranscriptAccumulator::new();
    apply(
        &mut acc,
        call("c1", "Read", json!({"path": "a", "raw": 1}), None, "e1"),
    );
    let r = &rows(&acc)[0];
    assert_eq!(r["toolInput"], json!({"path": "a", "raw": 1}));
    assert_eq!(r["argumentsComplete"], true);
    assert!(r.get("rawArguments").is_none());
    // `{}` after something was streamed changes nothing.
    apply(&mut acc, wrapped("c2", "{\"x\""));
    apply(&mut acc, call("c2", "Bash", json!({}), None, "e2"));
    assert_eq!(rows(&acc)[1]["argumentsComplete"], false);
    // A wrapper without rawArguments is not accumulated.
    apply(
        &mut acc,
        call("c3", "Bash", json!({"raw": "{\"x\":1}"}), None, "e3"),
    );
    let r = &rows(&acc)[2];
    assert_eq!(r["argumentsComplete"], false);
    assert!(r.get("rawArguments").is_none());
    assert_eq!(r["toolInput"], json!({}));
}

#[test]
fn names_uuid_and_results() {
    let mut acc = TranscriptAccumulator::new();
    let result = json!({"type": "tool_result", "toolCallId": "c1", "content": "boom", "isError": true,
        "uuid": "res-1", "runId": "r1"});
    apply(&mut acc, result);
    let r = &rows(&acc)[0];
    assert_eq!(r["key"], "tool_call:id:c1");
    assert_eq!(r["toolName"], "?");
    assert!(r.get("uuid").is_none());
    assert_eq!(
        r["result"],
        json!({"content": "boom", "isError": true, "uuid": "res-1"})
    );
    assert_eq!(r["status"], "complete");
    apply(&mut acc, call("c1", "?", json!({}), None, "call-1"));
    apply(
        &mut acc,
        call("c1", "Bash", json!({"raw": "{"}), Some("{"), "call-2"),
    );
    apply(
        &mut acc,
        call("c1", "", json!({"raw": "}"}), Some("}"), "call-3"),
    );
    let r = &rows(&acc)[0];
    assert_eq!(r["toolName"], "Bash");
    assert_eq!(
        r["uuid"], "call-1",
        "an orphan row takes the first call uuid"
    );
    assert_eq!(
        r["status"], "complete",
        "a call after its result stays complete"
    );
    assert_eq!(r["runId"], "r1");
    let second = json!({"type": "tool_result", "toolCallId": "c1", "content": "ok"});
    apply(&mut acc, second);
    assert_eq!(
        rows(&acc)[0]["result"],
        json!({"content": "ok", "isError": false})
    );
}

#[test]
fn parallel_calls_keep_first_sighting_order() {
    let mut acc = TranscriptAccumulator::new();
    apply(&mut acc, wrapped("a", "{"));
    apply(&mut acc, wrapped("b", "{"));
    apply(&mut acc, wrapped("a", "}"));
    let ids: Vec<_> = rows(&acc)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["toolCallId"].clone())
        .collect();
    assert_eq!(ids, vec![json!("a"), json!("b")]);
    assert_eq!(rows(&acc)[0]["status"], "ready");
}
