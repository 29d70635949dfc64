//! Runs `tests/vectors/stream-message-identity.vectors.json` (a copy of the shared vectors) and our own
//! `tests/vectors/coordinator-correlation.vectors.json` and `coordinator-repeats.vectors.json`
//! (subject `remoteCoordinator`) against the sans-IO turn coordinator with a virtual clock.
//!
//! Besides the shared ops, our vectors use `{"op":"frame","text":"<wire text>"}`: the exact text
//! of a frame as the socket delivers it (so the layout of its members is the server's), passed
//! through the session's repeat filter first, as `SessionCore::on_frame` does.
//!
//! Ops run with no time passing. `next` pops a message; when none is queued but a deadline
//! exists, the clock jumps to it and timers fire; closed and drained yields `null`; when nothing
//! could ever arrive the vector fails (the JS harness would time out). Prints the failures, then
//! `N passed, M failed`, and exits 1 on failure. Set `VECTORS_VERBOSE=1` to print every result.

use letta_core::protocol::peek_event_ids;
use letta_core::protocol::runtime::Runtime;
use letta_core::session::coordinator::{CoordinatorConfig, TurnCoordinator};
use letta_core::session::RecentFrames;
use serde_json::Value;
use std::process::ExitCode;

const VECTOR_FILES: [&str; 3] = [
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/stream-message-identity.vectors.json"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/coordinator-correlation.vectors.json"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/coordinator-repeats.vectors.json"
    ),
];

