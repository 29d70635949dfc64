//! Runtime resolution at session start (spec §4.3) as a sans-IO machine: the conversation's
//! agent, the session's repository resources (attach, wait until visible, one recompile), the
//! new conversation, and the resulting runtime. The connection (computer or managed sandbox)
//! comes after, from [`super::selector`] or [`super::sandbox`].
//!
//! One request is outstanding at a time: [`Step::Send`] is answered with
//! [`RuntimeResolver::on_reply`]; [`Step::WaitUntil`] with [`RuntimeResolver::on_wake`].

use super::error::{CloudError, CloudResult};
use super::http::{HttpRequest, RequestBuilder};
use super::rest;
use super::sandbox::Reply;
use crate::protocol::commands_start::RuntimeStart;
use crate::protocol::Runtime;

/// Poll interval while an attached repository is not yet listed.
pub const ATTACH_POLL_MS: u64 = 250;
/// How long an attached repository may take to become visible.
pub const ATTACH_TIMEOUT_MS: u64 = 10_000;

/// Which conversation the session runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conversation {
    /// `createSession()`: a new one, created over REST.
    New,
    /// `resumeSession(agentId)`: the agent's `"default"` conversation.
    Default,
    /// `resumeSession(conv-…)` or agent-free `query()`: this one.
    Existing(String),
}

/// A `{type: "repository", repositoryId, recompile?}` session resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepositoryResource {
    /// The repository.
    pub repository_id: String,
    /// `recompile !== false`.
    pub recompile: bool,
}

/// The resolved runtime and what the session must undo on close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The runtime scope of every frame.
    pub runtime: Runtime,
    /// Repositories this session attached (detached again on close).
    pub attached: Vec<String>,
    /// Whether detaching them needs a recompile (one of them did not opt out).
    pub recompile_on_detach: bool,
}

/// What the driver must do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Perform the request and call [`RuntimeResolver::on_reply`].
    Send(HttpRequest),
    /// Call [`RuntimeResolver::on_wake`] at this time.
    WaitUntil(u64),
    /// Resolution finished.
    Done(Resolved),
    /// Resolution failed (after detaching what it attached).
    Failed(CloudError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    RetrieveConversation,
    ListRepositories,
    Attach(usize),
    Poll { index: usize, deadline: u64 },
    CreateConversation,
    Recompile,
    Detach { error: CloudError },
    Finished,
}

/// Resolves one session's runtime.
#[derive(Debug, Clone)]
pub struct RuntimeResolver {
    rb: RequestBuilder,
    agent_id: Option<String>,
    conversation: Conversation,
    resources: Vec<RepositoryResource>,
    /// Resources not yet attached, after the initial list.
    pending: Vec<String>,
    attached: Vec<String>,
    conversation_id: Option<String>,
    phase: Phase,
}

impl RuntimeResolver {
    /// A resolver for `conversation` of `agent_id`.
    pub fn new(
        rb: RequestBuilder,
        agent_id: &str,
        conversation: Conversation,
        resources: Vec<RepositoryResource>,
    ) -> Self {
        let mut resolver = Self::for_conversation(rb, "", resources);
        resolver.agent_id = Some(agent_id.to_owned());
        resolver.conversation = conversation;
        resolver
    }

    /// A resolver for an existing conversation whose agent is read first
    /// (`GET /v1/conversations/<id>`).
    pub fn for_conversation(
        rb: RequestBuilder,
        conversation_id: &str,
        resources: Vec<RepositoryResource>,
    ) -> Self {
        RuntimeResolver {
            rb,
            agent_id: None,
            conversation: Conversation::Existing(conversation_id.to_owned()),
            resources,
            pending: Vec::new(),
            attached: Vec::new(),
            conversation_id: None,
            phase: Phase::Finished,
        }
    }

    /// Agent-free: the runtime is `{agent_id: null, conversation_id}`, no request needed.
    pub fn agent_free(conversation_id: &str) -> Step {
        Step::Done(Resolved {
            runtime: Runtime::agent_free(conversation_id),
            attached: Vec::new(),
            recompile_on_detach: false,
        })
    }

    /// The first step.
    pub fn start(&mut self, now: u64) -> Step {
        match (&self.agent_id, &self.conversation) {
            (None, Conversation::Existing(id)) => {
                self.phase = Phase::RetrieveConversation;
                Step::Send(rest::retrieve_conversation(&self.rb, id))
            }
            _ => self.after_agent(now),
        }
    }

    fn agent(&self) -> &str {
        self.agent_id.as_deref().unwrap_or_default()
    }

    fn after_agent(&mut self, now: u64) -> Step {
        if self.resources.is_empty() {
            return self.create_conversation(now);
        }
        self.phase = Phase::ListRepositories;
        Step::Send(rest::list_agent_repositories(&self.rb, self.agent()))
    }

    fn attach_next(&mut self, now: u64) -> Step {
        let index = self.attached.len();
        match self.pending.get(index) {
            Some(id) => {
                self.phase = Phase::Attach(index);
                Step::Send(rest::attach_agent_repository(
                    &self.rb,
                    self.agent(),
                    id,
                    None,
                ))
            }
            None => self.create_conversation(now),
        }
    }

    fn create_conversation(&mut self, now: u64) -> Step {
        match &self.conversation {
            Conversation::New => {
                self.phase = Phase::CreateConversation;
                Step::Send(rest::create_conversation(&self.rb, self.agent()))
            }
            Conversation::Default => {
                self.conversation_id = Some("default".to_owned());
                self.recompile(now)
            }
            Conversation::Existing(id) => {
                self.conversation_id = Some(id.clone());
                self.recompile(now)
            }
        }
    }

