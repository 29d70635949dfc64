//! Replay suppression (spec §4): per-run `seqId` high-water marks, capped at 64 runs.

use rustc_hash::FxHashMap;

/// How many runs keep a threshold; past that the run inserted first is evicted.
pub const MAX_RUNS: usize = 64;

#[derive(Debug, Default)]
pub(super) struct ReplayTable {
    /// run id (`""` for messages without one) → (highest accepted seqId, insertion number)
    runs: FxHashMap<String, (f64, u64)>,
    inserted: u64,
}

impl ReplayTable {
    /// Live text: `true` when the slice is accepted (and the run's threshold rises to `seq`),
    /// `false` when `seq` is at or below the run's threshold. Slices without a `seqId` always pass.
    pub fn admit(&mut self, run: Option<&str>, seq: Option<f64>) -> bool {
        let Some(seq) = seq else { return true };
        let run = run.unwrap_or("");
        match self.runs.get_mut(run) {
            Some((threshold, _)) if seq <= *threshold => false,
            Some((threshold, _)) => {
                *threshold = seq;
                true
            }
            None => {
                self.insert(run, seq);
                true
            }
        }
    }

    /// History: raises the run's threshold to `seq` (never lowers it).
    pub fn raise(&mut self, run: Option<&str>, seq: f64) {
        let run = run.unwrap_or("");
        match self.runs.get_mut(run) {
            Some((threshold, _)) => *threshold = threshold.max(seq),
            None => self.insert(run, seq),
        }
    }

    fn insert(&mut self, run: &str, seq: f64) {
        if self.runs.len() >= MAX_RUNS {
            // Evict the entry inserted first; raising a threshold does not refresh its position.
            let oldest = self
                .runs
                .iter()
                .min_by_key(|(_, &(_, n))| n)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.runs.remove(&k);
            }
        }
        self.inserted += 1;
        self.runs.insert(run.to_owned(), (seq, self.inserted));
    }

    /// The threshold of `run` (`None` for no run id), if it has one.
    #[cfg(test)]
    pub fn threshold(&self, run: Option<&str>) -> Option<f64> {
        self.runs.get(run.unwrap_or("")).map(|&(t, _)| t)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    pub fn clear(&mut self) {
        self.runs.clear();
        self.inserted = 0;
    }
}
