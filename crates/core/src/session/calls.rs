//! The session's API calls (spec §1.5, §3.5). Each call is decided apart from the session:
//! its arguments are checked and its request built by free functions (or, for inputs, by
//! [`Inputs`]) that return a [`CallRequest`] or the error the call settles with. The session
//! only checks that it may take the call (started, not closed) and carries the decision out
//! ([`SessionCore::issue`]), so no call writes another concern's state.
//!
//! - the turn calls (`send`, `abort`): here, with the input built by `input`;
//! - the calls on the started runtime (`updateModel`, `removeQueuedMessage`, the device state
//!   and status, approval recovery): `runtime_calls`;
//! - the calls that only need an open connection (listings, `sendCommand`, management
//!   requests): `commands`.

use super::core::SessionCore;
use super::error::SessionError;
use super::options::positive_integer;
use super::requests::{CallId, Purpose, ResponseMatch, Shape};
use crate::json::Object;
use crate::protocol::commands::{Command, RuntimeRequest};
use crate::protocol::runtime::Runtime;

pub(super) use self::input::Inputs;

/// A call's request, decided from its arguments: the frame to write, the frame that answers
/// it, what that answer settles and how long it may take (`None`: the request timeout).
#[derive(Debug)]
struct CallRequest {
    frame: String,
    request_id: String,
    matcher: ResponseMatch,
    purpose: Purpose,
    timeout_ms: Option<u64>,
}

impl CallRequest {
    /// `command`, answered by its `<type>_response` frame.
    fn reply(command: &Command, request_id: String, purpose: Purpose) -> Self {
        CallRequest {
            frame: command.to_json(),
            request_id,
            matcher: ResponseMatch::Reply(command.type_str()),
            purpose,
            timeout_ms: None,
        }
    }

    /// The request answered within `timeout_ms` instead of the request timeout.
    fn within(self, timeout_ms: Option<u64>) -> Self {
        CallRequest { timeout_ms, ..self }
    }
}

impl SessionCore {
    /// `send(message, {otid})`: writes the `input` frame and tracks the turn. `content_json` is
    /// the message (a string or an array of content parts), passed to the wire unchanged.
    pub fn send(
        &mut self,
        content_json: &str,
        otid: Option<&str>,
        now: u64,
    ) -> Result<(), SessionError> {
        self.send_input(content_json, otid, None, now)
    }

    /// [`Self::send`] with the `response_format` the input carries (JSON text; structured
    /// output in native mode, chosen by the wrapper). A format that is not JSON is left out.
    pub fn send_input(
        &mut self,
        content_json: &str,
        otid: Option<&str>,
        response_format: Option<&str>,
        now: u64,
    ) -> Result<(), SessionError> {
        let runtime = self.ready_runtime()?;
        let outgoing = self.inputs.outgoing(content_json, otid, now)?;
        let request_id = self.ids.next("input");
        if let Some(c) = self.coordinator.as_mut() {
            outgoing.track(c, now, &request_id);
        }
        let frame = outgoing.command(&request_id, runtime, &self.config.options, response_format);
        self.write_input(request_id, frame, now);
        Ok(())
    }

    /// `abort()`: marks the active turn abort-requested and sends `abort_message`. A no-op
    /// (settled at once) when the session never started or is closed.
    pub fn abort(&mut self, call: CallId, now: u64) {
        let Ok(runtime) = self.ready_runtime() else {
            return self.complete(call, Ok(String::from("null")));
        };
        if let Some(c) = self.coordinator.as_mut() {
            c.request_abort();
        }
        let request_id = self.ids.next("abort");
        let command = Command::AbortMessage(RuntimeRequest {
            request_id: request_id.clone(),
            runtime,
        });
        let request = CallRequest::reply(&command, request_id, Purpose::Call(call, Shape::Abort));
        self.issue(call, Ok(request), now);
    }

    /// Carries a call's decision out: writes its request and registers what answers it, or
    /// settles the call with the error its arguments gave.
    fn issue(&mut self, call: CallId, decision: Result<CallRequest, SessionError>, now: u64) {
        match decision {
            Ok(r) => self.send_request(
                r.frame,
                r.request_id,
                r.matcher,
                r.purpose,
                r.timeout_ms,
                now,
            ),
            Err(error) => self.complete(call, Err(error)),
        }
    }

    /// The running session's runtime; without one, settles `call` with the reason.
    fn runtime_for(&mut self, call: CallId) -> Option<Runtime> {
        match self.ready_runtime() {
            Ok(runtime) => Some(runtime),
            Err(error) => {
                self.complete(call, Err(error));
                None
            }
        }
    }

    /// [`SessionCore::open_for_calls`], settling `call` with the error when it is not.
    fn open_for(&mut self, call: CallId) -> bool {
        match self.open_for_calls() {
            Ok(()) => true,
            Err(error) => {
                self.complete(call, Err(error));
                false
            }
        }
    }

    /// Calls that only need an open connection (management calls, raw commands, listings).
    fn open_for_calls(&self) -> Result<(), SessionError> {
        if self.is_closed() {
            return Err(SessionError::session_closed());
        }
        if !self.startup.is_ready() {
            return Err(SessionError::state("Session is not initialized"));
        }
        Ok(())
    }
}

/// `timeoutMs` of a call's options: absent → `None` (the request timeout), else a positive integer.
fn timeout_option(options: &Object<'_>) -> Result<Option<u64>, SessionError> {
    positive_integer(options.get("timeoutMs"))
        .map_err(|_| SessionError::invalid("Invalid timeoutMs. Expected a positive integer."))
}

/// A call's options object (`{}` when absent or not an object).
fn options_of(options_json: &str) -> Object<'_> {
    Object::parse(options_json).unwrap_or_default()
}

mod commands;
mod input;
mod runtime_calls;
