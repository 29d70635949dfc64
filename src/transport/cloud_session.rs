//! The start and lifecycle of one Cloud session (feature `cloud`, spec §4.3–§4.6, §3.11): the
//! runtime resolved over REST (`cloud::start::RuntimeResolver`, or the agent-free
//! conversation), then the connection — an explicit computer (`cloud::selector`) or a managed
//! sandbox (`cloud::sandbox::SandboxLifecycle`, run by [`SandboxRunner`]) — then the relay pair
//! ([`RelayLink`]) handed to the session driver, which starts the session on it. Up to
//! [`OPEN_ATTEMPTS`] opens, re-resolving the connection in between; an idle drop reopens the
//! same way on the next turn.
//!
//! The pure machines decide; this module only performs their requests with [`Fetch`], sleeps
//! and waits on sockets.

use super::driver::Driver;
use super::fetch::{Fetch, Response};
use super::relay_link::RelayLink;
use super::timer::{now, sleep, Timer};
use crate::cloud::config::CloudConfig;
use crate::cloud::error::{CloudError, CloudResult};
use crate::cloud::http::{HttpRequest, RequestBuilder};
use crate::cloud::relay::{self, OpenFailure, OPEN_ATTEMPTS};
use crate::cloud::rest::{self, EphemeralConversationBody};
use crate::cloud::sandbox::{Effect, Reply, SandboxLifecycle};
use crate::cloud::selector::{self, ComputerSelector, Resolution};
use crate::cloud::start::{
    self, Conversation, RepositoryResource, Resolved, RuntimeResolver, Step,
};
use crate::cloud::target::{session_target, SessionTarget};
use crate::protocol::Runtime;
use js_sys::{Function, Promise};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn warn(line: &str);
}

/// Which conversation the session runs in, as the wrapper's session target says.
#[derive(Debug, Clone)]
enum Plan {
    /// `createSession` / `resumeSession`: through the [`RuntimeResolver`].
    Agent {
        agent_id: Option<String>,
        conversation: Conversation,
    },
    /// `query()` resuming an agent-free conversation.
    AgentFreeExisting(String),
    /// `query()` creating one (`POST /v1/conversations/ephemeral`).
    AgentFreeNew(EphemeralConversationBody),
}

/// Where the session's connection comes from, once resolved.
enum Placement {
    Computer(ComputerSelector),
    Sandbox(Rc<SandboxRunner>),
}

/// One Cloud session's REST side and its relay opens.
pub struct CloudConnector {
    config: CloudConfig,
    fetch: Fetch,
    plan: Plan,
    resources: Vec<RepositoryResource>,
    target: SessionTarget,
    resolved: RefCell<Option<Resolved>>,
    placement: RefCell<Option<Rc<Placement>>>,
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn reply(response: &CloudResult<Response>) -> Reply<'_> {
    response
        .as_ref()
        .map(Response::as_http)
        .map_err(Clone::clone)
}

impl CloudConnector {
    /// Reads the wrapper's session config (`{target, cloud: {action, computer?, environment?,
    /// sandbox?, resources?}}`, JSON) and decides the target; validation errors are typed.
    pub fn new(config: CloudConfig, fetch: Fetch, session: &str) -> CloudResult<CloudConnector> {
        let invalid = || CloudError::invalid("Invalid session configuration.");
        let session: Value = serde_json::from_str(session).map_err(|_| invalid())?;
        let target = session.get("target").ok_or_else(invalid)?;
        let cloud = session.get("cloud").cloned().unwrap_or(Value::Null);
        let action = text(&cloud, "action").unwrap_or_else(|| "createSession".to_owned());
        let plan = match target.get("kind").and_then(Value::as_str) {
            Some("newConversation") => Plan::Agent {
                agent_id: text(target, "agentId"),
                conversation: Conversation::New,
            },
            Some("resumeAgent") => Plan::Agent {
                agent_id: text(target, "agentId"),
                conversation: Conversation::Default,
            },
            Some("resumeConversation") => Plan::Agent {
                agent_id: None,
                conversation: Conversation::Existing(
                    text(target, "conversationId").ok_or_else(invalid)?,
                ),
            },
            Some("agentFree") => match (text(target, "conversationId"), target.get("body")) {
                (Some(id), _) => Plan::AgentFreeExisting(id),
                (None, Some(body)) => Plan::AgentFreeNew(EphemeralConversationBody {
                    model: text(body, "model").unwrap_or_default(),
                    system: text(body, "system").unwrap_or_default(),
                    model_settings: body
                        .get("model_settings")
                        .filter(|v| v.is_object())
                        .cloned(),
                    context_window_limit: body.get("context_window_limit").and_then(Value::as_u64),
                }),
                (None, None) => return Err(invalid()),
            },
            _ => {
                return Err(CloudError::invalid(
                    "This session kind is not available with backend: \"cloud\".",
                ))
            }
        };
        let agent_free = matches!(plan, Plan::AgentFreeExisting(_) | Plan::AgentFreeNew(_));
        let target = session_target(&config.default_target, &cloud, &action, agent_free)?;
        let resources = read_resources(cloud.get("resources"))?;
        Ok(CloudConnector {
            config,
            fetch,
            plan,
            resources,
            target,
            resolved: RefCell::new(None),
            placement: RefCell::new(None),
        })
    }

