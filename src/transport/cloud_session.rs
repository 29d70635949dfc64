//! The start and lifecycle of one Cloud session (spec §4.3–§4.6, §3.11): the
//! runtime resolved over REST (`cloud::start::RuntimeResolver`, or the agent-free
//! conversation), then the connection — an explicit computer (`cloud::selector`) or a managed
//! sandbox (`cloud::sandbox::SandboxLifecycle`, run by [`SandboxRunner`]) — then the status sockets
//! ([`StatusLink`]) handed to the session driver, which starts the session on it. Up to
//! [`OPEN_ATTEMPTS`] opens, re-resolving the connection in between; an idle drop reopens the
//! same way on the next turn.
//!
//! The pure machines decide; this module only performs their requests with [`Fetch`], sleeps
//! and waits on sockets.

use super::cloud_sandbox::SandboxRunner;
use super::driver::Driver;
use super::fetch::{Fetch, Response};
use super::status_link::StatusLink;
use super::timer::{now, sleep};
use crate::cloud::config::CloudConfig;
use crate::cloud::error::{CloudError, CloudResult};
use crate::cloud::files;
use crate::cloud::http::{HttpRequest, RequestBuilder};
use crate::cloud::rest::{self, EphemeralConversationBody};
use crate::cloud::sandbox::{Reply, SandboxLifecycle};
use crate::cloud::selector::{self, ComputerSelector, Resolution};
use crate::cloud::start::{
    self, Conversation, RepositoryResource, Resolved, RuntimeResolver, Step,
};
use crate::cloud::status_sockets::{self, OpenFailure, OPEN_ATTEMPTS};
use crate::cloud::target::{session_target, SessionTarget};
use crate::json::{Object, Value};
use crate::protocol::Runtime;
use js_sys::Function;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn warn(line: &str);
}

/// Which conversation the session runs in, as the wrapper's session target says.
#[derive(Debug, Clone)]
enum Plan {
    /// `createSession` / `resumeSession(agentId)`: through the [`RuntimeResolver`].
    Agent {
        agent_id: String,
        conversation: Conversation,
    },
    /// `resumeSession(conversationId)`: its agent is read first.
    Conversation(String),
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
    /// Set by [`CloudConnector::close`]: a start still running stops and undoes what it made.
    closed: std::cell::Cell<bool>,
}