    fn recompile(&mut self, _now: u64) -> Step {
        let conversation_id = self.conversation_id.clone().unwrap_or_default();
        if self.resources.iter().any(|r| r.recompile) {
            self.phase = Phase::Recompile;
            return Step::Send(rest::recompile(&self.rb, self.agent(), &conversation_id));
        }
        self.done()
    }

    fn done(&mut self) -> Step {
        self.phase = Phase::Finished;
        let attached = std::mem::take(&mut self.attached);
        let recompile_on_detach = self
            .resources
            .iter()
            .any(|r| r.recompile && attached.contains(&r.repository_id));
        Step::Done(Resolved {
            runtime: Runtime::new(
                self.agent(),
                self.conversation_id.clone().unwrap_or_default(),
            ),
            attached,
            recompile_on_detach,
        })
    }

    /// Fails, detaching (one by one, errors ignored) what this session attached.
    fn fail(&mut self, error: CloudError) -> Step {
        match self.attached.pop() {
            Some(id) => {
                let request = rest::detach_agent_repository(&self.rb, self.agent(), &id);
                self.phase = Phase::Detach { error };
                Step::Send(request)
            }
            None => {
                self.phase = Phase::Finished;
                Step::Failed(error)
            }
        }
    }

    /// The reply to the last [`Step::Send`].
    pub fn on_reply(&mut self, reply: Reply<'_>, now: u64) -> Step {
        let phase = std::mem::replace(&mut self.phase, Phase::Finished);
        let result: CloudResult<Step> = match phase {
            Phase::RetrieveConversation => {
                let Conversation::Existing(id) = self.conversation.clone() else {
                    return Step::Failed(CloudError::invalid("No conversation to retrieve."));
                };
                reply
                    .and_then(|r| rest::parse_conversation_agent(r, &id))
                    .map(|agent| {
                        self.agent_id = Some(agent);
                        self.after_agent(now)
                    })
            }
            Phase::ListRepositories => reply.and_then(rest::parse_agent_repositories).map(|list| {
                let mut seen = std::collections::HashSet::new();
                self.pending = self
                    .resources
                    .iter()
                    .map(|r| r.repository_id.clone())
                    .filter(|id| !list.iter().any(|linked| linked.id == *id))
                    .filter(|id| seen.insert(id.clone()))
                    .collect();
                self.attach_next(now)
            }),
            Phase::Attach(index) => reply.and_then(rest::parse_attached_repository).map(|_| {
                self.attached.push(self.pending[index].clone());
                self.phase = Phase::Poll {
                    index,
                    deadline: now + ATTACH_TIMEOUT_MS,
                };
                Step::Send(rest::list_agent_repositories(&self.rb, self.agent()))
            }),
            Phase::Poll { index, deadline } => reply
                .and_then(rest::parse_agent_repositories)
                .and_then(|list| {
                    let id = &self.pending[index];
                    if list.iter().any(|r| r.id == *id) {
                        Ok(self.attach_next(now))
                    } else if now >= deadline {
                        Err(CloudError::connection(format!(
                            "Cloud attach agent repository did not become visible for {}: {id}",
                            self.agent()
                        )))
                    } else {
                        self.phase = Phase::Poll { index, deadline };
                        Ok(Step::WaitUntil((now + ATTACH_POLL_MS).min(deadline)))
                    }
                }),
            Phase::CreateConversation => {
                reply.and_then(rest::parse_created_conversation).map(|id| {
                    self.conversation_id = Some(id);
                    self.recompile(now)
                })
            }
            Phase::Recompile => reply.and_then(|r| r.ok().map(|_| ())).map(|()| self.done()),
            Phase::Detach { error } => return self.fail(error),
            Phase::Finished => {
                return Step::Failed(CloudError::invalid("Runtime resolution already finished."))
            }
        };
        match result {
            Ok(step) => step,
            Err(error) => self.fail(error),
        }
    }

    /// The session closed while the resolver waits to poll: it stops, detaching (one by one)
    /// what it attached. Only between a [`Step::WaitUntil`] and its wake.
    pub fn cancel(&mut self) -> Step {
        self.fail(CloudError::session_closed())
    }

    /// The timer of a [`Step::WaitUntil`]: poll the repository list again.
    pub fn on_wake(&mut self, _now: u64) -> Option<Step> {
        matches!(self.phase, Phase::Poll { .. })
            .then(|| Step::Send(rest::list_agent_repositories(&self.rb, self.agent())))
    }
}

/// What a session's close sends for its resources: one detach per attached repository, then a
/// recompile when one of them required it (the caller swallows their errors).
pub fn detach_requests(rb: &RequestBuilder, resolved: &Resolved) -> Vec<HttpRequest> {
    let agent = resolved.runtime.agent_id.as_deref().unwrap_or_default();
    let mut requests: Vec<HttpRequest> = resolved
        .attached
        .iter()
        .map(|id| rest::detach_agent_repository(rb, agent, id))
        .collect();
    if resolved.recompile_on_detach && !requests.is_empty() {
        requests.push(rest::recompile(
            rb,
            agent,
            &resolved.runtime.conversation_id,
        ));
    }
    requests
}

/// The Cloud `runtime_start` (spec §4.6): the resolved runtime and the always-present fields,
/// never a create field (conversations are created over REST). The caller adds `cwd`,
/// `stateless`, `skill_sources` and `external_tools` as for the remote backend; right after
/// the response the session sends the un-correlated [`super::status_sockets::sync_frame`].
pub fn runtime_start(request_id: &str, mode: &str, runtime: &Runtime) -> RuntimeStart {
    let mut start = RuntimeStart::new(request_id, mode);
    start.agent_id = runtime.agent_id.clone();
    start.conversation_id = Some(runtime.conversation_id.clone());
    start
}

#[cfg(test)]
#[path = "tests_start.rs"]
mod tests;
