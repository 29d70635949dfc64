//! The managed sandbox lifecycle (spec §4.5) as a sans-IO state machine: create; the
//! `conversationId` echo decides the scope; refresh once; poll the environment until online
//! with the retry rules; a single-flight refresh (timer, `beforeTurn`, file transfer); a 404 on
//! a conversation-scoped refresh → `CloudManagedSandboxExpiredError`; close waits for an
//! in-flight refresh and terminates only with `terminateOnClose`.
//!
//! The driver performs each [`Effect::Send`] and feeds the reply to [`SandboxLifecycle::on_reply`]
//! with the call it belongs to; it wakes the machine at [`SandboxLifecycle::deadline`] with
//! [`SandboxLifecycle::on_wake`]. No clock is read here: every entry point takes `now` (ms).

use super::computers::parse_record;
use super::error::{CloudError, CloudResult};
use super::http::{HttpRequest, HttpResponse, RequestBuilder};
use super::sandbox_api::{self as api, CreateSandboxBody};
use super::sandbox_options::SandboxOptions;
use super::selector::offline_error;

/// How the sandbox is addressed after creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The server echoed `conversationId`: refresh and terminate by sandbox id.
    Conversation,
    /// A legacy server (no echo): refresh and terminate through the agent.
    Agent,
}

/// The sandbox the server gave us.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    /// Sandbox id.
    pub sandbox_id: String,
    /// Device id of its environment.
    pub device_id: String,
    /// Its computer name.
    pub connection_name: String,
    /// How it is addressed.
    pub scope: Scope,
}

/// Which request a reply answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `POST /v1/agents/<id>/sandboxes`.
    Create,
    /// A refresh (by sandbox id or by agent).
    Refresh,
    /// `GET /v1/environments/<deviceId>`.
    Poll,
    /// Terminate (by sandbox id or by agent).
    Terminate,
}

/// What the driver must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Perform the request and feed its reply back with `call`.
    Send {
        /// The call.
        call: Call,
        /// The request.
        request: HttpRequest,
    },
    /// The sandbox is online: open the status sockets on this connection.
    Online {
        /// The connection id.
        connection_id: String,
    },
    /// Getting the sandbox online failed (creation, first refresh, polling).
    AcquireFailed(CloudError),
    /// A refresh finished (every refresh reports it, so callers that joined one in flight
    /// always get an answer): what `beforeTurn` callers wait for.
    Refreshed(CloudResult<()>),
    /// Close finished (terminated if asked; errors swallowed).
    Closed,
}

/// A reply: the response, or the error of a request that never got one.
pub type Reply<'a> = Result<HttpResponse<'a>, CloudError>;

#[derive(Debug, Clone, PartialEq)]
struct Acquire {
    deadline: Option<u64>,
    next_poll_at: Option<u64>,
    polling: bool,
}

/// One session's managed sandbox.
#[derive(Debug, Clone)]
pub struct SandboxLifecycle {
    rb: RequestBuilder,
    agent_id: String,
    conversation_id: String,
    options: SandboxOptions,
    sandbox: Option<Sandbox>,
    acquire: Option<Acquire>,
    refresh_in_flight: bool,
    next_refresh_at: Option<u64>,
    expired: Option<CloudError>,
    closing: bool,
    closed: bool,
}

/// Errors worth another poll: the environment is not (yet) there.
fn retryable(error: &CloudError) -> bool {
    let m = &error.message;
    m.contains("Remote environment is offline")
        || m.to_ascii_lowercase().contains("not found")
        || m.contains("(404)")
}

impl SandboxLifecycle {
    /// A lifecycle for `agent_id`'s `conversation_id` (`"default"` for the default one).
    pub fn new(
        rb: RequestBuilder,
        agent_id: &str,
        conversation_id: &str,
        options: SandboxOptions,
    ) -> Self {
        SandboxLifecycle {
            rb,
            agent_id: agent_id.to_owned(),
            conversation_id: conversation_id.to_owned(),
            options,
            sandbox: None,
            acquire: None,
            refresh_in_flight: false,
            next_refresh_at: None,
            expired: None,
            closing: false,
            closed: false,
        }
    }

    /// The sandbox, once created.
    pub fn sandbox(&self) -> Option<&Sandbox> {
        self.sandbox.as_ref()
    }

    /// True while a refresh request is out.
    pub fn refresh_in_flight(&self) -> bool {
        self.refresh_in_flight
    }

    /// Closed: what close had to do is done.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The create request.
    pub fn start(&mut self) -> Vec<Effect> {
        self.acquire = Some(Acquire {
            deadline: None,
            next_poll_at: None,
            polling: false,
        });
        let conversation_id =
            (self.conversation_id != "default").then_some(self.conversation_id.as_str());
        let body = CreateSandboxBody {
            conversation_id,
            github_repositories: &self.options.github_repositories,
        };
        vec![Effect::Send {
            call: Call::Create,
            request: api::create(&self.rb, &self.agent_id, &body),
        }]
    }

