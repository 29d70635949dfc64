//! The transcript accumulator: random messages and history pages, one operation per line:
//!   `M<message>` apply   `B<array>` applyMany   `P<page>` rebase   `A<page>` rebase (asc)
//!   `D<page>` rebase (desc)   `R` reset   `K` take the patch
//! Nothing may panic; after every operation the rows have distinct keys and serialize to valid
//! JSON, and a patch is valid JSON.
#![no_main]

use letta_core::transcript::{HistoryOrder, TranscriptAccumulator};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

fn valid_json(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut acc = TranscriptAccumulator::new();
    for line in text.lines().take(2_000) {
        let (op, arg) = line.split_at(line.chars().next().map_or(0, char::len_utf8));
        match op {
            "M" => {
                acc.apply_json(arg);
            }
            "B" => {
                acc.apply_many_json(arg);
            }
            "P" => {
                acc.rebase_json(arg, None);
            }
            "A" => {
                acc.rebase_json(arg, Some(HistoryOrder::Asc));
            }
            "D" => {
                acc.rebase_json(arg, Some(HistoryOrder::Desc));
            }
            "R" => acc.reset(),
            "K" => {
                if let Some(patch) = acc.take_patch() {
                    assert!(valid_json(&patch), "invalid patch: {patch}");
                }
            }
            _ => continue,
        }
        let mut keys = HashSet::new();
        for row in acc.rows() {
            assert!(
                keys.insert(row.key.as_str()),
                "duplicated row key {}",
                row.key
            );
        }
        let rows = acc.rows_json();
        assert!(valid_json(&rows), "invalid rows: {rows}");
    }
});
