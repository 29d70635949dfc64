//! The reopen after every socket was lost: the next call opens the primary again on the same
//! runtime; once started, the input the server never acknowledged is
//! sent again and the state is replayed.

use super::super::core::{Phase, SessionCore};
use super::super::error::SessionError;
use crate::protocol::runtime::Runtime;

impl SessionCore {
    /// A reopen's socket failed (it did not open, or closed before the start finished): the
    /// waiting calls fail with a connection error, and the next call tries again (the app
    /// decides when: an automatic retry here measured 0.3 KB gzip the `/client` build has no
    /// room for). `false`: not a reopen.
    pub(in crate::session) fn reopen_failed(&mut self, detail: &str) -> bool {
        if self.recovering.is_none() || self.closed || self.phase == Phase::Ready {
            return false;
        }
        if !self.is_remote_target() {
            return false;
        }
        if std::mem::replace(&mut self.connections.attempt_failed, true) {
            return true;
        }
        self.phase = Phase::Connecting;
        self.connect_deadline = None;
        self.requests_for_start_fail(SessionError::connection(
            "App-server WebSocket failed to reopen: ".to_owned() + detail,
        ));
        true
    }

    /// Settles what waits for the start with `error`, keeping the session reopenable.
    fn requests_for_start_fail(&mut self, error: SessionError) {
        self.reject_all(error.clone());
        self.settle_init(Err(error));
    }

    /// A reopen (a call while disconnected) is starting on a fresh socket.
    pub(in crate::session) fn reopen_attempt_started(&mut self) {
        if self.recovering.is_some() {
            self.connections.attempt_failed = false;
        }
    }

    /// After a successful `runtime_start` of a remote reopen: the runtime check, then the
    /// session is ready again with the input the server never acknowledged sent once more.
    /// `None`: not a remote reopen.
    pub(in crate::session) fn remote_reopened(
        &mut self,
        runtime: &Runtime,
    ) -> Option<Result<(), SessionError>> {
        if !self.is_remote_target() {
            return None;
        }
        let previous = self.recovering.take()?;
        if previous != *runtime {
            return Some(Err(SessionError::connection(
                "the reconnected socket started a different runtime",
            )));
        }
        self.runtime = Some(previous.clone());
        self.finish_start();
        self.resend_unacked();
        self.sync_new_primary(previous);
        self.signal(None);
        Some(Ok(()))
    }
}