    /// The client's request timeout (Cloud default 120 000 ms).
    pub fn request_timeout_ms(&self) -> u64 {
        self.config.request_timeout_ms
    }

    fn rb(&self) -> RequestBuilder {
        RequestBuilder::new(&self.config)
    }

    async fn send(&self, request: &HttpRequest) -> CloudResult<Response> {
        self.fetch.send(request, None).await
    }

    /// Opens the session's relay pair and hands it to `driver` (which then starts the session):
    /// the first time after resolving the runtime and the connection, after an idle drop after
    /// re-resolving the connection. Errors are typed; none contains a URL or the key.
    pub async fn connect(&self, driver: &Driver, web_socket: Option<&Function>) -> CloudResult<()> {
        let first = self.resolved.borrow().is_none();
        if first {
            let resolved = self.resolve_runtime().await?;
            driver.with_core(|core| core.set_cloud_runtime(resolved.runtime.clone()));
            *self.resolved.borrow_mut() = Some(resolved);
        }
        let runtime = self.runtime();
        for attempt in 1..=OPEN_ATTEMPTS {
            let connection_id = self.connection(first && attempt == 1).await?;
            let endpoints = relay::endpoints(&self.config, &connection_id, &runtime)?;
            let opened = match RelayLink::open(
                &endpoints,
                runtime.clone(),
                self.config.ping_interval_ms,
                web_socket,
                self.config.api_key.as_deref(),
            ) {
                Ok(link) => link.wait_open().await.map(|()| link),
                Err(detail) => Err(detail),
            };
            match opened {
                Ok(link) => {
                    driver.attach_relay(link);
                    return Ok(());
                }
                Err(detail) => {
                    warn(&relay::open_failed_log(attempt, &connection_id, &detail));
                    if let OpenFailure::Fail(error) =
                        relay::open_failed(attempt, &connection_id, &detail)
                    {
                        return Err(error);
                    }
                }
            }
        }
        Err(CloudError::connection(
            "Cloud status WebSocket failed to open",
        ))
    }

    fn runtime(&self) -> Runtime {
        self.resolved
            .borrow()
            .as_ref()
            .map(|r| r.runtime.clone())
            .unwrap_or_else(|| Runtime::agent_free(""))
    }

    async fn resolve_runtime(&self) -> CloudResult<Resolved> {
        let (agent_id, conversation) = match &self.plan {
            Plan::AgentFreeExisting(id) => return done(RuntimeResolver::agent_free(id)),
            Plan::AgentFreeNew(body) => {
                let request = rest::create_ephemeral_conversation(&self.rb(), body);
                let response = self.send(&request).await?;
                let id = rest::parse_ephemeral_conversation(response.as_http())?;
                return done(RuntimeResolver::agent_free(&id));
            }
            Plan::Agent {
                agent_id,
                conversation,
            } => (agent_id.clone(), conversation.clone()),
        };
        let mut resolver = RuntimeResolver::new(
            self.rb(),
            agent_id.as_deref(),
            conversation,
            self.resources.clone(),
        );
        let mut step = resolver.start(now());
        loop {
            step = match step {
                Step::Send(request) => {
                    let response = self.send(&request).await;
                    resolver.on_reply(reply(&response), now())
                }
                Step::WaitUntil(at) => {
                    sleep(at.saturating_sub(now()) as f64).await;
                    resolver.on_wake(now()).unwrap_or_else(|| {
                        Step::Failed(CloudError::invalid("Runtime resolution stalled."))
                    })
                }
                Step::Done(resolved) => return Ok(resolved),
                Step::Failed(error) => return Err(error),
            }
        }
    }

