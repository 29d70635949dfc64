//! Runs the JSON vectors (tests/vectors/, copies of the shared reference vectors) of subjects `accumulator` and `extractStreamTextDelta` against
//! the Rust transcript core, mirroring the assertion semantics of
//! `tests/vectors/check-vectors.mjs` (toEqual / toMatchObject / …).
//!
//! JS identity (`same` / `notSame`) cannot be observed here; it is checked through what it means
//! for the core: `same [i, j]` ⇒ every op in (i, j] reported "unchanged"; `notSame [i, j]` ⇒ an op
//! in (i, j] changed something, and with a row path ⇒ that row was written in its patch.
//! Every op's patch is also replayed onto a mirror of the rows, as the JS wrapper does, and the
//! mirror must equal `rows_json()` after each op.

use letta_core::transcript::{extract_stream_text_delta_json, HistoryOrder, TranscriptAccumulator};
use serde_json::Value;

/// What one op produced.
struct Outcome {
    /// The op's result; `None` is JS `undefined`.
    result: Option<Value>,
    /// The core reported a change (the JS array would be new).
    changed: bool,
    /// Indices written in the op's patch.
    written: Vec<usize>,
    /// The op's patch `moved` array, when it reordered.
    moved: Option<Vec<i64>>,
}

/// Marks JS `undefined` inside a mapped array (never equal to a JSON value of the vectors).
const UNDEFINED: &str = "\u{1}undefined";

fn main() {
    if cfg!(target_arch = "wasm32") {
        return; // No file system under wasm32; the native run covers the vectors.
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/");
    let mut failed_any = false;
    for file in [
        "transcript-accumulator.vectors.json",
        "stream-events.vectors.json",
    ] {
        let text = std::fs::read_to_string(format!("{dir}{file}"))
            .unwrap_or_else(|e| panic!("cannot read {dir}{file}: {e}"));
        let vectors: Vec<Value> = serde_json::from_str(&text).expect("vector file is JSON");
        let (mut passed, mut failed) = (0, 0);
        for v in &vectors {
            let name = v["name"].as_str().unwrap_or("?");
            let problems = match v["subject"].as_str() {
                Some("accumulator") => run_accumulator(v),
                Some("extractStreamTextDelta") => run_extract(v),
                other => vec![format!("unsupported subject {other:?}")],
            };
            if problems.is_empty() {
                passed += 1;
            } else {
                failed += 1;
                for p in problems {
                    println!("FAIL {file} :: {name}: {p}");
                }
            }
        }
        println!("# {file}");
        println!("{passed} passed, {failed} failed");
        failed_any |= failed > 0;
    }
    if failed_any {
        std::process::exit(1);
    }
}

fn run_extract(v: &Value) -> Vec<String> {
    let mut outcomes = Vec::new();
    for op in ops(v) {
        let json = serde_json::to_string(&op["event"]).unwrap_or_default();
        let out = extract_stream_text_delta_json(&json);
        let result = serde_json::from_str(&out).ok();
        outcomes.push(Outcome {
            result,
            changed: false,
            written: Vec::new(),
            moved: None,
        });
    }
    check_all(v, &outcomes, Vec::new())
}

fn run_accumulator(v: &Value) -> Vec<String> {
    let mut acc = TranscriptAccumulator::new();
    let mut problems = Vec::new();
    let mut mirror: Vec<Value> = Vec::new();
    let mut outcomes = Vec::new();
    for (i, op) in ops(v).iter().enumerate() {
        let (changed, result_is_rows) = match op["op"].as_str() {
            Some("apply") => (acc.apply_json(&op["message"].to_string()), true),
            Some("rebase") => {
                let order = match op["options"]["order"].as_str() {
                    Some("asc") => Some(HistoryOrder::Asc),
                    Some("desc") => Some(HistoryOrder::Desc),
                    _ => None,
                };
                (acc.rebase_json(&op["page"].to_string(), order), true)
            }
            Some("rows") => (false, true),
            Some("reset") => {
                acc.reset();
                mirror.clear();
                (false, false)
            }
            other => {
                problems.push(format!("op {i}: unknown op {other:?}"));
                (false, false)
            }
        };
        let patch = acc.take_patch();
        if changed != patch.is_some() {
            problems.push(format!("op {i}: changed={changed} but patch={patch:?}"));
        }
        let (written, moved) = match patch.as_deref().map(|p| apply_patch(&mut mirror, p)) {
            Some(Ok(x)) => x,
            Some(Err(e)) => {
                problems.push(format!("op {i}: bad patch: {e}"));
                (Vec::new(), None)
            }
            None => (Vec::new(), None),
        };
        let rows: Value = serde_json::from_str(&acc.rows_json()).expect("rows_json is JSON");
        if rows != Value::Array(mirror.clone()) {
            problems.push(format!("op {i}: patched mirror {mirror:?} != rows {rows}"));
        }
        outcomes.push(Outcome {
            result: result_is_rows.then_some(rows),
            changed,
            written,
            moved,
        });
    }
    check_all(v, &outcomes, problems)
}

/// Applies a patch to `mirror` like the JS wrapper; returns the written indices and `moved`.
#[allow(clippy::type_complexity)]
fn apply_patch(
    mirror: &mut Vec<Value>,
    patch: &str,
) -> Result<(Vec<usize>, Option<Vec<i64>>), String> {
    let p: Value = serde_json::from_str(patch).map_err(|e| e.to_string())?;
    let len = p["len"].as_u64().ok_or("no len")? as usize;
    let moved: Option<Vec<i64>> = match p.get("moved") {
        Some(m) => Some(
            m.as_array()
                .ok_or("moved is not an array")?
                .iter()
                .map(|x| x.as_i64().ok_or("moved element"))
                .collect::<Result<_, _>>()?,
        ),
        None => None,
    };
    let mut next: Vec<Option<Value>> = match &moved {
        Some(m) => {
            if m.len() != len {
                return Err(format!("moved has {} entries, len is {len}", m.len()));
            }
            m.iter()
                .map(|&o| usize::try_from(o).ok().and_then(|o| mirror.get(o).cloned()))
                .collect()
        }
        None => (0..len).map(|i| mirror.get(i).cloned()).collect(),
    };
    let mut written = Vec::new();
    for entry in p["rows"].as_array().ok_or("rows is not an array")? {
        let i = entry[0].as_u64().ok_or("row index")? as usize;
        if i >= len || written.contains(&i) {
            return Err(format!("row index {i} out of range or repeated"));
        }
        next[i] = Some(entry[1].clone());
        written.push(i);
    }
    *mirror = next
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.ok_or(format!("row {i} neither kept nor written")))
        .collect::<Result<_, _>>()?;
    Ok((written, moved))
}

