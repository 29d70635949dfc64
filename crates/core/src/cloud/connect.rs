//! One Cloud session's connection as a sans-IO machine (spec §4.3–§4.6), as its checked
//! [`SessionPlan`] says: the runtime resolved over REST ([`RuntimeResolver`], or the agent-free
//! conversation), then the connection (an explicit computer through [`selector`], or a managed
//! sandbox, [`SandboxLifecycle`]), then the status sockets opened on it: up to
//! [`OPEN_ATTEMPTS`] opens, re-resolving the connection in between. An idle drop reopens the
//! same way on the next `connect`. It also answers the sandbox refresh before each turn and
//! file transfer, and releases what the session made at close (the sandbox closed, the
//! repositories it attached detached again).
//!
//! It is the same kind of machine as [`crate::session::SessionCore`], and the session driver
//! pumps both in one loop: requests and socket opens go out as [`ConnectEffect`]s, replies,
//! socket outcomes and `now` come in, and [`CloudConnect::deadline`] says when to wake it.
//! Calls (`connect`, `beforeTurn`, a transfer) carry the caller's [`CallId`] and are settled
//! by an effect naming it.

use super::config::CloudConfig;
use super::error::{CloudError, CloudResult};
use super::files;
use super::http::{HttpRequest, RequestBuilder};
use super::rest;
use super::sandbox::{self, Reply, SandboxLifecycle};
use super::selector::{self, ComputerSelector, Resolution};
use super::session_plan::{ConversationPlan, SessionPlan};
use super::start::{self, Resolved, RuntimeResolver, Step};
use super::status_sockets::{self, OpenFailure, StatusEndpoints};
use super::target::SessionTarget;
use crate::protocol::Runtime;
use std::collections::VecDeque;

pub use super::status_sockets::OPEN_ATTEMPTS;

/// The caller's number for a call the machine settles.
pub type CallId = u32;

/// What the driver must do.
#[derive(Debug, Clone, PartialEq)]
pub enum ConnectEffect {
    /// Perform the request; hand its reply to [`CloudConnect::on_reply`] with `id`.
    Fetch {
        /// The request's number.
        id: u32,
        /// The request.
        request: HttpRequest,
    },
    /// The runtime is resolved: every frame of the session is scoped to it.
    Runtime(Runtime),
    /// Open the status sockets; report with [`CloudConnect::on_opened`] or
    /// [`CloudConnect::on_open_failed`].
    Open {
        /// Where.
        endpoints: StatusEndpoints,
        /// The runtime whose `sync` the sockets' protocol sends on a gap.
        runtime: Runtime,
    },
    /// A diagnostic line for the console (no URL, no key).
    Warn(String),
    /// `connect` failed: reject `call` with `error` and end the start.
    Failed {
        /// The `connect` call.
        call: CallId,
        /// Why.
        error: CloudError,
    },
    /// Settle `call`: `beforeTurn` with `Ok(None)`, a transfer with the sandbox id.
    Settle {
        /// The call.
        call: CallId,
        /// Its outcome.
        result: CloudResult<Option<String>>,
    },
}

/// Where the session's connection comes from, once chosen.
#[derive(Debug)]
enum Placement {
    Computer(ComputerSelector),
    Sandbox(Box<SandboxLifecycle>),
}

/// What a request in flight is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Resolve,
    AgentFreeConversation,
    Computer,
    Sandbox(sandbox::Call),
    Release,
}

/// Where the connection is.
#[derive(Debug)]
enum Stage {
    /// Not started, or waiting for the next `connect` (after a failure or an idle drop).
    Idle,
    /// Resolving the runtime: the resolver (none while the agent-free conversation is
    /// created) and when it asked to be woken.
    Resolving {
        call: CallId,
        resolver: Option<Box<RuntimeResolver>>,
        wake_at: Option<u64>,
    },
    /// Getting the connection id (computer lookup, sandbox online).
    Placing { call: CallId, attempt: u32 },
    /// The status sockets are opening.
    Opening {
        call: CallId,
        attempt: u32,
        connection_id: String,
    },
    /// The status sockets are open and handed to the session.
    Connected,
}