    /// Re-resolution (idle recovery, a second socket-open attempt): refresh, then wait until
    /// the environment is online again.
    pub fn reacquire(&mut self) -> Vec<Effect> {
        if let Some(error) = &self.expired {
            return vec![Effect::AcquireFailed(error.clone())];
        }
        self.acquire = Some(Acquire {
            deadline: None,
            next_poll_at: None,
            polling: false,
        });
        self.refresh().into_iter().collect()
    }

    /// `beforeTurn` (and file transfers): refresh before anything is written. An empty result
    /// means a refresh is already in flight: its [`Effect::Refreshed`] answers this caller too.
    /// An expired sandbox fails at once, without a request.
    pub fn before_turn(&mut self) -> Vec<Effect> {
        if let Some(error) = &self.expired {
            return vec![Effect::Refreshed(Err(error.clone()))];
        }
        if self.closing || self.sandbox.is_none() {
            return vec![Effect::Refreshed(Err(CloudError::sandbox_unavailable()))];
        }
        self.refresh().into_iter().collect()
    }

    fn refresh(&mut self) -> Option<Effect> {
        if self.refresh_in_flight {
            return None;
        }
        let sandbox = self.sandbox.as_ref()?;
        self.refresh_in_flight = true;
        let ttl = self.options.ttl_minutes;
        let request = match sandbox.scope {
            Scope::Conversation => api::refresh(&self.rb, &sandbox.sandbox_id, ttl),
            Scope::Agent => api::refresh_by_agent(&self.rb, &self.agent_id, ttl),
        };
        Some(Effect::Send {
            call: Call::Refresh,
            request,
        })
    }

    /// The next time [`SandboxLifecycle::on_wake`] has something to do.
    pub fn deadline(&self) -> Option<u64> {
        let poll = self
            .acquire
            .as_ref()
            .filter(|a| !a.polling)
            .and_then(|a| a.next_poll_at);
        let refresh = self.next_refresh_at.filter(|_| !self.refresh_in_flight);
        [poll, refresh].into_iter().flatten().min()
    }

    /// Timers: the next poll while waiting for the environment, the periodic refresh.
    pub fn on_wake(&mut self, now: u64) -> Vec<Effect> {
        let mut effects = Vec::new();
        if let Some(acquire) = self.acquire.as_mut() {
            if !acquire.polling && acquire.next_poll_at.is_some_and(|at| at <= now) {
                acquire.polling = true;
                acquire.next_poll_at = None;
                effects.extend(self.poll());
            }
        }
        if self.next_refresh_at.is_some_and(|at| at <= now) && !self.refresh_in_flight {
            self.next_refresh_at = None;
            effects.extend(self.refresh());
        }
        effects
    }

    fn poll(&self) -> Option<Effect> {
        let sandbox = self.sandbox.as_ref()?;
        Some(Effect::Send {
            call: Call::Poll,
            request: super::computers::get_request(&self.rb, &sandbox.device_id),
        })
    }

    /// Close: stops the refresh timer, waits for an in-flight refresh, terminates only with
    /// `terminateOnClose` (agent-scoped: after a refresh confirmed the sandbox is still ours).
    pub fn close(&mut self) -> Vec<Effect> {
        if self.closing || self.closed {
            return Vec::new();
        }
        self.closing = true;
        self.next_refresh_at = None;
        self.acquire = None;
        if self.refresh_in_flight {
            return Vec::new();
        }
        self.finish_close(None)
    }

    /// `refreshed`: the outcome of the refresh close waited for, if any. A failed one ends an
    /// agent-scoped close without terminating (ownership unconfirmed; errors are swallowed).
    fn finish_close(&mut self, refreshed: Option<bool>) -> Vec<Effect> {
        let terminate = self.options.terminate_on_close && self.expired.is_none();
        let request = match &self.sandbox {
            Some(s) if terminate && s.scope == Scope::Conversation => {
                Some(api::terminate(&self.rb, &s.sandbox_id))
            }
            Some(_) if refreshed == Some(false) => None,
            Some(_) if terminate && refreshed == Some(true) => {
                Some(api::terminate_by_agent(&self.rb, &self.agent_id))
            }
            // Agent-scoped: first a refresh, which confirms the sandbox is still ours.
            Some(_) if terminate => return self.refresh().into_iter().collect(),
            _ => None,
        };
        match request {
            Some(request) => vec![Effect::Send {
                call: Call::Terminate,
                request,
            }],
            None => self.finished(),
        }
    }

    fn finished(&mut self) -> Vec<Effect> {
        self.closed = true;
        vec![Effect::Closed]
    }

