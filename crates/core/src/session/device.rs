//! `getDeviceStatus()` waits (spec §3.12): a call resolves only when its correlated
//! `sync_response` succeeded **and** an `update_device_status` for the session's runtime arrived
//! after the call started.

use super::requests::CallId;

#[derive(Debug)]
struct Waiter {
    call: CallId,
    synced: bool,
    /// The newest projected status (JSON) seen since the call started.
    status: Option<String>,
    deadline: u64,
}

/// The pending `getDeviceStatus()` calls of a session.
#[derive(Debug, Default)]
pub struct DeviceWaiters {
    waiters: Vec<Waiter>,
}

impl DeviceWaiters {
    pub fn add(&mut self, call: CallId, deadline: u64) {
        self.waiters.push(Waiter {
            call,
            synced: false,
            status: None,
            deadline,
        });
    }

    /// A device status arrived: every waiting call gets it (see [`DeviceWaiters::take_done`]).
    pub fn on_status(&mut self, status: &str) {
        for waiter in &mut self.waiters {
            waiter.status = Some(status.to_owned());
        }
    }

    /// The call's `sync` succeeded.
    pub fn on_synced(&mut self, call: CallId) {
        for waiter in &mut self.waiters {
            if waiter.call == call {
                waiter.synced = true;
            }
        }
    }

    /// Removes and returns the oldest call that is synced and has a status (with the status).
    pub fn take_done(&mut self) -> Option<(CallId, String)> {
        let index = self
            .waiters
            .iter()
            .position(|w| w.synced && w.status.is_some())?;
        let waiter = self.waiters.remove(index);
        Some((waiter.call, waiter.status?))
    }

    pub fn remove(&mut self, call: CallId) {
        // A call waits at most once.
        if let Some(index) = self.waiters.iter().position(|w| w.call == call) {
            self.waiters.remove(index);
        }
    }

    /// Removes and returns the oldest call whose deadline is at or before `now` (every call is
    /// due at `u64::MAX`).
    pub fn take_due(&mut self, now: u64) -> Option<CallId> {
        let index = self.waiters.iter().position(|w| w.deadline <= now)?;
        Some(self.waiters.remove(index).call)
    }

    pub fn next_deadline(&self) -> Option<u64> {
        self.waiters.iter().map(|w| w.deadline).min()
    }

    pub fn is_empty(&self) -> bool {
        self.waiters.is_empty()
    }
}