/// Who waits for the sandbox's next refresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waiter {
    /// `beforeTurn`.
    Turn(CallId),
    /// A file transfer, which needs the sandbox id.
    Transfer(CallId),
}

/// One Cloud session's connection.
#[derive(Debug)]
pub struct CloudConnect {
    config: CloudConfig,
    plan: SessionPlan,
    stage: Stage,
    resolved: Option<Resolved>,
    placement: Option<Placement>,
    waiters: Vec<Waiter>,
    in_flight: Vec<(u32, Purpose)>,
    next_request: u32,
    effects: VecDeque<ConnectEffect>,
    /// Set by [`CloudConnect::close`]: a start still running stops and undoes what it made.
    closed: bool,
    /// The detach requests went out (once, after the sandbox's close).
    detached: bool,
}

impl CloudConnect {
    /// The connection of a session with `plan`, for the client `config`.
    pub fn new(config: CloudConfig, plan: SessionPlan) -> CloudConnect {
        CloudConnect {
            config,
            plan,
            stage: Stage::Idle,
            resolved: None,
            placement: None,
            waiters: Vec::new(),
            in_flight: Vec::new(),
            next_request: 0,
            effects: VecDeque::new(),
            closed: false,
            detached: false,
        }
    }

    /// The next effect to perform.
    pub fn pop_effect(&mut self) -> Option<ConnectEffect> {
        self.effects.pop_front()
    }

    /// When [`CloudConnect::on_wake`] has something to do: a poll of the runtime resolver,
    /// a sandbox poll or its periodic refresh.
    pub fn deadline(&self) -> Option<u64> {
        let resolver = match &self.stage {
            Stage::Resolving { wake_at, .. } => *wake_at,
            _ => None,
        };
        let sandbox = match &self.placement {
            Some(Placement::Sandbox(life)) => life.deadline(),
            _ => None,
        };
        [resolver, sandbox].into_iter().flatten().min()
    }

    /// Starts the connection for the `connect` call `call`: the first time from the runtime's
    /// resolution, after an idle drop from the connection's re-resolution. A call while a
    /// start runs opens nothing: the session's start answers it.
    pub fn connect(&mut self, call: CallId, now: u64) {
        if self.closed {
            return self.fail(call, CloudError::session_closed());
        }
        if !matches!(self.stage, Stage::Idle | Stage::Connected) {
            return;
        }
        if self.resolved.is_some() {
            return self.place(call, 1, false);
        }
        let rb = self.rb();
        let mut resolver = match self.plan.conversation.clone() {
            ConversationPlan::AgentFreeExisting(id) => {
                return self.resolution_step(call, RuntimeResolver::agent_free(&id));
            }
            ConversationPlan::AgentFreeNew(body) => {
                let request = rest::create_ephemeral_conversation(&rb, &body);
                self.stage = Stage::Resolving {
                    call,
                    resolver: None,
                    wake_at: None,
                };
                return self.fetch(Purpose::AgentFreeConversation, request);
            }
            ConversationPlan::Agent {
                agent_id,
                conversation,
            } => RuntimeResolver::new(rb, &agent_id, conversation, self.plan.resources.clone()),
            ConversationPlan::Conversation(id) => {
                RuntimeResolver::for_conversation(rb, &id, self.plan.resources.clone())
            }
        };
        let step = resolver.start(now);
        self.stage = Stage::Resolving {
            call,
            resolver: Some(Box::new(resolver)),
            wake_at: None,
        };
        self.resolution_step(call, step);
    }

    /// `beforeTurn`: a managed sandbox is refreshed before any input is written (a 404 →
    /// `CloudManagedSandboxExpiredError`); an explicit computer needs nothing.
    pub fn before_turn(&mut self, call: CallId) {
        if !self.wait_for_refresh(Waiter::Turn(call)) {
            self.settle(call, Ok(None));
        }
    }

    /// A file transfer (spec §4.8) waits for a refresh, then gets the sandbox's id.
    pub fn transfer(&mut self, call: CallId) {
        if self.wait_for_refresh(Waiter::Transfer(call)) {
            return;
        }
        let error = match self.placement {
            Some(Placement::Computer(_)) => files::computer_error(),
            _ => CloudError::sandbox_unavailable(),
        };
        self.settle(call, Err(error));
    }