fn text(value: &Object<'_>, key: &str) -> Option<String> {
    value.get(key).as_str().map(str::to_owned)
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
        let session = Object::parse(session).ok_or_else(invalid)?;
        let target = session.object("target").ok_or_else(invalid)?;
        let cloud = session.get("cloud");
        let no_options = Object::new();
        let cloud_options = cloud.as_object().unwrap_or(&no_options);
        let action = text(cloud_options, "action").unwrap_or_else(|| "createSession".to_owned());
        let agent = || text(target, "agentId").ok_or_else(invalid);
        let plan = match target.get("kind").as_str() {
            Some("newConversation") => Plan::Agent {
                agent_id: agent()?,
                conversation: Conversation::New,
            },
            Some("resumeAgent") => Plan::Agent {
                agent_id: agent()?,
                conversation: Conversation::Default,
            },
            Some("resumeConversation") => {
                Plan::Conversation(text(target, "conversationId").ok_or_else(invalid)?)
            }
            Some("agentFree") => match (text(target, "conversationId"), target.object("body")) {
                (Some(id), _) => Plan::AgentFreeExisting(id),
                (None, Some(body)) => Plan::AgentFreeNew(EphemeralConversationBody {
                    model: text(body, "model").unwrap_or_default(),
                    system: text(body, "system").unwrap_or_default(),
                    model_settings: body
                        .get("model_settings")
                        .as_object()
                        .map(|o| Value::Object(o.to_static())),
                    context_window_limit: body
                        .f64("context_window_limit")
                        .filter(|n| *n >= 0.0 && n.fract() == 0.0)
                        .map(|n| n as u64),
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
        let target = session_target(&config.default_target, cloud, &action, agent_free)?;
        let resources = read_resources(cloud_options.get("resources"))?;
        Ok(CloudConnector {
            config,
            fetch,
            plan,
            resources,
            target,
            resolved: RefCell::new(None),
            placement: RefCell::new(None),
            closed: std::cell::Cell::new(false),
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

    /// Opens the session's status sockets and hands it to `driver` (which then starts the session):
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
            if self.closed.get() {
                // Closed during the start: what the start made (a sandbox) is undone here.
                self.release().await;
                return Err(CloudError::session_closed());
            }
            let endpoints = status_sockets::endpoints(&self.config, &connection_id, &runtime)?;
            let opened = match StatusLink::open(
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
                Ok(link) if self.closed.get() => {
                    drop(link);
                    self.release().await;
                    return Err(CloudError::session_closed());
                }
                Ok(link) => {
                    driver.attach_status_link(link);
                    return Ok(());
                }
                Err(detail) => {
                    warn(&status_sockets::open_failed_log(
                        attempt,
                        &connection_id,
                        &detail,
                    ));
                    if let OpenFailure::Fail(error) =
                        status_sockets::open_failed(attempt, &connection_id, &detail)
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
        let mut resolver = match &self.plan {
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
            } => RuntimeResolver::new(
                self.rb(),
                agent_id,
                conversation.clone(),
                self.resources.clone(),
            ),
            Plan::Conversation(id) => {
                RuntimeResolver::for_conversation(self.rb(), id, self.resources.clone())
            }
        };
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

    /// The managed sandbox's id after a refresh (file transfers refresh first, spec §4.8).
    async fn refreshed_sandbox(&self) -> CloudResult<String> {
        let placement = self.placement.borrow().clone();
        match placement.as_deref() {
            Some(Placement::Sandbox(runner)) => {
                let effects = runner.machine.borrow_mut().before_turn();
                runner.refreshed(effects).await?;
                let machine = runner.machine.borrow();
                let sandbox = machine.sandbox().ok_or_else(files::computer_error)?;
                Ok(sandbox.sandbox_id.clone())
            }
            Some(Placement::Computer(_)) => Err(files::computer_error()),
            None => Err(CloudError::connection(
                "Cloud managed sandbox is not available.",
            )),
        }
    }

    /// `session.sandbox.uploadFiles(files)`: `files` is `[{name, content}]` (content a Blob,
    /// bytes or text); resolves with the validated `{files}` response as JSON text.
    pub async fn upload(&self, list: &JsValue) -> CloudResult<String> {
        let names: Vec<Option<String>> = js_sys::Array::from(list)
            .iter()
            .map(|file| {
                js_sys::Reflect::get(&file, &"name".into())
                    .ok()
                    .and_then(|n| n.as_string())
            })
            .collect();
        let names: Vec<Option<&str>> = names.iter().map(Option::as_deref).collect();
        // The names are checked before any request (refresh included).
        files::upload(&self.rb(), "-", &names)?;
        let sandbox_id = self.refreshed_sandbox().await?;
        let request = files::upload(&self.rb(), &sandbox_id, &names)?;
        let response = self.fetch.send(&request, Some(list)).await?;
        let uploaded = files::parse_upload(response.as_http())?;
        Ok(crate::json::to_string(&uploaded))
    }

    /// `session.sandbox.downloadFile(path)`: the file's bytes.
    pub async fn download(&self, path: &str) -> CloudResult<js_sys::Uint8Array> {
        files::download(&self.rb(), "-", path)?;
        let sandbox_id = self.refreshed_sandbox().await?;
        let request = files::download(&self.rb(), &sandbox_id, path)?;
        let response = self.fetch.send(&request, None).await?;
        files::check_download(response.as_http())?;
        match response.body {
            super::fetch::ResponseBody::Bytes(bytes) => Ok(bytes),
            super::fetch::ResponseBody::Text(text) => Ok(js_sys::Uint8Array::from(text.as_bytes())),
        }
    }

    /// Close: the sandbox's timer stops, an in-flight refresh is waited for, the sandbox is
    /// terminated with `terminateOnClose`; the session's repositories are detached. Errors are
    /// swallowed.
    pub async fn close(&self) {
        self.closed.set(true);
        self.release().await;
    }

    async fn release(&self) {
        let placement = self.placement.borrow_mut().take();
        if let Some(Placement::Sandbox(runner)) = placement.as_deref() {
            let effects = runner.machine.borrow_mut().close();
            runner.closed(effects).await;
        }
        let resolved = self.resolved.borrow_mut().take();
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
fn read_resources(value: &Value<'_>) -> CloudResult<Vec<RepositoryResource>> {
    if value.is_nullish() {
        return Ok(Vec::new());
    }
    let invalid = |i: usize| {
        CloudError::invalid(format!(
            "Invalid resources[{i}]. Expected {{type: \"repository\", repositoryId}}."
        ))
    };
    let list = value
        .as_array()
        .ok_or_else(|| CloudError::invalid("Invalid resources. Expected an array."))?;
    list.iter()
        .enumerate()
        .map(|(i, r)| {
            let r = r.as_object().ok_or_else(|| invalid(i))?;
            let id = r
                .get("repositoryId")
                .as_str()
                .filter(|id| !id.trim().is_empty() && r.get("type").as_str() == Some("repository"))
                .ok_or_else(|| invalid(i))?;
            Ok(RepositoryResource {
                repository_id: id.to_owned(),
                recompile: r.bool("recompile") != Some(false),
            })
        })
        .collect()
}