    /// The connection id: the first acquisition, or a re-resolution (sandbox refresh and wait,
    /// the computer looked up again).
    async fn connection(&self, first: bool) -> CloudResult<String> {
        let placement = self.placement.borrow().clone();
        let placement = match placement {
            Some(placement) => placement,
            None => {
                let runtime = self.runtime();
                let placement = Rc::new(match &self.target {
                    SessionTarget::Computer(selector) => Placement::Computer(selector.clone()),
                    SessionTarget::ManagedSandbox(options) => {
                        Placement::Sandbox(SandboxRunner::new(
                            self.fetch.clone(),
                            SandboxLifecycle::new(
                                self.rb(),
                                runtime.agent_id.as_deref().unwrap_or_default(),
                                &runtime.conversation_id,
                                options.clone(),
                            ),
                        ))
                    }
                });
                *self.placement.borrow_mut() = Some(placement.clone());
                placement
            }
        };
        match &*placement {
            Placement::Computer(selector) => match selector::resolve(&self.rb(), selector) {
                Resolution::Done(resolved) => Ok(resolved.connection_id),
                Resolution::Fetch(request) => {
                    let response = self.send(&request).await?;
                    selector::resolve_response(selector, response.as_http())
                        .map(|r| r.connection_id)
                }
            },
            Placement::Sandbox(runner) => {
                let effects = if first {
                    runner.machine.borrow_mut().start()
                } else {
                    runner.machine.borrow_mut().reacquire()
                };
                runner.online(effects).await
            }
        }
    }

    /// `beforeTurn`: a managed sandbox is refreshed before any input is written (a 404 →
    /// `CloudManagedSandboxExpiredError`); an explicit computer needs nothing.
    pub async fn before_turn(&self) -> CloudResult<()> {
        let placement = self.placement.borrow().clone();
        match placement.as_deref() {
            Some(Placement::Sandbox(runner)) => {
                let effects = runner.machine.borrow_mut().before_turn();
                runner.refreshed(effects).await
            }
            _ => Ok(()),
        }
    }

    /// Close: the sandbox's timer stops, an in-flight refresh is waited for, the sandbox is
    /// terminated with `terminateOnClose`; the session's repositories are detached. Errors are
    /// swallowed.
    pub async fn close(&self) {
        let placement = self.placement.borrow_mut().take();
        if let Some(Placement::Sandbox(runner)) = placement.as_deref() {
            let effects = runner.machine.borrow_mut().close();
            runner.closed(effects).await;
        }
        let resolved = self.resolved.borrow().clone();
        if let Some(resolved) = resolved {
            for request in start::detach_requests(&self.rb(), &resolved) {
                let _ = self.send(&request).await;
            }
        }
    }
}

fn done(step: Step) -> CloudResult<Resolved> {
    match step {
        Step::Done(resolved) => Ok(resolved),
        Step::Failed(error) => Err(error),
        _ => Err(CloudError::invalid("Runtime resolution stalled.")),
    }
}

/// `resources`: `[{type: "repository", repositoryId, recompile?}]`.
fn read_resources(value: Option<&Value>) -> CloudResult<Vec<RepositoryResource>> {
    let Some(list) = value.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let invalid = |i: usize| {
        CloudError::invalid(format!(
            "Invalid resources[{i}]. Expected {{type: \"repository\", repositoryId}}."
        ))
    };
    let list = list
        .as_array()
        .ok_or_else(|| CloudError::invalid("Invalid resources. Expected an array."))?;
    list.iter()
        .enumerate()
        .map(|(i, r)| {
            let id = r
                .get("repositoryId")
                .and_then(Value::as_str)
                .filter(|id| !id.trim().is_empty() && r.get("type") == Some(&"repository".into()))
                .ok_or_else(|| invalid(i))?;
            Ok(RepositoryResource {
                repository_id: id.to_owned(),
                recompile: r.get("recompile") != Some(&Value::Bool(false)),
            })
        })
        .collect()
}

