//! The private steps of [`CloudConnect`]: the resolution's steps, the connection's placement
//! and open, the sandbox's effects and refreshes, and the release at close. The entry points
//! that call them are in `connect.rs`.

use super::*;

impl CloudConnect {
    /// Requests against the client's base URL, with its headers and key.
    pub(super) fn rb(&self) -> RequestBuilder {
        RequestBuilder::new(&self.config)
    }

    /// Sends `request` for `purpose`; its reply comes back with the id.
    pub(super) fn fetch(&mut self, purpose: Purpose, request: HttpRequest) {
        self.next_request = self.next_request.wrapping_add(1);
        let id = self.next_request;
        self.in_flight.push((id, purpose));
        self.effects.push_back(ConnectEffect::Fetch { id, request });
    }

    /// The `connect` call failed: the next `connect` starts again from where this one was.
    pub(super) fn fail(&mut self, call: CallId, error: CloudError) {
        self.stage = Stage::Idle;
        self.effects
            .push_back(ConnectEffect::Failed { call, error });
    }

    /// Settles a `beforeTurn` or transfer call.
    pub(super) fn settle(&mut self, call: CallId, result: CloudResult<Option<String>>) {
        self.effects
            .push_back(ConnectEffect::Settle { call, result });
    }

    /// The resolved runtime (an empty agent-free one before resolution).
    pub(super) fn runtime(&self) -> Runtime {
        self.resolved
            .as_ref()
            .map(|r| r.runtime.clone())
            .unwrap_or_else(|| Runtime::agent_free(""))
    }

    /// One step of the runtime's resolution.
    pub(super) fn resolution_step(&mut self, call: CallId, step: Step) {
        match step {
            Step::Send(request) => self.fetch(Purpose::Resolve, request),
            Step::WaitUntil(at) => match &mut self.stage {
                Stage::Resolving {
                    resolver: Some(resolver),
                    ..
                } if self.closed => {
                    let step = resolver.cancel();
                    self.resolution_step(call, step);
                }
                Stage::Resolving { wake_at, .. } => *wake_at = Some(at),
                _ => {}
            },
            Step::Done(resolved) => {
                let runtime = resolved.runtime.clone();
                self.resolved = Some(resolved);
                if self.closed {
                    self.fail(call, CloudError::session_closed());
                    return self.release();
                }
                self.effects.push_back(ConnectEffect::Runtime(runtime));
                self.place(call, 1, true);
            }
            Step::Failed(error) => self.fail(call, error),
        }
    }

    /// Gets the connection id for open attempt `attempt`: the first acquisition (`first`), or
    /// a re-resolution (the sandbox refreshed and waited for, the computer looked up again).
    pub(super) fn place(&mut self, call: CallId, attempt: u32, first: bool) {
        if self.closed {
            self.fail(call, CloudError::session_closed());
            return self.release();
        }
        self.stage = Stage::Placing { call, attempt };
        if self.placement.is_none() {
            let runtime = self.runtime();
            self.placement = Some(match &self.plan.target {
                SessionTarget::Computer(selector) => Placement::Computer(selector.clone()),
                SessionTarget::ManagedSandbox(options) => {
                    Placement::Sandbox(Box::new(SandboxLifecycle::new(
                        self.rb(),
                        runtime.agent_id.as_deref().unwrap_or_default(),
                        &runtime.conversation_id,
                        options.clone(),
                    )))
                }
            });
        }
        let rb = self.rb();
        match &mut self.placement {
            Some(Placement::Computer(selector)) => match selector::resolve(&rb, selector) {
                Resolution::Done(resolved) => self.open(resolved.connection_id),
                Resolution::Fetch(request) => self.fetch(Purpose::Computer, request),
            },
            Some(Placement::Sandbox(life)) => {
                let effects = if first {
                    life.start()
                } else {
                    life.reacquire()
                };
                self.sandbox_effects(effects);
            }
            None => {}
        }
    }

    /// The connection id is known: open the status sockets on it (not for a closed session).
    pub(super) fn open(&mut self, connection_id: String) {
        let Stage::Placing { call, attempt } = self.stage else {
            return;
        };
        if self.closed {
            self.fail(call, CloudError::session_closed());
            return self.release();
        }
        let runtime = self.runtime();
        match status_sockets::endpoints(&self.config, &connection_id, &runtime) {
            Ok(endpoints) => {
                self.stage = Stage::Opening {
                    call,
                    attempt,
                    connection_id,
                };
                self.effects
                    .push_back(ConnectEffect::Open { endpoints, runtime });
            }
            Err(error) => self.fail(call, error),
        }
    }

    pub(super) fn sandbox_effects(&mut self, effects: Vec<sandbox::Effect>) {
        for effect in effects {
            match effect {
                sandbox::Effect::Send { call, request } => {
                    self.fetch(Purpose::Sandbox(call), request)
                }
                sandbox::Effect::Online { connection_id } => self.open(connection_id),
                sandbox::Effect::AcquireFailed(error) => {
                    if let Stage::Placing { call, .. } = self.stage {
                        self.fail(call, error);
                    }
                }
                sandbox::Effect::Refreshed(outcome) => self.refreshed(outcome),
                sandbox::Effect::Closed => self.detach(),
            }
        }
    }

    /// Queues `waiter` for the managed sandbox's next refresh, starting one unless one is out
    /// (`false`: the session has no managed sandbox).
    pub(super) fn wait_for_refresh(&mut self, waiter: Waiter) -> bool {
        let Some(Placement::Sandbox(life)) = &mut self.placement else {
            return false;
        };
        self.waiters.push(waiter);
        let effects = life.before_turn();
        self.sandbox_effects(effects);
        true
    }

    /// A refresh finished: everyone waiting for one gets its outcome.
    pub(super) fn refreshed(&mut self, outcome: CloudResult<()>) {
        let sandbox_id = match &self.placement {
            Some(Placement::Sandbox(life)) => life.sandbox().map(|s| s.sandbox_id.clone()),
            _ => None,
        };
        for waiter in std::mem::take(&mut self.waiters) {
            let (call, result) = match waiter {
                Waiter::Turn(call) => (call, outcome.clone().map(|()| None)),
                Waiter::Transfer(call) => (
                    call,
                    outcome
                        .clone()
                        .and_then(|()| sandbox_id.clone().ok_or_else(files::computer_error))
                        .map(Some),
                ),
            };
            self.settle(call, result);
        }
    }

    /// Undoes what the session made: the sandbox's close first, then the detaches.
    /// Idempotent: a start that stops after the close releases again what it made since.
    pub(super) fn release(&mut self) {
        match &mut self.placement {
            Some(Placement::Sandbox(life)) => {
                // The sandbox's `Closed` effect detaches; a sandbox closed before, at once.
                let effects = life.close();
                let closed_before = effects.is_empty() && life.is_closed();
                self.sandbox_effects(effects);
                if closed_before {
                    self.detach();
                }
            }
            _ => self.detach(),
        }
    }

    /// One detach per repository this session attached, then a recompile if one needs it.
    pub(super) fn detach(&mut self) {
        let Some(resolved) = self.resolved.as_ref().filter(|_| !self.detached) else {
            return;
        };
        let requests = start::detach_requests(&RequestBuilder::new(&self.config), resolved);
        self.detached = true;
        for request in requests {
            self.fetch(Purpose::Release, request);
        }
    }
}