fn main() -> ExitCode {
    let mut vectors: Vec<Value> = Vec::new();
    for path in VECTOR_FILES {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(err) => {
                eprintln!("cannot read {path}: {err}");
                return ExitCode::FAILURE;
            }
        };
        match serde_json::from_str::<Vec<Value>>(&text) {
            Ok(v) => vectors.extend(v),
            Err(err) => {
                eprintln!("cannot parse {path}: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for vector in &vectors {
        let name = vector["name"].as_str().unwrap_or("?");
        match run_vector(vector) {
            Ok(()) => passed += 1,
            Err(problems) => {
                failed += 1;
                println!("FAIL {name}");
                for problem in problems {
                    println!("  - {problem}");
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Op results: `None` is JS `undefined`.
type Results = Vec<Option<Value>>;

struct Harness {
    runtime: Runtime,
    coordinator: Option<TurnCoordinator>,
    clock: u64,
    sent: u64,
    recent_frames: RecentFrames,
}

fn run_vector(vector: &Value) -> Result<(), Vec<String>> {
    let runtime = &vector["runtime"];
    let mut h = Harness {
        runtime: Runtime {
            agent_id: runtime["agent_id"].as_str().map(str::to_owned),
            conversation_id: runtime["conversation_id"].as_str().unwrap_or("").to_owned(),
        },
        coordinator: None,
        clock: 0,
        sent: 0,
        recent_frames: RecentFrames::default(),
    };
    let mut results: Results = Vec::new();
    let ops = vector["ops"].as_array().cloned().unwrap_or_default();
    let verbose = std::env::var_os("VECTORS_VERBOSE").is_some();
    if verbose {
        println!("== {}", vector["name"].as_str().unwrap_or("?"));
    }
    for (i, op) in ops.iter().enumerate() {
        let result = h.run_op(op).map_err(|e| vec![format!("op {i}: {e}")])?;
        if verbose {
            if let Some(value) = &result {
                println!("  [{i}] t={} {value}", h.clock);
            }
        }
        results.push(result);
    }
    if let Some(c) = h.coordinator.as_mut() {
        c.close(h.clock);
    }
    let problems: Vec<String> = vector["expect"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|assertion| check(assertion, &results).err())
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

impl Harness {
    fn coordinator(&mut self) -> Result<&mut TurnCoordinator, String> {
        self.coordinator
            .as_mut()
            .ok_or_else(|| "no coordinator (missing create op)".to_owned())
    }

    fn run_op(&mut self, op: &Value) -> Result<Option<Value>, String> {
        let clock = self.clock;
        match op["op"].as_str().unwrap_or("") {
            "create" => {
                let config = &op["config"];
                let mut cfg = CoordinatorConfig::new(config["label"].as_str().unwrap_or("test"));
                cfg.request_timeout_ms = config["requestTimeoutMs"].as_u64();
                cfg.auto_handles_tool_approvals =
                    config["autoHandlesToolApprovals"].as_bool() == Some(true);
                self.coordinator = Some(TurnCoordinator::new(cfg, self.runtime.clone()));
                Ok(None)
            }
            "trackSentTurn" => {
                self.sent += 1;
                let id = format!("sdk-message-{clock}-{}", self.sent);
                self.coordinator()?.track_sent_turn(clock, id, None);
                Ok(None)
            }
            "protocol" => {
                let text = serde_json::to_string(&op["message"]).map_err(|e| e.to_string())?;
                self.coordinator()?.handle_text(&text, clock);
                Ok(None)
            }
            "frame" => {
                let text = op["text"].as_str().ok_or("frame op without text")?;
                let ids = peek_event_ids(text);
                if !self.recent_frames.is_repeat(&ids)
                    && self.coordinator()?.handle_text(text, clock)
                {
                    self.recent_frames.remember(&ids);
                }
                Ok(None)
            }
            "next" => self.next().map(Some),
            "hasInFlightTurn" => Ok(Some(Value::Bool(self.coordinator()?.has_in_flight_turn()))),
            "close" => {
                self.coordinator()?.close(clock);
                Ok(None)
            }
            "closeWithError" => {
                let detail = op["detail"].as_str().unwrap_or("").to_owned();
                self.coordinator()?.close_with_error(&detail, clock);
                Ok(None)
            }
            other => Err(format!("unknown op {other:?}")),
        }
    }

    /// `await nextMessage()` with a virtual clock.
    fn next(&mut self) -> Result<Value, String> {
        for _ in 0..1_000 {
            let clock = self.clock;
            let c = self.coordinator()?;
            if let Some(message) = c.pop_message() {
                return serde_json::from_str(&message.to_json()).map_err(|e| e.to_string());
            }
            if c.is_closed() {
                return Ok(Value::Null);
            }
            let Some(deadline) = c.next_deadline() else {
                return Err("nextMessage() would never resolve (no message, no timer)".into());
            };
            let now = deadline.max(clock);
            c.on_tick(now);
            self.clock = now;
        }
        Err("nextMessage() did not settle after 1000 timer firings".into())
    }
}

// ── assertions (vectors/README.md) ─────────────────────────────────────────────────────────

fn check(assertion: &Value, results: &Results) -> Result<(), String> {
    if assertion.get("same").is_some() || assertion.get("notSame").is_some() {
        // Reference identity has no meaning for serialized messages; not used by this subject.
        return Ok(());
    }
    let value = focus(assertion, results)?;
    let at = assertion["at"].as_u64().unwrap_or(0);
    let path = assertion["path"].as_str().unwrap_or("");
    let where_ = if path.is_empty() {
        format!("op {at}")
    } else {
        format!("op {at}.{path}")
    };
    let show = |v: &Option<Value>| v.as_ref().map_or("undefined".to_owned(), Value::to_string);
    let fail = |what: String| Err(format!("{where_}: {what}, got {}", show(&value)));
    let len = value.as_ref().and_then(|v| match v {
        Value::Array(a) => Some(a.len()),
        Value::String(s) => Some(s.encode_utf16().count()),
        _ => None,
    });
    if let Some(n) = assertion.get("length") {
        return if len.map(|l| l as u64) == n.as_u64() {
            Ok(())
        } else {
            fail(format!("expected length {n}"))
        };
    }
    if let Some(n) = assertion.get("minLength") {
        return if len.unwrap_or(0) as u64 >= n.as_u64().unwrap_or(0) {
            Ok(())
        } else {
            fail(format!("expected length >= {n}"))
        };
    }
    if let Some(expected) = assertion.get("equals") {
        return match &value {
            Some(v) if deep_equal(v, expected) => Ok(()),
            _ => fail(format!("expected {expected}")),
        };
    }
    if let Some(expected) = assertion.get("matches") {
        return match &value {
            Some(v) if matches(v, expected) => Ok(()),
            _ => fail(format!("expected to match {expected}")),
        };
    }
    if let Some(needle) = assertion.get("contains") {
        let found = value
            .as_ref()
            .and_then(Value::as_str)
            .zip(needle.as_str())
            .is_some_and(|(s, n)| s.contains(n));
        return if found {
            Ok(())
        } else {
            fail(format!("expected a string containing {needle}"))
        };
    }
    if assertion.get("undefined").is_some() {
        return if value.is_none() {
            Ok(())
        } else {
            fail("expected undefined".to_owned())
        };
    }
    if let Some(n) = assertion.get("distinctCount") {
        let count = value.as_ref().and_then(Value::as_array).map(|items| {
            let mut distinct: Vec<&Value> = Vec::new();
            for item in items {
                if !distinct.iter().any(|d| deep_equal(d, item)) {
                    distinct.push(item);
                }
            }
            distinct.len() as u64
        });
        return if count == n.as_u64() {
            Ok(())
        } else {
            fail(format!("expected {n} distinct values"))
        };
    }
    Err(format!("{where_}: unknown assertion {assertion}"))
}

fn focus(assertion: &Value, results: &Results) -> Result<Option<Value>, String> {
    if assertion.get("on").is_some() {
        return Err("`on: emitted` is not used by remoteCoordinator vectors".into());
    }
    let at = assertion["at"].as_u64().ok_or("assertion without `at`")? as usize;
    let mut value = results.get(at).cloned().flatten();
    if let Some(filter) = assertion.get("filter") {
        let Some(Value::Array(items)) = value else {
            return Err("filter on non-array".into());
        };
        value = Some(Value::Array(
            items
                .into_iter()
                .filter(|item| matches(item, filter))
                .collect(),
        ));
    }
    if let Some(map) = assertion.get("map") {
        let Some(Value::Array(items)) = value else {
            return Err("map on non-array".into());
        };
        let pick = |row: &Value, field: &Value| {
            field
                .as_str()
                .and_then(|f| row.get(f).cloned())
                .unwrap_or(Value::Null)
        };
        value = Some(Value::Array(
            items
                .iter()
                .map(|row| match map {
                    Value::Array(fields) => {
                        Value::Array(fields.iter().map(|f| pick(row, f)).collect())
                    }
                    field => pick(row, field),
                })
                .collect(),
        ));
    }
    Ok(walk(value, assertion["path"].as_str().unwrap_or("")))
}

fn walk(value: Option<Value>, path: &str) -> Option<Value> {
    if path.is_empty() {
        return value;
    }
    let mut current = value?;
    for segment in path.split('.') {
        current = match current {
            Value::Array(items) => items.into_iter().nth(segment.parse::<usize>().ok()?)?,
            Value::Object(mut map) => map.remove(segment)?,
            _ => return None,
        };
    }
    Some(current)
}

fn same_scalar(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        _ => actual == expected,
    }
}

/// `toEqual`: deep equality (serialized messages carry no `undefined` properties).
fn deep_equal(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Array(a), Value::Array(e)) => {
            a.len() == e.len() && a.iter().zip(e).all(|(x, y)| deep_equal(x, y))
        }
        (Value::Object(a), Value::Object(e)) => {
            a.len() == e.len()
                && e.iter()
                    .all(|(k, v)| a.get(k).is_some_and(|av| deep_equal(av, v)))
        }
        _ => same_scalar(actual, expected),
    }
}

/// `toMatchObject`: expected is a recursive subset; arrays match element-wise, same length.
fn matches(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Array(a), Value::Array(e)) => {
            a.len() == e.len() && a.iter().zip(e).all(|(x, y)| matches(x, y))
        }
        (Value::Object(a), Value::Object(e)) => e
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| matches(av, v))),
        (_, Value::Array(_) | Value::Object(_)) => false,
        _ => same_scalar(actual, expected),
    }
}