/// Callers waiting for one kind of sandbox outcome: each gets its own copy.
type Waiters<T> = RefCell<Vec<(Rc<RefCell<Option<T>>>, Function)>>;

/// Runs one [`SandboxLifecycle`]: performs its requests, wakes it at its deadline, and hands
/// its outcomes to the callers waiting for them.
pub struct SandboxRunner {
    machine: RefCell<SandboxLifecycle>,
    fetch: Fetch,
    timer: RefCell<Option<Timer>>,
    online: Waiters<CloudResult<String>>,
    refreshed: Waiters<CloudResult<()>>,
    closed: Waiters<()>,
}

/// Registers a waiter on `list` and awaits its outcome (`None` if it never came).
fn register<T>(list: &Waiters<T>) -> impl std::future::Future<Output = Option<T>> {
    let slot = Rc::new(RefCell::new(None));
    let mut resolve = None;
    let promise = Promise::new(&mut |r, _| resolve = Some(r));
    if let Some(resolve) = resolve {
        list.borrow_mut().push((slot.clone(), resolve));
    }
    async move {
        let _ = JsFuture::from(promise).await;
        slot.borrow_mut().take()
    }
}

fn settle<T: Clone>(list: &Waiters<T>, value: T) {
    let waiters: Vec<_> = list.borrow_mut().drain(..).collect();
    for (slot, resolve) in waiters {
        *slot.borrow_mut() = Some(value.clone());
        let _ = resolve.call0(&JsValue::NULL);
    }
}

impl SandboxRunner {
    fn new(fetch: Fetch, machine: SandboxLifecycle) -> Rc<SandboxRunner> {
        Rc::new(SandboxRunner {
            machine: RefCell::new(machine),
            fetch,
            timer: RefCell::new(None),
            online: RefCell::default(),
            refreshed: RefCell::default(),
            closed: RefCell::default(),
        })
    }

    async fn online(self: &Rc<Self>, effects: Vec<Effect>) -> CloudResult<String> {
        let wait = register(&self.online);
        self.run(effects);
        wait.await.unwrap_or_else(|| {
            Err(CloudError::connection(
                "Cloud managed sandbox is not available.",
            ))
        })
    }

    async fn refreshed(self: &Rc<Self>, effects: Vec<Effect>) -> CloudResult<()> {
        let wait = register(&self.refreshed);
        self.run(effects);
        wait.await.unwrap_or_else(|| {
            Err(CloudError::connection(
                "Cloud managed sandbox is not available.",
            ))
        })
    }

    async fn closed(self: &Rc<Self>, effects: Vec<Effect>) {
        if effects.is_empty() && !self.machine.borrow().refresh_in_flight() {
            return;
        }
        let wait = register(&self.closed);
        self.run(effects);
        wait.await;
        self.timer.borrow_mut().take();
    }

    /// Executes the machine's effects (requests in the background), then re-arms the timer.
    fn run(self: &Rc<Self>, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Send { call, request } => {
                    let this = self.clone();
                    spawn_local(async move {
                        let response = this.fetch.send(&request, None).await;
                        let effects =
                            this.machine
                                .borrow_mut()
                                .on_reply(call, reply(&response), now());
                        this.run(effects);
                    });
                }
                Effect::Online { connection_id } => settle(&self.online, Ok(connection_id)),
                Effect::AcquireFailed(error) => settle(&self.online, Err(error)),
                Effect::Refreshed(outcome) => settle(&self.refreshed, outcome),
                Effect::Closed => settle(&self.closed, ()),
            }
        }
        self.arm();
    }

    fn arm(self: &Rc<Self>) {
        let deadline = self.machine.borrow().deadline();
        let mut timer = self.timer.borrow_mut();
        let Some(at) = deadline else {
            if let Some(timer) = timer.as_mut() {
                timer.clear();
            }
            return;
        };
        let timer = timer.get_or_insert_with(|| {
            let weak = Rc::downgrade(self);
            Timer::new(move || {
                if let Some(this) = weak.upgrade() {
                    if let Some(timer) = this.timer.borrow_mut().as_mut() {
                        timer.fired();
                    }
                    let effects = this.machine.borrow_mut().on_wake(now());
                    this.run(effects);
                }
            })
        });
        timer.arm(at.saturating_sub(now()) as f64);
    }
}
