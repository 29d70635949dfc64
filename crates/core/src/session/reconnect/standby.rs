//! The standby socket (see `reconnect`): opened once the session is ready, subscribed to the
//! runtime with its own `runtime_start`, contributing stream frames only, and retried with
//! backoff when it fails.

use super::super::core::{SessionCore, Target};
use super::connections::Standby;
use super::LinkEffect;
use crate::protocol::commands::{Command, RuntimeStart};
use crate::protocol::peek_event_ids;
use crate::protocol::runtime::Runtime;

impl SessionCore {
    /// Sessions on an app server's own socket hold a standby (Cloud has its status sockets, and the
    /// management connection and `createAgent()` sessions hold no runtime worth keeping).
    fn wants_standby(&self) -> bool {
        let keeps_runtime = !matches!(
            self.config.target,
            Target::Management | Target::CreateAgent { .. }
        );
        keeps_runtime && self.is_remote_target() && self.policy().is_some() && self.is_ready()
    }

    /// Opens the standby unless one is open or opening (once the session is ready, after a
    /// promotion, and when a retry is due).
    pub(in crate::session) fn open_standby_if_wanted(&mut self) {
        let wanted = self.wants_standby();
        if self.connections.open_standby(wanted) {
            self.link(LinkEffect::OpenStandby);
        }
    }

    /// The standby socket opened: subscribe it to the runtime ([`standby_start`]).
    pub fn on_standby_open(&mut self, _now: u64) {
        let (Standby::Connecting, Some(runtime)) =
            (self.connections.standby(), self.runtime().cloned())
        else {
            return;
        };
        let start = standby_start(self.ids.next("runtime-start"), &runtime);
        self.connections.standby_opened();
        self.link(LinkEffect::WriteStandby(
            Command::RuntimeStart(start).to_json(),
        ));
    }

    /// A frame on the standby socket: its `runtime_start` answer, then stream frames only.
    pub fn on_standby_frame(&mut self, text: &str, now: u64) {
        match self.connections.standby() {
            Standby::Starting => self.on_standby_start_answer(text, now),
            Standby::Ready if !self.is_closed() => {
                self.take_frame(text, peek_event_ids(text).envelope_at, true, now);
            }
            _ => {}
        }
    }

    /// Whether the standby's transport may hold its stream frames back until the primary
    /// drops (then they go to [`Self::on_standby_frame`] before the close): the standby is
    /// ready, so all it contributes is stream frames, and only what the primary missed.
    pub fn holds_standby_frames(&self) -> bool {
        self.connections.standby() == Standby::Ready && !self.is_closed()
    }

    /// The standby sends nothing but its `runtime_start`, so the first start answer on it is
    /// that one's (its conversation is named, so a success is on the session's runtime).
    fn on_standby_start_answer(&mut self, text: &str, now: u64) {
        let Some(answer) = crate::json::Object::parse(text) else {
            return;
        };
        if answer.get("type").as_str() != Some("runtime_start_response") {
            return;
        }
        if answer.bool("success") == Some(true) {
            let signalled = self.connections.standby_ready();
            self.release_held_writes();
            if signalled {
                self.signal(None);
            }
        } else {
            self.link(LinkEffect::CloseStandby);
            self.standby_failed(now);
        }
    }

    /// The standby socket closed or failed to open: retry with backoff, up to the policy's
    /// attempts (the session goes on on its primary meanwhile).
    pub fn on_standby_closed(&mut self, now: u64) {
        if self.connections.standby() == Standby::Off || self.is_closed() {
            return;
        }
        let was_ready = self.connections.standby() == Standby::Ready;
        self.standby_failed(now);
        if was_ready && !self.connections.is_signalled() {
            self.signal(Some(true));
        }
    }

    fn standby_failed(&mut self, now: u64) {
        let Some(policy) = self.policy() else {
            return;
        };
        if !self.connections.standby_failed(&policy, now) {
            // No standby will come: held input goes out on the primary alone.
            self.release_held_writes();
        }
    }
}

/// The standby's `runtime_start`: the session's runtime without changing anything the
/// primary's start set (no mode, no working directory, skill sources kept, no tools: SDK tools
/// stay on the primary, whose socket the server asks), and without a state replay.
fn standby_start(request_id: String, runtime: &Runtime) -> RuntimeStart {
    let mut start = RuntimeStart::new(request_id, "");
    start.mode = None;
    start.force_device_status = false;
    start.preserve_skill_sources = Some(true);
    start.agent_id = runtime.agent_id.clone();
    start.conversation_id = Some(runtime.conversation_id.clone());
    start
}
