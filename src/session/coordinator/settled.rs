//! The last 256 settled run ids: their late deltas and duplicate receipts are dropped.

use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// How many settled runs are remembered (oldest forgotten first).
pub const MAX_SETTLED_RUNS: usize = 256;

/// A bounded, insertion-ordered set of run ids.
#[derive(Debug, Default, Clone)]
pub(crate) struct SettledRuns {
    set: FxHashSet<Box<str>>,
    order: VecDeque<Box<str>>,
}

impl SettledRuns {
    /// Whether `run_id` settled recently.
    pub fn contains(&self, run_id: &str) -> bool {
        self.set.contains(run_id)
    }

    /// Remembers `run_id`, evicting the oldest beyond [`MAX_SETTLED_RUNS`].
    pub fn insert(&mut self, run_id: &str) {
        if run_id.is_empty() || self.set.contains(run_id) {
            return;
        }
        let key: Box<str> = run_id.into();
        self.set.insert(key.clone());
        self.order.push_back(key);
        if self.order.len() > MAX_SETTLED_RUNS {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
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
    }
}
