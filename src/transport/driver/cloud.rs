//! The session driver's Cloud side: the status sockets it takes over, and the session's
//! [`CloudConnect`] (with its I/O, [`CloudSession`]), which the pump runs with the core.

use super::{Driver, Event, Link, State};
use crate::cloud::connect::CloudConnect;
use crate::transport::cloud_session::{execute, CloudSession};
use crate::transport::status_link::StatusLink;
use crate::transport::timer::now;
use std::rc::Rc;

impl Driver {
    /// Takes over an open Cloud status sockets (see `transport::cloud_session`): its events go to
    /// the core from now on, and the core starts the session on it.
    pub fn attach_status_link(&self, link: StatusLink) {
        let weak = Rc::downgrade(&self.state);
        let handler = Rc::downgrade(&self.handler);
        let open = link.is_open();
        // A replaced link (idle recovery) is gone already; drop it with no borrow held.
        let previous = {
            let mut state = self.state.borrow_mut();
            state.link_id = 0;
            state.link.replace(Link::Status(link))
        };
        drop(previous);
        if open {
            self.run(|core, now| core.on_open(now));
        }
        let writer = match self.state.borrow().link.as_ref() {
            Some(Link::Status(link)) => Some(link.writer()),
            _ => None,
        };
        if let Some(writer) = writer {
            writer.set_sink(move |event| {
                if let (Some(state), Some(handler)) = (weak.upgrade(), handler.upgrade()) {
                    Driver { state, handler }.on_socket_event(0, event);
                }
            });
        }
    }

    /// Gives the session its Cloud connection, which [`Driver::run_cloud`] steps and the pump
    /// runs with the core.
    pub fn set_cloud(&self, cloud: CloudSession) {
        self.state.borrow_mut().cloud = Some(cloud);
    }

    /// Runs `step` on the Cloud connection with the clock, then executes the effects (`None`
    /// for a session without one).
    pub fn run_cloud<R>(&self, step: impl FnOnce(&mut CloudConnect, u64) -> R) -> Option<R> {
        let result = {
            let mut state = self.state.borrow_mut();
            let cloud = state.cloud.as_mut()?;
            step(cloud.machine(), now())
        };
        self.pump();
        Some(result)
    }

    /// Hands `event` to the owner's handler (no borrow held).
    pub(in crate::transport) fn notify(&self, event: Event) {
        (self.handler.borrow_mut())(event);
    }

    /// Executes the Cloud connection's pending effects (`true` if there were any).
    pub(super) fn execute_cloud_effects(&self) -> bool {
        let pending = self
            .state
            .borrow_mut()
            .cloud
            .as_mut()
            .and_then(CloudSession::take_effects);
        let Some((effects, io)) = pending else {
            return false;
        };
        for effect in effects {
            execute(self, &io, effect);
        }
        true
    }
}

impl State {
    /// The earlier of the core's deadline `core` and the Cloud connection's.
    pub(super) fn earliest_with_cloud(&mut self, core: Option<u64>) -> Option<u64> {
        let cloud = self.cloud.as_mut().and_then(|c| c.machine().deadline());
        match (core, cloud) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
