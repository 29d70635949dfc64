//! Replay suppression (spec §4): per-run `seqId` high-water marks, capped at 64 runs.

/// How many runs keep a threshold; past that the run inserted first is evicted.
pub const MAX_RUNS: usize = 64;

/// The thresholds live in a short list in insertion order (at most [`MAX_RUNS`] entries, so a
/// lookup is bounded; it scans from the newest run, the one a live stream writes to).
#[derive(Debug, Default)]
pub(super) struct ReplayTable {
    /// (run id (`""` for messages without one), highest accepted seqId), oldest first.
    runs: Vec<(String, f64)>,
}

impl ReplayTable {
    /// Live text: `true` when the slice is accepted (and the run's threshold rises to `seq`),
    /// `false` when `seq` is at or below the run's threshold. Slices without a `seqId` always pass.
    pub fn admit(&mut self, run: Option<&str>, seq: Option<f64>) -> bool {
        let Some(seq) = seq else { return true };
        match self.find(run) {
            Some(threshold) if seq <= *threshold => false,
            Some(threshold) => {
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
        match self.find(run) {
            Some(threshold) => *threshold = threshold.max(seq),
            None => self.insert(run, seq),
        }
    }

    fn find(&mut self, run: Option<&str>) -> Option<&mut f64> {
        let run = run.unwrap_or("");
        let mut entries = self.runs.iter_mut();
        while let Some((id, threshold)) = entries.next_back() {
            if id == run {
                return Some(threshold);
            }
        }
        None
    }

    fn insert(&mut self, run: Option<&str>, seq: f64) {
        let mut entry = (run.unwrap_or("").to_owned(), seq);
        if self.runs.len() < MAX_RUNS {
            self.runs.push(entry);
            return;
        }
        // Evict the entry inserted first (raising a threshold does not refresh its position):
        // from the newest down, each entry takes the place of the one before it.
        for slot in self.runs.iter_mut().rev() {
            std::mem::swap(slot, &mut entry);
        }
    }

    /// The threshold of `run` (`None` for no run id), if it has one.
    #[cfg(test)]
    pub fn threshold(&self, run: Option<&str>) -> Option<f64> {
        let run = run.unwrap_or("");
        self.runs.iter().find(|(id, _)| id == run).map(|&(_, t)| t)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    #[cfg(test)]
    pub fn clear(&mut self) {
        self.runs.clear();
    }
}
