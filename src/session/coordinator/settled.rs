//! The last 256 settled run ids: their late deltas and duplicate receipts are dropped.

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// How many settled runs are remembered (oldest forgotten first).
pub const MAX_SETTLED_RUNS: usize = 256;

/// A bounded set of run ids that forgets the oldest first. Every stream delta asks it, and most
/// ask about a run that is not in it, so it scans a dense array of the ids' hashes (256 `u64`s at
/// most) and compares strings only on a hash match; no hash-set instantiation in the wasm.
#[derive(Debug, Default, Clone)]
pub(crate) struct SettledRuns {
    /// A ring once full: `oldest` is the slot the next insertion overwrites.
    order: Vec<String>,
    /// `hashes[i]` is the hash of `order[i]`.
    hashes: Vec<u64>,
    oldest: usize,
}

/// The hash [`SettledRuns`] keys its scan on.
fn hash(run_id: &str) -> u64 {
    FxBuildHasher.hash_one(run_id)
}

impl SettledRuns {
    /// Whether `run_id` settled recently.
    pub fn contains(&self, run_id: &str) -> bool {
        !run_id.is_empty() && self.position(run_id, hash(run_id)).is_some()
    }

    /// The slot holding `run_id`, whose hash is `hash`.
    fn position(&self, run_id: &str, hash: u64) -> Option<usize> {
        for (at, &listed) in self.hashes.iter().enumerate() {
            if listed == hash && self.order.get(at).is_some_and(|id| id == run_id) {
                return Some(at);
            }
        }
        None
    }

    /// Forgets `run_id` (its slot stays, empty, until the ring reuses it).
    pub fn remove(&mut self, run_id: &str) {
        if let Some(at) = self.position(run_id, hash(run_id)) {
            if let (Some(slot), Some(slot_hash)) = (self.order.get_mut(at), self.hashes.get_mut(at))
            {
                slot.clear();
                *slot_hash = hash("");
            }
        }
    }

    /// Remembers `run_id`, evicting the oldest beyond [`MAX_SETTLED_RUNS`].
    pub fn insert(&mut self, run_id: &str) {
        let hash = hash(run_id);
        if run_id.is_empty() || self.position(run_id, hash).is_some() {
            return;
        }
        if self.order.len() < MAX_SETTLED_RUNS {
            self.order.push(run_id.to_owned());
            self.hashes.push(hash);
        } else if let (Some(slot), Some(slot_hash)) = (
            self.order.get_mut(self.oldest),
            self.hashes.get_mut(self.oldest),
        ) {
            *slot = run_id.to_owned();
            *slot_hash = hash;
            self.oldest = (self.oldest + 1) % MAX_SETTLED_RUNS;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_oldest() {
        let mut runs = SettledRuns::default();
        for i in 0..=MAX_SETTLED_RUNS {
            runs.insert(&format!("run-{i}"));
        }
        assert!(!runs.contains("run-0"));
        assert!(runs.contains("run-1"));
        assert!(runs.contains(&format!("run-{MAX_SETTLED_RUNS}")));
        runs.insert("again");
        assert!(!runs.contains("run-1"));
        assert!(runs.contains("run-2"));
        assert!(runs.contains("again"));
    }
}