    /// Feeds the reply of `call`.
    pub fn on_reply(&mut self, call: Call, reply: Reply<'_>, now: u64) -> Vec<Effect> {
        match call {
            Call::Create => self.on_created(reply),
            Call::Refresh => self.on_refreshed(reply, now),
            Call::Poll => self.on_polled(reply, now),
            Call::Terminate => {
                if self.closed {
                    Vec::new()
                } else {
                    self.finished()
                }
            }
        }
    }

    fn on_created(&mut self, reply: Reply<'_>) -> Vec<Effect> {
        if self.acquire.is_none() {
            return Vec::new();
        }
        let created = match reply.and_then(api::parse_created) {
            Ok(created) => created,
            Err(error) => return self.acquire_failed(error),
        };
        let expected = (self.conversation_id != "default").then(|| self.conversation_id.clone());
        let scope = match &created.conversation_id {
            None => Scope::Agent,
            Some(echo) if *echo == expected => Scope::Conversation,
            Some(echo) => {
                let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_owned());
                return self.acquire_failed(CloudError::bad_response(format!(
                    "Cloud managed sandbox response conversation mismatch: expected {}, got {}.",
                    shown(&expected),
                    shown(echo)
                )));
            }
        };
        self.sandbox = Some(Sandbox {
            sandbox_id: created.sandbox_id,
            device_id: created.device_id,
            connection_name: created.connection_name,
            scope,
        });
        self.refresh().into_iter().collect()
    }

    fn refresh_outcome(&mut self, reply: Reply<'_>) -> CloudResult<()> {
        let Some(sandbox) = self.sandbox.clone() else {
            return Ok(());
        };
        let response = reply?;
        if response.status == 404 && sandbox.scope == Scope::Conversation {
            let error = CloudError::sandbox_expired(&sandbox.sandbox_id, &self.conversation_id);
            self.expired = Some(error.clone());
            self.next_refresh_at = None;
            return Err(error);
        }
        let refreshed = api::parse_refreshed(response.ok()?)?;
        if sandbox.scope == Scope::Agent
            && refreshed.sandbox_id.as_deref() != Some(sandbox.sandbox_id.as_str())
        {
            let error = CloudError::bad_response(format!(
                "Cloud managed sandbox refresh returned {}, not this session's sandbox {}.",
                refreshed.sandbox_id.as_deref().unwrap_or("no sandbox"),
                sandbox.sandbox_id
            ));
            self.next_refresh_at = None;
            self.expired = Some(error.clone());
            return Err(error);
        }
        Ok(())
    }

    fn on_refreshed(&mut self, reply: Reply<'_>, now: u64) -> Vec<Effect> {
        if !self.refresh_in_flight {
            return Vec::new();
        }
        self.refresh_in_flight = false;
        let outcome = self.refresh_outcome(reply);
        let mut effects = vec![Effect::Refreshed(outcome.clone())];
        if self.closing {
            if !self.closed {
                effects.extend(self.finish_close(Some(outcome.is_ok())));
            }
            return effects;
        }
        if self.expired.is_none() && self.acquire.is_none() {
            self.next_refresh_at = Some(now + self.options.refresh_interval_ms);
        }
        match (self.acquire.as_mut(), outcome) {
            (Some(acquire), Ok(())) => {
                acquire.deadline = Some(now + self.options.ready_timeout_ms);
                acquire.polling = true;
                effects.extend(self.poll());
            }
            (Some(_), Err(error)) => effects.extend(self.acquire_failed(error)),
            (None, _) => {}
        }
        effects
    }

    fn on_polled(&mut self, reply: Reply<'_>, now: u64) -> Vec<Effect> {
        let (Some(acquire), Some(sandbox)) = (self.acquire.as_mut(), self.sandbox.as_ref()) else {
            return Vec::new();
        };
        acquire.polling = false;
        let record = reply.and_then(parse_record).and_then(|record| {
            record
                .connection_id
                .ok_or_else(|| offline_error(&sandbox.connection_name))
        });
        match record {
            Ok(connection_id) => {
                self.acquire = None;
                if self.expired.is_none() {
                    self.next_refresh_at = Some(now + self.options.refresh_interval_ms);
                }
                vec![Effect::Online { connection_id }]
            }
            Err(error) if retryable(&error) => {
                let deadline = acquire.deadline.unwrap_or(now);
                if now >= deadline {
                    let message = format!(
                        "Cloud managed sandbox {} did not come online within {}ms: {}",
                        sandbox.sandbox_id, self.options.ready_timeout_ms, error.message
                    );
                    self.acquire_failed(CloudError::connection(message))
                } else {
                    acquire.next_poll_at =
                        Some((now + self.options.ready_poll_interval_ms).min(deadline));
                    Vec::new()
                }
            }
            Err(error) => self.acquire_failed(error),
        }
    }

    fn acquire_failed(&mut self, error: CloudError) -> Vec<Effect> {
        self.acquire = None;
        vec![Effect::AcquireFailed(error)]
    }
}

#[cfg(test)]
#[path = "tests_sandbox.rs"]
mod tests;
