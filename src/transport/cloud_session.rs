//! The start and lifecycle of one Cloud session (spec §4.3–§4.6, §3.11), as its checked
//! plan (`cloud::session_plan`) says: the runtime resolved over REST (`cloud::start::RuntimeResolver`, or the agent-free
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
use crate::cloud::rest;
use crate::cloud::sandbox::{Reply, SandboxLifecycle};
use crate::cloud::selector::{self, ComputerSelector, Resolution};
use crate::cloud::session_plan::{ConversationPlan, SessionPlan};
use crate::cloud::start::{self, Resolved, RuntimeResolver, Step};
use crate::cloud::status_sockets::{self, OpenFailure, OPEN_ATTEMPTS};
use crate::cloud::target::SessionTarget;
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

/// Where the session's connection comes from, once resolved.
enum Placement {
    Computer(ComputerSelector),
    Sandbox(Rc<SandboxRunner>),
}

/// One Cloud session's REST side and its relay opens.
pub struct CloudConnector {
    config: CloudConfig,
    fetch: Fetch,
    plan: SessionPlan,
    resolved: RefCell<Option<Resolved>>,
    placement: RefCell<Option<Rc<Placement>>>,
    /// Set by [`CloudConnector::close`]: a start still running stops and undoes what it made.
    closed: std::cell::Cell<bool>,
}

fn reply(response: &CloudResult<Response>) -> Reply<'_> {
    response
        .as_ref()
        .map(Response::as_http)
        .map_err(Clone::clone)
}

impl CloudConnector {
    /// The connector of the session `session` describes (the wrapper's config, JSON; read by
    /// [`SessionPlan::parse`], whose validation errors are typed).
    pub fn new(config: CloudConfig, fetch: Fetch, session: &str) -> CloudResult<CloudConnector> {
        let plan = SessionPlan::parse(&config, session)?;
        Ok(CloudConnector {
            config,
            fetch,
            plan,
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
        let mut resolver = match &self.plan.conversation {
            ConversationPlan::AgentFreeExisting(id) => {
                return done(RuntimeResolver::agent_free(id))
            }
            ConversationPlan::AgentFreeNew(body) => {
                let request = rest::create_ephemeral_conversation(&self.rb(), body);
                let response = self.send(&request).await?;
                let id = rest::parse_ephemeral_conversation(response.as_http())?;
                return done(RuntimeResolver::agent_free(&id));
            }
            ConversationPlan::Agent {
                agent_id,
                conversation,
            } => RuntimeResolver::new(
                self.rb(),
                agent_id,
                conversation.clone(),
                self.plan.resources.clone(),
            ),
            ConversationPlan::Conversation(id) => {
                RuntimeResolver::for_conversation(self.rb(), id, self.plan.resources.clone())
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
                let placement = Rc::new(match &self.plan.target {
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
