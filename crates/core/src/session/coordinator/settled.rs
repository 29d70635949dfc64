//! The last 256 settled run ids: their late deltas and duplicate receipts are dropped.

use std::collections::VecDeque;

/// How many settled runs are remembered (oldest forgotten first).
pub const MAX_SETTLED_RUNS: usize = 256;

/// A bounded list of run ids, oldest first. Lookups scan it: a handful of ids in practice and
/// 256 at most, so no hash set beside the list (it costs wasm: bench/RESULTS.md).
#[derive(Debug, Default, Clone)]
pub(crate) struct SettledRuns {
    order: VecDeque<String>,
}

impl SettledRuns {
    /// Whether `run_id` settled recently.
    pub fn contains(&self, run_id: &str) -> bool {
        self.order.iter().any(|id| id == run_id)
    }

    /// Forgets `run_id`.
    pub fn remove(&mut self, run_id: &str) {
        self.order.retain(|id| id != run_id);
    }

    /// Remembers `run_id`, evicting the oldest beyond [`MAX_SETTLED_RUNS`].
    pub fn insert(&mut self, run_id: &str) {
        if run_id.is_empty() || self.contains(run_id) {
            return;
        }
        if self.order.len() == MAX_SETTLED_RUNS {
            self.order.pop_front();
        }
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
