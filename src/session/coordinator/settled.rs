//! The last 256 settled run ids: their late deltas and duplicate receipts are dropped.

/// How many settled runs are remembered (oldest forgotten first).
pub const MAX_SETTLED_RUNS: usize = 256;

/// A bounded set of run ids that forgets the oldest first. It holds at most 256 short ids, so a linear
/// scan is as quick as hashing and keeps a hash-set instantiation out of the wasm.
#[derive(Debug, Default, Clone)]
pub(crate) struct SettledRuns {
    /// A ring once full: `oldest` is the slot the next insertion overwrites.
    order: Vec<String>,
    oldest: usize,
}

impl SettledRuns {
    /// Whether `run_id` settled recently.
    pub fn contains(&self, run_id: &str) -> bool {
        super::turn::lists(&self.order, run_id)
    }

    /// Remembers `run_id`, evicting the oldest beyond [`MAX_SETTLED_RUNS`].
    pub fn insert(&mut self, run_id: &str) {
        if run_id.is_empty() || self.contains(run_id) {
            return;
        }
        if self.order.len() < MAX_SETTLED_RUNS {
            self.order.push(run_id.to_owned());
        } else if let Some(slot) = self.order.get_mut(self.oldest) {
            *slot = run_id.to_owned();
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
