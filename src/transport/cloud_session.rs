//! The I/O of one Cloud session's connection. The pure `cloud::connect::CloudConnect` decides
//! (runtime resolution, computer or managed sandbox, the status sockets' open attempts, the
//! refresh before each turn, the release at close); the session driver pumps it in the same
//! loop as the session's core and hands each of its effects to [`execute`], which performs the
//! requests with [`Fetch`], opens the [`StatusLink`] and reports back.

use super::driver::{Driver, Event};
use super::fetch::{Fetch, Response};
use super::status_link::StatusLink;
use crate::cloud::config::CloudConfig;
use crate::cloud::connect::{CloudConnect, ConnectEffect};
use crate::cloud::error::CloudResult;
use crate::cloud::sandbox::Reply;
use crate::cloud::session_plan::SessionPlan;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn warn(line: &str);
}

/// A Cloud session's connection machine with what performs its effects.
pub struct CloudSession {
    machine: CloudConnect,
    io: CloudIo,
}

/// What performs the machine's effects: copied out of the driver's state for a step, since no
/// borrow of it may be held while JS runs.
#[derive(Clone)]
pub(super) struct CloudIo {
    fetch: Fetch,
    ping_interval_ms: u64,
    api_key: Option<String>,
    /// The injected WebSocket constructor (header auth needs one), else the platform's own.
    web_socket: Option<Function>,
}

impl CloudSession {
    /// The connection of the session `session` describes (the wrapper's config, JSON, read by
    /// [`SessionPlan::parse`], whose validation errors are typed).
    pub fn new(
        config: CloudConfig,
        fetch: Fetch,
        session: &str,
        web_socket: Option<Function>,
    ) -> CloudResult<CloudSession> {
        let plan = SessionPlan::parse(&config, session)?;
        let io = CloudIo {
            fetch,
            ping_interval_ms: config.ping_interval_ms,
            api_key: config.api_key.clone(),
            web_socket,
        };
        Ok(CloudSession {
            machine: CloudConnect::new(config, plan),
            io,
        })
    }

    /// The machine, for a step of the driver.
    pub(super) fn machine(&mut self) -> &mut CloudConnect {
        &mut self.machine
    }

    /// The machine's pending effects and what performs them (`None`: nothing to do).
    pub(super) fn take_effects(&mut self) -> Option<(Vec<ConnectEffect>, CloudIo)> {
        let effects: Vec<_> = std::iter::from_fn(|| self.machine.pop_effect()).collect();
        (!effects.is_empty()).then(|| (effects, self.io.clone()))
    }
}

fn reply(response: &CloudResult<Response>) -> Reply<'_> {
    response
        .as_ref()
        .map(Response::as_http)
        .map_err(Clone::clone)
}

/// Performs one effect of the session's [`CloudConnect`]. Requests and socket opens run in the
/// background and hold the driver until they report, so a close still undoes what they made.
pub(super) fn execute(driver: &Driver, io: &CloudIo, effect: ConnectEffect) {
    match effect {
        ConnectEffect::Fetch { id, request } => {
            let (driver, fetch) = (driver.clone(), io.fetch.clone());
            spawn_local(async move {
                let response = fetch.send(&request, None).await;
                driver.run_cloud(|machine, now| machine.on_reply(id, reply(&response), now));
            });
        }
        ConnectEffect::Runtime(runtime) => {
            driver.with_core(|core| core.set_cloud_runtime(runtime));
        }
        ConnectEffect::Open { endpoints, runtime } => {
            let link = StatusLink::open(
                &endpoints,
                runtime,
                io.ping_interval_ms,
                io.web_socket.as_ref(),
                io.api_key.as_deref(),
            );
            let driver = driver.clone();
            spawn_local(async move {
                let opened = match link {
                    Ok(link) => link.wait_open().await.map(|()| link),
                    Err(detail) => Err(detail),
                };
                match opened {
                    Ok(link) => {
                        if driver.run_cloud(|machine, _| machine.on_opened()) == Some(true) {
                            driver.attach_status_link(link);
                        }
                    }
                    Err(detail) => {
                        driver.run_cloud(|machine, _| machine.on_open_failed(&detail));
                    }
                }
            });
        }
        ConnectEffect::Warn(line) => warn(&line),
        ConnectEffect::Failed { call, error } => {
            let detail = error.message.clone();
            driver.notify(Event::CloudSettled {
                call,
                result: Err(error),
            });
            driver.run(|core, now| core.on_transport_error(&detail, now));
        }
        ConnectEffect::Settle { call, result } => {
            driver.notify(Event::CloudSettled { call, result })
        }
    }
}
