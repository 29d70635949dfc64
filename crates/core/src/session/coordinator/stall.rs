//! The stalled-queue watch of the active turn (see `correlation` for why a queued input can
//! stall). Its fields are private: the coordinator tells it what it sees (whether our turn
//! waits in the server's queue, whether the server is busy, the clock) and asks it whether a
//! `resume_queue` is due and when to look again.

/// How long a queued input may wait on an idle server before the queue is re-pumped.
pub const STALL_GRACE_MS: u64 = 1_000;
/// How many `resume_queue` requests one stalled turn may send (backoff doubles each time).
pub const MAX_RESUME_ATTEMPTS: u32 = 4;

/// The re-pump timer, its attempt budget and the pending `resume_queue` of the active turn.
#[derive(Debug, Default)]
pub(super) struct StallWatch {
    /// When to re-pump, while the active turn waits in the server's queue on an idle server.
    at: Option<u64>,
    /// `resume_queue` requests sent for the active turn.
    attempts: u32,
    /// A `resume_queue` is due: the session takes it with `take_resume_queue`.
    resume_due: bool,
}

impl StallWatch {
    /// When [`Self::tick`] must run, if the watch is armed.
    pub fn deadline(&self) -> Option<u64> {
        self.at
    }

    /// Whether a `resume_queue` is due now (taken once per due time).
    pub fn take_resume_due(&mut self) -> bool {
        std::mem::take(&mut self.resume_due)
    }

    /// The turn ended (or none waits): a fresh watch with a fresh budget.
    pub fn reset(&mut self) {
        *self = StallWatch::default();
    }

    /// Arms the watch while the active turn waits in the server's queue (`waiting`) on an idle
    /// server; pauses it while the server is busy; disarms it when nothing waits.
    pub fn refresh(&mut self, waiting: bool, server_busy: bool, now_ms: u64) {
        if !waiting {
            self.reset();
        } else if server_busy {
            self.at = None;
        } else if self.at.is_none() && self.attempts < MAX_RESUME_ATTEMPTS {
            self.at = Some(now_ms.saturating_add(STALL_GRACE_MS));
        }
    }

    /// Fires at `now_ms` if due: a `resume_queue` becomes due, and the next attempt is
    /// scheduled with doubled backoff until the budget is spent.
    pub fn tick(&mut self, now_ms: u64) {
        if self.at.is_none_or(|at| at > now_ms) {
            return;
        }
        self.resume_due = true;
        self.attempts += 1;
        self.at = (self.attempts < MAX_RESUME_ATTEMPTS)
            .then(|| now_ms.saturating_add(STALL_GRACE_MS << self.attempts.min(8)));
    }
}
