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

    /// A device status arrived: returns the calls it completes (with the status JSON).
    pub fn on_status(&mut self, status: &str) -> Vec<(CallId, String)> {
        for waiter in &mut self.waiters {
            waiter.status = Some(status.to_owned());
        }
        self.take_done()
    }

    /// The call's `sync` succeeded: returns it if a status already arrived.
    pub fn on_synced(&mut self, call: CallId) -> Vec<(CallId, String)> {
        if let Some(waiter) = self.waiters.iter_mut().find(|w| w.call == call) {
            waiter.synced = true;
        }
        self.take_done()
    }

    fn take_done(&mut self) -> Vec<(CallId, String)> {
        let mut done = Vec::new();
        let mut index = 0;
        while index < self.waiters.len() {
            let waiter = &mut self.waiters[index];
            match (waiter.synced, waiter.status.take()) {
                (true, Some(status)) => {
                    done.push((waiter.call, status));
                    self.waiters.remove(index);
                }
                (_, status) => {
                    waiter.status = status;
                    index += 1;
                }
            }
        }
        done
    }

    pub fn remove(&mut self, call: CallId) {
        self.waiters.retain(|w| w.call != call);
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