fn ops(v: &Value) -> &[Value] {
    v["ops"].as_array().map_or(&[], Vec::as_slice)
}

fn check_all(v: &Value, outcomes: &[Outcome], mut problems: Vec<String>) -> Vec<String> {
    for a in v["expect"].as_array().map_or(&[][..], Vec::as_slice) {
        if let Err(e) = check(a, outcomes) {
            problems.push(e);
        }
    }
    problems
}

fn check(a: &Value, outcomes: &[Outcome]) -> Result<(), String> {
    if let Some(pair) = a.get("same").or_else(|| a.get("notSame")) {
        return check_identity(a, pair, outcomes);
    }
    let at = a["at"].as_u64().ok_or("assertion without at")? as usize;
    let value = focus(a, outcomes.get(at).and_then(|o| o.result.clone()))?;
    let shown = value
        .as_ref()
        .map_or("undefined".to_owned(), Value::to_string);
    let fail = |what: String| Err(format!("op {at} {a}: {what}, got {shown}"));
    if let Some(n) = a.get("length") {
        return if length(value.as_ref()) == n.as_u64() {
            Ok(())
        } else {
            fail(format!("length {n}"))
        };
    }
    if let Some(n) = a.get("minLength").and_then(Value::as_u64) {
        let len = length(value.as_ref()).unwrap_or(0);
        return if len >= n {
            Ok(())
        } else {
            fail(format!("length >= {n}"))
        };
    }
    if let Some(e) = a.get("equals") {
        return if deep_equal(value.as_ref(), e) {
            Ok(())
        } else {
            fail("not equal".into())
        };
    }
    if let Some(e) = a.get("matches") {
        return if matches(value.as_ref(), e) {
            Ok(())
        } else {
            fail("no match".into())
        };
    }
    if let Some(s) = a.get("contains").and_then(Value::as_str) {
        let ok = value
            .as_ref()
            .and_then(Value::as_str)
            .is_some_and(|v| v.contains(s));
        return if ok {
            Ok(())
        } else {
            fail("no substring".into())
        };
    }
    if a.get("undefined").is_some() {
        return if value.is_none() {
            Ok(())
        } else {
            fail("defined".into())
        };
    }
    if let Some(n) = a.get("distinctCount").and_then(Value::as_u64) {
        let count = value
            .as_ref()
            .and_then(Value::as_array)
            .map(|items| distinct(items));
        return if count == Some(n as usize) {
            Ok(())
        } else {
            fail(format!("{n} distinct"))
        };
    }
    Err(format!("unknown assertion {a}"))
}

