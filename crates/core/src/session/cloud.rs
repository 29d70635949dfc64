//! The Cloud session target (spec §4.6, §3.11; with the `cloud` feature, and in tests): the
//! runtime resolved over REST, the un-correlated `sync` right after `runtime_start`, and the
//! reopen on the same runtime after a transport drop while no turn runs.

use super::core::{Phase, SessionCore, Target};
use super::error::SessionError;
use crate::protocol::commands::{Command, Sync};
use crate::protocol::runtime::Runtime;

impl SessionCore {
    /// Sets the runtime a Cloud session resolved over REST (before its transport opens).
    pub fn set_cloud_runtime(&mut self, runtime: Runtime) {
        if self.startup.phase() == Phase::Connecting && self.connections.recovering().is_none() {
            self.config.target = Target::Cloud { runtime };
        }
    }

    /// After a successful Cloud `runtime_start`: the un-correlated `sync`; on a reopen, the
    /// runtime check and the end of the start (`Some`: the start's outcome, nothing else to do;
    /// the post-start steps were done the first time).
    pub(super) fn cloud_started(&mut self, runtime: &Runtime) -> Option<Result<(), SessionError>> {
        if !matches!(self.config.target, Target::Cloud { .. }) {
            return None;
        }
        let sync = Command::Sync(Sync {
            request_id: None,
            runtime: runtime.clone(),
            recover_approvals: true,
            force_device_status: true,
        });
        self.write(sync.to_json());
        let previous = self.connections.take_recovering()?;
        if previous != *runtime {
            return Some(Err(SessionError::connection(
                "cloud transport recovered a different runtime",
            )));
        }
        self.startup.started_on(previous);
        self.finish_start();
        Some(Ok(()))
    }

    /// The transport dropped: a ready Cloud session with no turn in flight waits to reopen
    /// (`true`) instead of closing.
    pub(super) fn cloud_idle_drop(&mut self) -> bool {
        let idle = self.startup.is_ready() && !self.has_in_flight_turn();
        match (&self.config.target, self.runtime()) {
            (Target::Cloud { .. }, Some(runtime)) if idle => {
                self.connections.recover(runtime.clone());
                self.startup.lose_socket();
                self.reject_all(SessionError::connection("App-server socket closed"));
                true
            }
            _ => false,
        }
    }
}
