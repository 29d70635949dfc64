//! Reopening the primary socket (issues 11 and 36): after every socket of a ready session was
//! lost, and when the socket drops during the start sequence. The core schedules each attempt
//! with the policy's backoff and asks the driver to open the socket
//! ([`LinkEffect::ReopenPrimary`]); the start then runs again (on the runtime the session had,
//! when it had one), and input the server never acknowledged is sent once more. A call made
//! while the session is disconnected waits for the attempt under way, or starts one when the
//! attempts were spent.

use super::super::core::{Phase, SessionCore, Target};
use super::super::error::SessionError;
use super::connections::{PrimaryReopen, ReopenPlan};
use super::LinkEffect;
use crate::protocol::runtime::Runtime;

impl SessionCore {
    /// Whether the session replaces a lost primary socket itself: a remote session on a runtime
    /// of its own, with a reconnect policy (Cloud sessions reopen their status sockets on the next
    /// turn; `createAgent()` and management connections hold no runtime worth keeping).
    fn reopens_itself(&self) -> bool {
        let keeps_runtime = !matches!(
            self.config.target,
            Target::Management | Target::CreateAgent { .. }
        );
        keeps_runtime && self.is_remote_target() && self.policy().is_some()
    }

    /// The primary socket failed before the session was ready (a start step was under way, or
    /// a reopen attempt's socket did not open): the start runs again on a new socket, after
    /// the policy's backoff. `false`: not such a case (the caller fails as before).
    pub(in crate::session) fn restart_lost_start(&mut self, detail: &str, now: u64) -> bool {
        if self.is_closed() || !self.reopens_itself() {
            return false;
        }
        if matches!(self.connections.primary(), PrimaryReopen::At(_)) {
            // The failed attempt was reported already (an error, then its close).
            return true;
        }
        let started_on_open_socket = !matches!(self.startup.phase(), Phase::Connecting);
        let reopening = self.connections.primary() == PrimaryReopen::Opening;
        let in_start = !matches!(self.startup.phase(), Phase::Ready | Phase::Failed);
        if !in_start || !(started_on_open_socket || reopening) {
            return false;
        }
        // A runtime the lost start already made is started again, never made twice.
        if let (None, Some(runtime)) = (self.connections.recovering(), self.runtime()) {
            self.connections.recover(runtime.clone());
        }
        self.startup.restart();
        // The start's own requests died with the socket (their answers will never come).
        self.reject_all(SessionError::connection("App-server socket closed"));
        self.schedule_reopen(detail, now);
        true
    }

    /// Every socket of the ready session was lost: reopen it soon, without waiting for a call.
    pub(in crate::session) fn reopen_after_loss(&mut self, runtime: Runtime, now: u64) {
        self.connections.recover(runtime);
        self.startup.lose_socket();
        self.connections.primary_lost();
        self.schedule_reopen("the socket closed", now);
    }

    /// Schedules the next reopen attempt, or gives up after the policy's attempts: a session
    /// that never started fails its start; a session that was ready waits for the next call.
    fn schedule_reopen(&mut self, detail: &str, now: u64) {
        let Some(policy) = self.policy() else {
            return;
        };
        let ReopenPlan::GiveUp { was_ready } = self.connections.reopen_failed(&policy, now) else {
            return;
        };
        let error =
            SessionError::connection("App-server WebSocket failed to reopen: ".to_owned() + detail);
        if was_ready {
            self.reject_all(error.clone());
            self.settle_init(Err(error));
        } else {
            // A start that never succeeded ends the session, as a first socket that fails does.
            self.fail_start(error);
            self.closing.shut();
            if let Some(c) = self.coordinator.as_mut() {
                c.close(now);
            }
        }
    }

    /// A call while disconnected (`begin`): it waits for the attempt under way, or starts one
    /// at once when none is (the attempts were spent).
    pub(in crate::session) fn reopen_for_call(&mut self, now: u64) {
        if self.connections.recovering().is_some()
            && self.reopens_itself()
            && self.connections.primary() == PrimaryReopen::Idle
        {
            self.open_primary_again(now);
        }
    }

    fn open_primary_again(&mut self, now: u64) {
        self.connections.primary_opening();
        let at = now.saturating_add(self.request_timeout());
        self.startup.expect_socket_by(at);
        self.link(LinkEffect::ReopenPrimary);
    }

    /// When the next reopen attempt is due.
    pub(in crate::session) fn reopen_deadline(&self) -> Option<u64> {
        match self.connections.primary() {
            PrimaryReopen::At(at) => Some(at),
            _ => None,
        }
    }

    /// Opens the primary again once its attempt is due.
    pub(in crate::session) fn reopen_tick(&mut self, now: u64) {
        if matches!(self.connections.primary(), PrimaryReopen::At(at) if at <= now) {
            self.open_primary_again(now);
        }
    }

    /// A reopen attempt whose socket did not open in time counts as failed. `false`: no reopen
    /// attempt was opening (the first connection timed out).
    pub(in crate::session) fn reopen_timed_out(&mut self, now: u64) -> bool {
        self.connections.primary() == PrimaryReopen::Opening
            && self.restart_lost_start("it did not open in time", now)
    }

    /// After a successful `runtime_start` of a remote reopen: the runtime check, then, for a
    /// session that was ready before, ready again with the input the server never acknowledged
    /// sent once more. `None`: not a reopen of a ready session (a first start that lost its
    /// socket goes on with its remaining steps).
    pub(in crate::session) fn remote_reopened(
        &mut self,
        runtime: &Runtime,
    ) -> Option<Result<(), SessionError>> {
        if !self.is_remote_target() {
            return None;
        }
        let previous = self.connections.take_recovering()?;
        if previous != *runtime {
            return Some(Err(SessionError::connection(
                "the reconnected socket started a different runtime",
            )));
        }
        if !self.connections.was_ready() {
            return None;
        }
        self.startup.started_on(previous.clone());
        self.finish_start();
        self.resend_unacked();
        self.sync_new_primary(previous);
        self.signal(None);
        Some(Ok(()))
    }
}
