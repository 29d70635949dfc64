//! The closing concern's state: whether the session is closed, and until when a closed
//! session keeps its socket for the server to settle our work. Its fields are private: the
//! session asks it for decisions ([`Socket`]) and writes the effects itself.

/// What to do with the primary socket, as the closing concern decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::session) enum Socket {
    /// Keep it open (the drain goes on, or there is nothing to close).
    Keep,
    /// Close it now.
    Close,
}

/// Whether the session is closed, and its drain deadline.
#[derive(Debug, Default)]
pub(in crate::session) struct Closing {
    closed: bool,
    /// After `close()`: the latest time the socket closes; `None` when not draining.
    drain_deadline: Option<u64>,
}

impl Closing {
    /// True after `close()`, a transport loss or a start that failed for good.
    pub(in crate::session) fn is_closed(&self) -> bool {
        self.closed
    }

    /// True while a closed session holds its socket open for the server to settle.
    pub(in crate::session) fn is_draining(&self) -> bool {
        self.drain_deadline.is_some()
    }

    /// When the drain ends at the latest (a timer of the session).
    pub(in crate::session) fn deadline(&self) -> Option<u64> {
        self.drain_deadline
    }

    /// Marks the session closed. `false`: it was closed already (the caller does nothing more).
    pub(in crate::session) fn shut(&mut self) -> bool {
        !std::mem::replace(&mut self.closed, true)
    }

    /// The socket closed by itself: there is nothing left to drain.
    pub(in crate::session) fn socket_gone(&mut self) {
        self.drain_deadline = None;
    }

    /// After `close()`: wait until `settled_by` (the server still works on our turns), or close
    /// at once when there is nothing to wait for.
    pub(in crate::session) fn begin_drain(&mut self, settled_by: Option<u64>) -> Socket {
        match settled_by {
            Some(at) => {
                self.drain_deadline = Some(at);
                Socket::Keep
            }
            None => Socket::Close,
        }
    }

    /// A frame handled while draining: `settled_by` is what is left to wait for now (never
    /// later than the deadline set before); `None` ends the drain.
    pub(in crate::session) fn after_frame(&mut self, settled_by: Option<u64>) -> Socket {
        match (settled_by, self.drain_deadline) {
            (Some(at), Some(deadline)) => {
                self.drain_deadline = Some(at.min(deadline));
                Socket::Keep
            }
            _ => self.end_drain(),
        }
    }

    /// The timers fired: the drain ends once its deadline passed.
    pub(in crate::session) fn tick(&mut self, now: u64) -> Socket {
        if self.drain_deadline.is_some_and(|at| at <= now) {
            self.end_drain()
        } else {
            Socket::Keep
        }
    }

    fn end_drain(&mut self) -> Socket {
        self.drain_deadline = None;
        Socket::Close
    }
}
