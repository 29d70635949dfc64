//! Change tracking and the JSON patch the JS wrapper uses to keep row-object identity.
//!
//! `{"len":N,"rows":[[i,{row}],…]}`, or with `"moved":[m0,…]` after a reorder, where `moved[i]`
//! is the index at the previous take of the row now at `i` (`-1` for a row that is new since).
//! `rows` lists every row written since the previous take once, at its current index, in the
//! order of first write (ascending after a reorder; the JS wrapper accepts any order).

use super::rows::{Ids, Row, RowBody};
use super::TranscriptAccumulator;
use serde::Serialize;

#[derive(Debug, Default)]
pub(super) struct Changes {
    /// Indices of the rows written since the last take (each once; see `Row::written`).
    dirty: Vec<u32>,
    /// Row count at the last take.
    prev_len: usize,
    /// Set by a reorder: for each current row, its index at the last take, or -1.
    moved: Option<Vec<i32>>,
}

impl TranscriptAccumulator {
    /// Appends a row and returns its index. The caller writes it (`write_row`).
    pub(super) fn push_row(&mut self, row: Row) -> usize {
        self.rows.push(row);
        if let Some(moved) = &mut self.changes.moved {
            moved.push(-1);
        }
        self.rows.len() - 1
    }

    /// Records that row `index` is written, folds the write's `ids` into it and returns its body
    /// for the write.
    pub(super) fn write_row(&mut self, index: usize, ids: &Ids<'_>) -> Option<&mut RowBody> {
        let row = self.rows.get_mut(index)?;
        if !row.written {
            row.written = true;
            self.changes.dirty.push(index as u32);
        }
        row.merge_identity(ids);
        Some(&mut row.body)
    }

    /// Reorders the rows: `order[new] = old`, a permutation of `0..rows.len()`.
    pub(super) fn reorder(&mut self, order: &[u32]) {
        let mut old_to_new = vec![0u32; self.rows.len()];
        for (new, &old) in order.iter().enumerate() {
            if let Some(slot) = old_to_new.get_mut(old as usize) {
                *slot = new as u32;
            }
        }
        self.aliases.remap(&old_to_new);
        let changes = &mut self.changes;
        let mut moved = Vec::with_capacity(order.len());
        for &old in order {
            let before = match &changes.moved {
                Some(before) => before.get(old as usize).copied().unwrap_or(-1),
                None if (old as usize) < changes.prev_len => old as i32,
                None => -1,
            };
            moved.push(before);
        }
        changes.moved = Some(moved);
        // In place: each swap puts one row at its new index (`old_to_new` follows the rows).
        let rows = self.rows.as_mut_slice();
        for i in 0..old_to_new.len() {
            while let Some(&new) = old_to_new.get(i) {
                let new = new as usize;
                let len = rows.len().min(old_to_new.len());
                if new == i || new >= len || i >= len {
                    break;
                }
                rows.swap(i, new);
                old_to_new.swap(i, new);
            }
        }
        // The rows written since the last take, in their new (ascending) order.
        changes.dirty.clear();
        for (i, row) in self.rows.iter().enumerate() {
            if row.written {
                changes.dirty.push(i as u32);
            }
        }
    }

    /// The change since the previous `take_patch()` (or since `new()`/`reset()`) as a JSON patch,
    /// or `None` when nothing changed. Clears the change tracking.
    pub fn take_patch(&mut self) -> Option<String> {
        if self.changes.dirty.is_empty() && self.changes.moved.is_none() {
            return None;
        }
        let mut dirty = std::mem::take(&mut self.changes.dirty);
        let moved = self.changes.moved.take();
        let json = write_patch(&self.rows, moved.as_deref(), &dirty);
        for &i in &dirty {
            if let Some(row) = self.rows.get_mut(i as usize) {
                row.written = false;
            }
        }
        self.changes.prev_len = self.rows.len();
        // Keep the allocation for the next round.
        dirty.clear();
        self.changes.dirty = dirty;
        Some(json)
    }

    /// The one existing row written since the previous take, when that is the whole change (no
    /// new row, no reorder). A caller that can rebuild that row itself (a plain text append)
    /// then calls [`TranscriptAccumulator::discard_patch`] instead of taking the patch.
    pub fn only_changed_row(&self) -> Option<usize> {
        match (self.changes.dirty.as_slice(), &self.changes.moved) {
            ([i], None) if (*i as usize) < self.changes.prev_len => Some(*i as usize),
            _ => None,
        }
    }

    /// True when something changed since the previous take.
    pub fn has_changes(&self) -> bool {
        !self.changes.dirty.is_empty() || self.changes.moved.is_some()
    }

    /// Forgets the change since the previous take, as if its patch had been taken and applied.
    pub fn discard_patch(&mut self) {
        for i in std::mem::take(&mut self.changes.dirty) {
            if let Some(row) = self.rows.get_mut(i as usize) {
                row.written = false;
            }
        }
        self.changes.moved = None;
        self.changes.prev_len = self.rows.len();
    }
}

/// `{"len":N,"moved":[…]?,"rows":[[i,{row}],…]}` for the rows at the `dirty` indices.
#[derive(Serialize)]
struct Patch<'r> {
    len: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    moved: Option<&'r [i32]>,
    rows: Vec<(u32, &'r Row)>,
}

/// Writes the patch of the rows at the `dirty` indices.
fn write_patch(rows: &[Row], moved: Option<&[i32]>, dirty: &[u32]) -> String {
    let changed = dirty
        .iter()
        .filter_map(|&i| Some((i, rows.get(i as usize)?)))
        .collect();
    crate::json::to_string(&Patch {
        len: rows.len(),
        moved,
        rows: changed,
    })
}
