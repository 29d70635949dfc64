//! The writes held back while an input waits for the standby (see `gate`). Its fields are
//! private: the session holds, releases or drops writes through its methods.

use super::gate::STANDBY_WAIT_MS;

/// A write held back, in order.
#[derive(Debug)]
pub(in crate::session) enum Held {
    /// An `input` (tracked as unacknowledged once written).
    Input { request_id: String, frame: String },
    /// Any other frame.
    Frame(String),
}

/// The writes held back while an input waits for the standby.
#[derive(Debug, Default)]
pub(in crate::session) struct WriteGate {
    held: Vec<Held>,
    /// Until when the held input waits at most; `None` while nothing is held.
    until: Option<u64>,
}

impl WriteGate {
    /// Whether writes are held (an input waits).
    pub(in crate::session) fn is_holding(&self) -> bool {
        self.until.is_some()
    }

    /// Until when the held input waits at most.
    pub(in crate::session) fn until(&self) -> Option<u64> {
        self.until
    }

    /// Holds an `input`; the first one held waits [`STANDBY_WAIT_MS`] from `now` at most.
    pub(in crate::session) fn hold_input(&mut self, request_id: String, frame: String, now: u64) {
        self.until
            .get_or_insert(now.saturating_add(STANDBY_WAIT_MS));
        self.held.push(Held::Input { request_id, frame });
    }

    /// Holds a frame behind the input that waits.
    pub(in crate::session) fn hold_frame(&mut self, frame: String) {
        self.held.push(Held::Frame(frame));
    }

    /// Forgets every held write (their turns end with the session).
    pub(in crate::session) fn drop_held(&mut self) {
        *self = WriteGate::default();
    }

    /// Every held write, in order; nothing is held afterwards.
    pub(in crate::session) fn release(&mut self) -> Vec<Held> {
        std::mem::take(self).held
    }
}
