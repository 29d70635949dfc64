//! The string → row-index table behind every alias table (spec §3).
//!
//! Open addressing with linear probing: a power-of-two slot array, at most half full, holds
//! positions in a dense entry list. Entries are never removed one by one (a table is only ever
//! cleared as a whole), so there are no tombstones. Lookups and inserts stay O(1) on average; one
//! small non-generic table keeps the wasm smaller than a `HashMap<String, u32>` instantiation.

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

#[derive(Debug, Default)]
pub(super) struct IndexTable {
    /// The keys in insertion order.
    entries: Vec<Entry>,
    /// `0` for an empty slot, else 1 + the position of its entry. Empty, or a power of two long.
    slots: Vec<u32>,
}

#[derive(Debug)]
struct Entry {
    key: String,
    hash: u32,
    value: u32,
}

impl IndexTable {
    /// The value of `key`, if it has one.
    pub fn get(&self, key: &str) -> Option<u32> {
        let entry = self.find(key, hash(key)).ok()?;
        self.entries.get(entry).map(|e| e.value)
    }

    /// Sets the value of `key`, adding the key when it is new.
    pub fn set(&mut self, key: &str, value: u32) {
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let hash = hash(key);
        match self.find(key, hash) {
            Ok(entry) => {
                if let Some(e) = self.entries.get_mut(entry) {
                    e.value = value;
                }
            }
            Err(slot) => {
                self.entries.push(Entry {
                    key: key.to_owned(),
                    hash,
                    value,
                });
                if let Some(s) = self.slots.get_mut(slot) {
                    *s = self.entries.len() as u32;
                }
            }
        }
    }

    /// Rewrites every value `v` to `old_to_new[v]`.
    pub fn remap(&mut self, old_to_new: &[u32]) {
        for e in &mut self.entries {
            if let Some(&new) = old_to_new.get(e.value as usize) {
                e.value = new;
            }
        }
    }

    /// `Ok(entry position)` of `key`, or `Err(slot)`: the empty slot where it would go.
    fn find(&self, key: &str, hash: u32) -> Result<usize, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = hash as usize & mask;
        while let Some(&slot) = self.slots.get(i) {
            let position = slot.wrapping_sub(1) as usize;
            let Some(entry) = self.entries.get(position) else {
                break;
            };
            if entry.hash == hash && entry.key == key {
                return Ok(position);
            }
            i = (i + 1) & mask;
        }
        Err(i)
    }

    /// Doubles the slot array (at least 8 slots) and places every entry again.
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).max(8);
        let mask = len - 1;
        self.slots = vec![0; len];
        for (position, entry) in self.entries.iter().enumerate() {
            let mut i = entry.hash as usize & mask;
            while let Some(slot) = self.slots.get_mut(i) {
                if *slot == 0 {
                    *slot = position as u32 + 1;
                    break;
                }
                i = (i + 1) & mask;
            }
        }
    }
}

fn hash(key: &str) -> u32 {
    FxBuildHasher.hash_one(key) as u32
}