    /// The session closed: the sandbox's timer stops, an in-flight refresh is waited for, the
    /// sandbox is terminated with `terminateOnClose`, and the repositories this session
    /// attached are detached (errors swallowed). A start still running stops at its next step.
    pub fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        // A resolver waiting to poll again stops now; one with a request out, at its reply.
        if let Stage::Resolving {
            call,
            resolver: Some(resolver),
            wake_at,
        } = &mut self.stage
        {
            if wake_at.take().is_some() {
                let (call, step) = (*call, resolver.cancel());
                self.resolution_step(call, step);
            }
        }
        self.release();
    }

    /// The reply to the request `id`.
    pub fn on_reply(&mut self, id: u32, reply: Reply<'_>, now: u64) {
        let Some(index) = self.in_flight.iter().position(|(i, _)| *i == id) else {
            return;
        };
        let (_, purpose) = self.in_flight.swap_remove(index);
        match purpose {
            Purpose::Resolve => {
                if let Stage::Resolving {
                    call,
                    resolver: Some(resolver),
                    ..
                } = &mut self.stage
                {
                    let (call, step) = (*call, resolver.on_reply(reply, now));
                    self.resolution_step(call, step);
                }
            }
            Purpose::AgentFreeConversation => {
                if let Stage::Resolving { call, .. } = self.stage {
                    match reply.and_then(rest::parse_ephemeral_conversation) {
                        Ok(id) => self.resolution_step(call, RuntimeResolver::agent_free(&id)),
                        Err(error) => self.fail(call, error),
                    }
                }
            }
            Purpose::Computer => {
                let (Stage::Placing { call, .. }, Some(Placement::Computer(selector))) =
                    (&self.stage, &self.placement)
                else {
                    return;
                };
                let call = *call;
                let resolved = reply.and_then(|r| selector::resolve_response(selector, r));
                match resolved {
                    Ok(resolved) => self.open(resolved.connection_id),
                    Err(error) => self.fail(call, error),
                }
            }
            Purpose::Sandbox(which) => {
                if let Some(Placement::Sandbox(life)) = &mut self.placement {
                    let effects = life.on_reply(which, reply, now);
                    self.sandbox_effects(effects);
                }
            }
            Purpose::Release => {}
        }
    }

    /// The timer: the resolver's next poll, the sandbox's polls and periodic refresh.
    pub fn on_wake(&mut self, now: u64) {
        if let Stage::Resolving {
            call,
            resolver: Some(resolver),
            wake_at,
        } = &mut self.stage
        {
            if wake_at.is_some_and(|at| at <= now) {
                *wake_at = None;
                let step = resolver.on_wake(now).unwrap_or_else(|| {
                    Step::Failed(CloudError::invalid("Runtime resolution stalled."))
                });
                let call = *call;
                self.resolution_step(call, step);
            }
        }
        if let Some(Placement::Sandbox(life)) = &mut self.placement {
            let effects = life.on_wake(now);
            self.sandbox_effects(effects);
        }
    }

    /// Both status sockets are open: `true` hands them to the session; `false` (the session
    /// closed meanwhile) drops them.
    pub fn on_opened(&mut self) -> bool {
        let Stage::Opening { call, .. } = self.stage else {
            return false;
        };
        if self.closed {
            self.fail(call, CloudError::session_closed());
            self.release();
            return false;
        }
        self.stage = Stage::Connected;
        true
    }

    /// The status sockets failed to open (`detail`: redacted): the connection is re-resolved
    /// and the open tried again, up to [`OPEN_ATTEMPTS`].
    pub fn on_open_failed(&mut self, detail: &str) {
        let Stage::Opening {
            call,
            attempt,
            connection_id,
        } = std::mem::replace(&mut self.stage, Stage::Idle)
        else {
            return;
        };
        self.effects
            .push_back(ConnectEffect::Warn(status_sockets::open_failed_log(
                attempt,
                &connection_id,
                detail,
            )));
        match status_sockets::open_failed(attempt, &connection_id, detail) {
            OpenFailure::Fail(error) => self.fail(call, error),
            OpenFailure::Reresolve => self.place(call, attempt + 1, false),
        }
    }
}

mod steps;

#[cfg(test)]
#[path = "tests_connect.rs"]
mod tests;
