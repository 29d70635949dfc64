//! Unit tests of the transcript core (the shared vectors run in `tests/transcript_vectors.rs`).

mod history;
mod identity;
mod input;
mod patch;
mod tools;

use super::TranscriptAccumulator;
use serde_json::{json, Value};

fn apply(acc: &mut TranscriptAccumulator, message: Value) -> bool {
    acc.apply_json(&message.to_string())
}

fn rebase(acc: &mut TranscriptAccumulator, page: Value) -> bool {
    acc.rebase_json(&page.to_string(), None)
}

fn rows(acc: &TranscriptAccumulator) -> Value {
    serde_json::from_str(&acc.rows_json()).expect("rows_json is JSON")
}

fn take(acc: &mut TranscriptAccumulator) -> Option<Value> {
    acc.take_patch()
        .map(|p| serde_json::from_str(&p).expect("patch is JSON"))
}

/// `rows[*].text` (or `null` for tool rows).
fn texts(acc: &TranscriptAccumulator) -> Vec<Value> {
    rows(acc)
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r.get("text").cloned().unwrap_or(Value::Null))
        .collect()
}

fn assistant(content: &str, uuid: &str, otid: Option<&str>, seq: u64, run: &str) -> Value {
    let mut m =
        json!({"type": "assistant", "content": content, "uuid": uuid, "seqId": seq, "runId": run});
    if let Some(o) = otid {
        m["otid"] = json!(o);
    }
    m
}
