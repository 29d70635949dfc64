//! Keys and identity resolution (spec §3): family-scoped otid/uuid alias tables for text rows,
//! the toolCallId table for tool rows, and the anonymous-key counter.
//!
//! Every table maps to a row's current index in the row list; [`Aliases::remap`] rewrites them
//! after a reorder, which is the only time indices change.

use super::rows::{Row, TextKind};
use rustc_hash::FxHashMap;

#[derive(Debug, Default)]
pub(super) struct Aliases {
    /// `[OTID + family]`: otid → row index; `[UUID + family]`: envelope uuid → row index (moves
    /// to the newest slice); `[TOOLS]`: toolCallId → row index.
    tables: [FxHashMap<String, u32>; 7],
    /// Last `<kind>:auto:<n>` number handed out.
    auto: u64,
}

/// Table offsets in [`Aliases::tables`].
const OTID: usize = 0;
const UUID: usize = 3;
const TOOLS: usize = 6;

/// How a text slice resolved: onto an existing row, or a new row with this key.
pub(super) enum Resolved {
    /// An existing row, found through its otid alias (`by_otid`) or else its uuid alias.
    Existing {
        index: usize,
        by_otid: bool,
    },
    New(String),
}

impl Aliases {
    /// Resolves a text slice (spec §3 steps 1–3). `uuid` and `otid` must already be filtered to
    /// non-empty values.
    pub fn resolve_text(
        &mut self,
        rows: &[Row],
        kind: TextKind,
        uuid: Option<&str>,
        otid: Option<&str>,
    ) -> Resolved {
        let f = kind.index();
        if let Some(i) = otid.and_then(|o| self.tables[OTID + f].get(o).copied()) {
            return Resolved::Existing {
                index: i as usize,
                by_otid: true,
            };
        }
        let candidate = uuid
            .and_then(|u| self.tables[UUID + f].get(u).copied())
            .filter(|&i| {
                // A uuid-only hit is a different slice when both sides carry different otids
                // (the `[text, thinking, text]` case).
                match (otid, rows.get(i as usize).and_then(|r| r.otid.as_deref())) {
                    (Some(mine), Some(theirs)) => mine == theirs,
                    _ => true,
                }
            });
        if let Some(i) = candidate {
            return Resolved::Existing {
                index: i as usize,
                by_otid: false,
            };
        }
        let k = kind.as_str();
        Resolved::New(match (otid, uuid) {
            (Some(o), _) => row_key(k, ":otid:", o),
            (None, Some(u)) => row_key(k, ":uuid:", u),
            (None, None) => {
                self.auto += 1;
                let mut key = row_key(k, ":auto:", "");
                crate::json::write_u64(&mut key, self.auto);
                key
            }
        })
    }

    /// Points both aliases of a text slice (where present) at row `index` (spec §3 step 4).
    /// Callers skip the alias that resolved the row: it already points there.
    pub fn bind_text(
        &mut self,
        kind: TextKind,
        uuid: Option<&str>,
        otid: Option<&str>,
        index: usize,
    ) {
        let f = kind.index();
        if let Some(o) = otid {
            set(&mut self.tables[OTID + f], o, index as u32);
        }
        if let Some(u) = uuid {
            set(&mut self.tables[UUID + f], u, index as u32);
        }
    }

    /// The row index of a tool call, if it has a row.
    pub fn tool(&self, tool_call_id: &str) -> Option<usize> {
        self.tables[TOOLS].get(tool_call_id).map(|&i| i as usize)
    }

    pub fn bind_tool(&mut self, tool_call_id: &str, index: usize) {
        set(&mut self.tables[TOOLS], tool_call_id, index as u32);
    }

    /// Rewrites every stored index through `old_to_new` after the rows were reordered.
    pub fn remap(&mut self, old_to_new: &[u32]) {
        for index in self.tables.iter_mut().flat_map(|table| table.values_mut()) {
            if let Some(&new) = old_to_new.get(*index as usize) {
                *index = new;
            }
        }
    }
}

/// Points `key` at `index`, copying the key only when it is new.
fn set(table: &mut FxHashMap<String, u32>, key: &str, index: u32) {
    match table.get_mut(key) {
        Some(slot) => *slot = index,
        None => {
            table.insert(key.to_owned(), index);
        }
    }
}

/// A row key: `<family><tag><id>` (spec §3).
pub(super) fn row_key(family: &str, tag: &str, id: &str) -> String {
    let mut key = String::with_capacity(family.len() + tag.len() + id.len() + 4);
    key.push_str(family);
    key.push_str(tag);
    key.push_str(id);
    key
}
