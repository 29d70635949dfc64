//! The managed sandbox of one Cloud session at run time: [`SandboxRunner`]
//! performs the requests of the sans-IO `cloud::sandbox::SandboxLifecycle`, wakes it at its
//! deadline (polls, the periodic refresh) and hands its outcomes — online, refreshed, closed
//! — to the callers waiting for them.

use super::fetch::{Fetch, Response};
use super::timer::{now, Timer};
use crate::cloud::error::{CloudError, CloudResult};
use crate::cloud::sandbox::{Effect, Reply, SandboxLifecycle};
use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};

fn reply(response: &CloudResult<Response>) -> Reply<'_> {
    response
        .as_ref()
        .map(Response::as_http)
        .map_err(Clone::clone)
}

/// Callers waiting for one kind of sandbox outcome: each gets its own copy.
type Waiters<T> = RefCell<Vec<(Rc<RefCell<Option<T>>>, Function)>>;

/// Runs one [`SandboxLifecycle`]: performs its requests, wakes it at its deadline, and hands
/// its outcomes to the callers waiting for them.
pub struct SandboxRunner {
    pub(super) machine: RefCell<SandboxLifecycle>,
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
    pub(super) fn new(fetch: Fetch, machine: SandboxLifecycle) -> Rc<SandboxRunner> {
        Rc::new(SandboxRunner {
            machine: RefCell::new(machine),
            fetch,
            timer: RefCell::new(None),
            online: RefCell::default(),
            refreshed: RefCell::default(),
            closed: RefCell::default(),
        })
    }

    pub(super) async fn online(self: &Rc<Self>, effects: Vec<Effect>) -> CloudResult<String> {
        let wait = register(&self.online);
        self.run(effects);
        wait.await.unwrap_or_else(|| {
            Err(CloudError::connection(
                "Cloud managed sandbox is not available.",
            ))
        })
    }

    pub(super) async fn refreshed(self: &Rc<Self>, effects: Vec<Effect>) -> CloudResult<()> {
        let wait = register(&self.refreshed);
        self.run(effects);
        wait.await.unwrap_or_else(|| {
            Err(CloudError::connection(
                "Cloud managed sandbox is not available.",
            ))
        })
    }

    pub(super) async fn closed(self: &Rc<Self>, effects: Vec<Effect>) {
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