fn check_identity(a: &Value, pair: &Value, outcomes: &[Outcome]) -> Result<(), String> {
    let idx = |k: usize| {
        pair[k]
            .as_u64()
            .map(|x| x as usize)
            .ok_or("bad identity pair")
    };
    let (i, j) = (idx(0)?, idx(1)?);
    let (lo, hi) = (i.min(j), i.max(j));
    let span = outcomes
        .get(lo + 1..=hi)
        .ok_or("identity pair out of range")?;
    // With a row path, "the same object" means the row was neither written nor moved.
    let row: Option<usize> = match a.get("path").and_then(Value::as_str) {
        None => None,
        Some(p) => Some(
            p.parse()
                .map_err(|_| format!("unsupported identity path {p}"))?,
        ),
    };
    let touched = |o: &Outcome| match row {
        None => o.changed,
        Some(r) => {
            o.written.contains(&r)
                || o.moved
                    .as_ref()
                    .is_some_and(|m| m.get(r) != Some(&(r as i64)))
        }
    };
    let any = span.iter().any(touched);
    match (a.get("same").is_some(), any) {
        (true, true) => Err(format!("{a}: expected unchanged between ops {lo} and {hi}")),
        (false, false) => Err(format!("{a}: expected a change between ops {lo} and {hi}")),
        _ => Ok(()),
    }
}

/// Focus selection: select, filter, map, path (in that order).
fn focus(a: &Value, mut value: Option<Value>) -> Result<Option<Value>, String> {
    let array = |v: Option<Value>| match v {
        Some(Value::Array(items)) => Ok(items),
        other => Err(format!("{a}: focus on a non-array {other:?}")),
    };
    if let Some(sel) = a
        .get("select")
        .and_then(Value::as_str)
        .filter(|s| *s != "all")
    {
        let tool = sel == "tool";
        let items = array(value)?;
        let kept = items
            .into_iter()
            .filter(|r| (r["kind"] == "tool_call") == tool);
        value = Some(Value::Array(kept.collect()));
    }
    if let Some(f) = a.get("filter") {
        let items = array(value)?;
        value = Some(Value::Array(
            items.into_iter().filter(|r| matches(Some(r), f)).collect(),
        ));
    }
    if let Some(m) = a.get("map") {
        let field = |r: &Value, k: &Value| {
            let v = k.as_str().and_then(|k| r.get(k));
            v.cloned()
                .unwrap_or_else(|| Value::String(UNDEFINED.into()))
        };
        let items = array(value)?;
        let mapped = items.iter().map(|r| match m {
            Value::Array(keys) => Value::Array(keys.iter().map(|k| field(r, k)).collect()),
            k => field(r, k),
        });
        value = Some(Value::Array(mapped.collect()));
    }
    if let Some(path) = a
        .get("path")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
    {
        for seg in path.split('.') {
            value = value.and_then(|v| match v {
                Value::Array(items) => seg
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.into_iter().nth(i)),
                Value::Object(mut map) => map.remove(seg),
                _ => None,
            });
        }
    }
    Ok(value)
}

/// `value.length` for arrays and strings (UTF-16 units, as in JS).
fn length(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Array(a) => Some(a.len() as u64),
        Value::String(s) => Some(s.encode_utf16().count() as u64),
        _ => None,
    }
}

/// `new Set(values).size`: primitives by value, objects and arrays by identity (all distinct).
fn distinct(items: &[Value]) -> usize {
    let mut seen: Vec<&Value> = Vec::new();
    let mut objects = 0;
    for v in items {
        if v.is_object() || v.is_array() {
            objects += 1;
        } else if !seen.iter().any(|s| prim_eq(s, v)) {
            seen.push(v);
        }
    }
    seen.len() + objects
}

/// `===` on JSON primitives (numbers compared as numbers).
fn prim_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// toEqual: deep equality; undefined properties are absent (the rows never hold undefined).
fn deep_equal(actual: Option<&Value>, expected: &Value) -> bool {
    let Some(actual) = actual else { return false };
    match (expected, actual) {
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(e, a)| deep_equal(Some(a), e))
        }
        (Value::Object(e), Value::Object(a)) => {
            e.len() == a.len() && e.iter().all(|(k, ev)| deep_equal(a.get(k), ev))
        }
        (Value::Array(_) | Value::Object(_), _) => false,
        _ => prim_eq(actual, expected),
    }
}

/// toMatchObject: `expected` is a recursive subset; arrays match element-wise with equal length.
fn matches(actual: Option<&Value>, expected: &Value) -> bool {
    let Some(actual) = actual else { return false };
    match (expected, actual) {
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(e, a)| matches(Some(a), e))
        }
        (Value::Object(e), Value::Object(a)) => e.iter().all(|(k, ev)| matches(a.get(k), ev)),
        (Value::Array(_) | Value::Object(_), _) => false,
        _ => prim_eq(actual, expected),
    }
}
