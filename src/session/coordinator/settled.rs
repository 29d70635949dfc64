//! The last 256 settled run ids: their late deltas and duplicate receipts are dropped.

use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// How many settled runs are remembered (oldest forgotten first).
pub const MAX_SETTLED_RUNS: usize = 256;

/// A bounded set of run ids that forgets the oldest first: a hash set for the lookups (every
/// stream delta asks) and the insertion order for the eviction.
#[derive(Debug, Default, Clone)]
pub(crate) struct SettledRuns {
    ids: FxHashSet<String>,
    /// The same ids, oldest first.
    order: VecDeque<String>,
}

impl SettledRuns {
    /// Whether `run_id` settled recently.
    pub fn contains(&self, run_id: &str) -> bool {
        self.ids.contains(run_id)
    }

    /// Forgets `run_id`.
    pub fn remove(&mut self, run_id: &str) {
        if self.ids.remove(run_id) {
            self.order.retain(|id| id != run_id);
        }
    }

    /// Remembers `run_id`, evicting the oldest beyond [`MAX_SETTLED_RUNS`].
    pub fn insert(&mut self, run_id: &str) {
        if run_id.is_empty() || self.ids.contains(run_id) {
            return;
        }
        if self.order.len() == MAX_SETTLED_RUNS {
            if let Some(oldest) = self.order.pop_front() {
                self.ids.remove(&oldest);
            }
        }
        self.ids.insert(run_id.to_owned());
        self.order.push_back(run_id.to_owned());
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
