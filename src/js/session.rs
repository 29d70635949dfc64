//! The session binding: [`SessionDriver`], one session (or management connection) with its I/O
//! ([`crate::transport::driver::Driver`]), one method per operation. API calls return Promises
//! that the core's effects settle; `canUseTool`, tools and device-status listeners are reached
//! through the `events` callback of the wrapper (`pkg-template/lib/session.js`).
//!
//! Message batches and API results cross as JSON strings, one `JSON.parse` per batch in the
//! wrapper (faster than the JS driver it replaced: bench/RESULTS.md, "Session pipeline").

use super::error::typed_error;
use crate::session::{read_session_config, SessionConfig, SessionCore, SessionError};
use crate::transport::driver::Driver;
use js_sys::{Function, Promise};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

mod chat;
mod events;

/// An API call waiting for its effect.
struct Pending {
    resolve: Function,
    reject: Function,
    /// `sendCommand`'s predicate, which decides on candidate frames.
    predicate: Option<Function>,
}

/// How the session opens its transport.
pub(super) enum Connector {
    /// The app server's socket at `url`; the token only goes into the `Authorization` header.
    Remote {
        url: String,
        auth_token: Option<String>,
    },
    /// Letta Cloud: the driver's Cloud connection starts it (`transport::cloud_session`); the
    /// client's context performs the file transfers (`src/js/cloud_session.rs`).
    #[cfg(feature = "cloud")]
    Cloud(Rc<super::cloud::CloudContext>),
}

/// What the class, the driver's handler and the Promises share.
pub(super) struct Shared {
    pub(super) driver: Driver,
    connector: Connector,
    pub(super) web_socket: Option<Function>,
    events: Function,
    /// The API calls in flight, by number: a handful at a time, so a `Vec` searched from the
    /// end (a hash map costs more wasm; bench/RESULTS.md, "Designs measured and left out").
    calls: RefCell<Vec<(u32, Pending)>>,
    next_call: Cell<u32>,
    /// `nextMessages()` callers waiting for a batch (their `resolve`), oldest first. Rarely
    /// more than one: a `Vec` (a `VecDeque` costs more wasm; bench/RESULTS.md).
    waiters: RefCell<Vec<Function>>,
    /// A chat's transcript, fed by the session itself (see `chat`); `None` otherwise.
    transcript: RefCell<Option<crate::transcript::TranscriptAccumulator>>,
}

/// One session (or management connection).
#[wasm_bindgen]
pub struct SessionDriver {
    shared: RefCell<Option<Rc<Shared>>>,
}

#[wasm_bindgen]
impl SessionDriver {
    /// `config`: `{"requestTimeoutMs"?, "target", "options"}` as the wrapper validated it
    /// (`pkg-template/lib/options.js`), as JSON text: serde-wasm-bindgen would link serde's
    /// type-error formatting for one call per session (its cost: bench/RESULTS.md); `nonce`: the client's request-id nonce; `web_socket`:
    /// an injected constructor (else the browser's own); `events(kind, …)`:
    /// `("approval", handle, toolName, inputJson, contextJson)`,
    /// `("tool", handle, toolCallId, toolName, inputJson)`, `("device", statusJson)`,
    /// `("connection", eventJson)` (`{type: "reconnecting", live}` / `{type: "reconnected"}`).
    /// The token only goes into the `Authorization` header.
    #[wasm_bindgen(constructor)]
    pub fn new(
        config: &str,
        nonce: &str,
        url: String,
        auth_token: Option<String>,
        web_socket: Option<Function>,
        events: Function,
    ) -> Result<SessionDriver, JsValue> {
        let connector = Connector::Remote { url, auth_token };
        SessionDriver::with_connector(config, nonce, connector, web_socket, events)
    }

    /// A fresh request-id nonce for one client (`transport::random`).
    #[wasm_bindgen(js_name = requestNonce)]
    pub fn request_nonce() -> String {
        crate::transport::random::request_nonce()
    }

    /// Opens the transport and starts the session (for a Cloud session that dropped while
    /// idle: reopens it); resolves with the init info (JSON).
    pub fn connect(&self) -> Promise {
        self.call(
            None,
            |core, call, now| core.begin(call, now),
            |shared, _call| {
                let driver = &shared.driver;
                if driver.with_core(|core| core.is_closed()) {
                    return;
                }
                match &shared.connector {
                    Connector::Remote { url, auth_token } => {
                        driver.connect(url, shared.web_socket.as_ref(), auth_token.as_deref())
                    }
                    // A started session answered at once: its sockets stay as they are.
                    #[cfg(feature = "cloud")]
                    Connector::Cloud(_) if driver.with_core(|core| core.is_ready()) => {}
                    #[cfg(feature = "cloud")]
                    Connector::Cloud(_) => {
                        driver.run_cloud(|cloud, now| cloud.connect(_call, now));
                    }
                }
            },
        )
    }

    /// Runs before `send()` writes input: a Cloud managed sandbox is refreshed (its 404
    /// rejects with `CloudManagedSandboxExpiredError`); resolves at once otherwise.
    #[cfg(feature = "cloud")]
    #[wasm_bindgen(js_name = beforeTurn)]
    pub fn before_turn(&self) -> Promise {
        match self.live().as_deref().map(|s| &s.connector) {
            Some(Connector::Cloud(_)) => self.cloud_call(|cloud, call| cloud.before_turn(call)),
            _ => Promise::resolve(&JsValue::UNDEFINED),
        }
    }

    /// `session.sandbox.uploadFiles(files)` (`[{name, content}]`): resolves with `{files}`
    /// (JSON); a Cloud managed sandbox only.
    #[cfg(feature = "cloud")]
    #[wasm_bindgen(js_name = sandboxUpload)]
    pub fn sandbox_upload(&self, files: JsValue) -> Promise {
        super::cloud_session::upload(self, files)
    }

    /// `session.sandbox.downloadFile(path)`: resolves with a `Uint8Array`.
    #[cfg(feature = "cloud")]
    #[wasm_bindgen(js_name = sandboxDownload)]
    pub fn sandbox_download(&self, path: String) -> Promise {
        super::cloud_session::download(self, path)
    }

    /// A session waiting to reopen its transport (a Cloud one after an idle drop, a remote
    /// one after losing every socket): `connect()` reopens it.
    #[wasm_bindgen(js_name = isIdleDisconnected)]
    pub fn is_idle_disconnected(&self) -> bool {
        self.live()
            .is_some_and(|s| s.driver.with_core(|core| core.is_idle_disconnected()))
    }

    /// Every `SDKMessage` available now as one JSON array (waiting for one), or `undefined`
    /// once the stream ended.
    #[wasm_bindgen(js_name = nextMessages)]
    pub fn next_messages(&self) -> Promise {
        let Some(shared) = self.live() else {
            return Promise::resolve(&JsValue::UNDEFINED);
        };
        if let Some(batch) = shared.take_messages() {
            return Promise::resolve(&batch);
        }
        Promise::new(&mut |resolve, _| {
            shared.waiters.borrow_mut().push(resolve);
        })
    }

    /// Writes a user turn (`content`: a string or content-part array as JSON; `response_format`:
    /// the input's structured-output format as JSON, if any).
    /// `otid` is passed as the caller gave it: the core checks it (a non-string is an empty one).
    pub fn send(
        &self,
        content: &str,
        otid: JsValue,
        response_format: Option<String>,
    ) -> Result<(), JsValue> {
        let otid = (!otid.is_undefined()).then(|| otid.as_string().unwrap_or_default());
        self.sync(|core, now| {
            core.send_input(content, otid.as_deref(), response_format.as_deref(), now)
        })
    }

    /// The error of a call on a closed session, for the wrapper too (one text, the core's).
    #[wasm_bindgen(js_name = closedError)]
    pub fn closed_error() -> JsValue {
        session_error(&SessionError::session_closed())
    }

    /// Interrupts the active turn.
    pub fn abort(&self) -> Promise {
        self.call(None, |core, call, now| core.abort(call, now), |_, _| {})
    }

    /// `listMessages(options)` (`options`: JSON).
    #[wasm_bindgen(js_name = listMessages)]
    pub fn list_messages(&self, options: &str) -> Promise {
        self.call(
            None,
            |core, call, now| core.list_messages(call, options, now),
            |_, _| {},
        )
    }

    /// `listModels()`.
    #[wasm_bindgen(js_name = listModels)]
    pub fn list_models(&self) -> Promise {
        self.call(
            None,
            |core, call, now| core.list_models(call, now),
            |_, _| {},
        )
    }

    /// `updateModel(request)` (`request`: JSON).
    #[wasm_bindgen(js_name = updateModel)]
    pub fn update_model(&self, request: &str) -> Promise {
        self.call(
            None,
            |core, call, now| core.update_model(call, request, now),
            |_, _| {},
        )
    }

    /// `removeQueuedMessage(itemId)`.
    #[wasm_bindgen(js_name = removeQueuedMessage)]
    pub fn remove_queued_message(&self, item_id: &str) -> Promise {
        self.call(
            None,
            |core, call, now| core.remove_queued_message(call, item_id, now),
            |_, _| {},
        )
    }

    /// `changeDeviceState(update)` (`update`: JSON).
    #[wasm_bindgen(js_name = changeDeviceState)]
    pub fn change_device_state(&self, update: &str) -> Result<(), JsValue> {
        self.sync(|core, _| core.change_device_state(update))
    }

    /// `getDeviceStatus(options)` (`options`: JSON).
    #[wasm_bindgen(js_name = getDeviceStatus)]
    pub fn get_device_status(&self, options: &str) -> Promise {
        self.call(
            None,
            |core, call, now| core.get_device_status(call, options, now),
            |_, _| {},
        )
    }

    /// Whether device status listeners exist (else big status frames may be skipped unread).
    #[wasm_bindgen(js_name = setDeviceStatusListening)]
    pub fn set_device_status_listening(&self, listening: bool) -> Result<(), JsValue> {
        self.sync(|core, _| {
            core.set_device_status_listening(listening);
            Ok(())
        })
    }

    /// `recoverPendingApprovals(options)` (`options`: JSON).
    #[wasm_bindgen(js_name = recoverPendingApprovals)]
    pub fn recover_pending_approvals(&self, options: &str) -> Promise {
        self.call(
            None,
            |core, call, now| core.recover_pending_approvals(call, options, now),
            |_, _| {},
        )
    }

    /// `sendCommand(command)` without options: written verbatim.
    #[wasm_bindgen(js_name = sendRaw)]
    pub fn send_raw(&self, command: &str) -> Result<(), JsValue> {
        self.sync(|core, _| core.send_raw(command))
    }

    /// `sendCommand(command, options)`: resolves with the answering frame (JSON). `options`:
    /// `{responseType?, timeoutMs?}` as JSON; the predicate, if any, judges candidate frames.
    #[wasm_bindgen(js_name = sendCommand)]
    pub fn send_command(
        &self,
        command: &str,
        options: &str,
        predicate: Option<Function>,
    ) -> Promise {
        let with_predicate = predicate.is_some();
        self.call(
            predicate,
            |core, call, now| core.send_command(call, command, options, with_predicate, now),
            |_, _| {},
        )
    }

    /// A management request (`fields`: JSON; `command_type`, e.g. `agent_list`): resolves with
    /// the response frame (JSON).
    pub fn management(&self, command_type: &str, fields: &str) -> Promise {
        self.call(
            None,
            |core, call, now| core.management(call, command_type, fields, now),
            |_, _| {},
        )
    }

    /// The `canUseTool` callback's answer (JSON) for the `approval` event `handle`.
    #[wasm_bindgen(js_name = answerApproval)]
    pub fn answer_approval(&self, handle: u32, answer: &str) -> Result<(), JsValue> {
        self.sync(|core, _| {
            core.answer_approval(handle, answer);
            Ok(())
        })
    }

    /// A tool's outcome (`{"result": …}` or `{"error": "…"}`) for the `tool` event `handle`.
    #[wasm_bindgen(js_name = finishTool)]
    pub fn finish_tool(&self, handle: u32, outcome: &str) -> Result<(), JsValue> {
        self.sync(|core, _| {
            core.finish_tool(handle, outcome);
            Ok(())
        })
    }

    /// A turn is active or queued.
    #[wasm_bindgen(js_name = hasInFlightTurn)]
    pub fn has_in_flight_turn(&self) -> bool {
        self.live()
            .is_some_and(|s| s.driver.with_core(|core| core.has_in_flight_turn()))
    }

    /// The session is closed (`close()`, `release()` or a transport loss).
    #[wasm_bindgen(js_name = isClosed)]
    pub fn is_closed(&self) -> bool {
        self.live()
            .is_none_or(|s| s.driver.with_core(|core| core.is_closed()))
    }

    /// Ends the stream and rejects pending calls. Idempotent.
    pub fn close(&self) {
        if let Some(shared) = self.live() {
            shared.driver.run(|core, now| core.close(now));
        }
    }

    /// Closes, tears the socket and the timer down and drops the core (its memory). Idempotent;
    /// later calls see a closed session.
    pub fn release(&self) {
        let Some(shared) = self.shared.borrow_mut().take() else {
            return;
        };
        shared.driver.shut_down();
        let waiters = std::mem::take(&mut *shared.waiters.borrow_mut());
        for resolve in waiters {
            let _ = resolve.call1(&JsValue::NULL, &JsValue::UNDEFINED);
        }
    }
}

impl SessionDriver {
    /// The Cloud client's context (`None` for a remote or released session).
    #[cfg(feature = "cloud")]
    pub(super) fn cloud_context(&self) -> Option<Rc<super::cloud::CloudContext>> {
        match &self.live()?.connector {
            Connector::Cloud(context) => Some(context.clone()),
            Connector::Remote { .. } => None,
        }
    }

    /// A call of the session's Cloud connection, settled by its `CloudSettled` event.
    #[cfg(feature = "cloud")]
    pub(super) fn cloud_call(
        &self,
        step: impl FnOnce(&mut crate::cloud::connect::CloudConnect, u32),
    ) -> Promise {
        self.call(
            None,
            |_, _, _| {},
            |shared, call| {
                shared.driver.run_cloud(|cloud, _| step(cloud, call));
            },
        )
    }

    /// A driver for the wrapper's validated `config` (JSON) opening its transport with
    /// `connector`.
    pub(super) fn with_connector(
        config: &str,
        nonce: &str,
        connector: Connector,
        web_socket: Option<Function>,
        events: Function,
    ) -> Result<SessionDriver, JsValue> {
        let setup = read_session_config(config).ok_or_else(|| {
            typed_error(
                crate::error::ErrorKind::InvalidArgument,
                "Invalid session configuration.",
            )
        })?;
        let request_timeout_ms = match &connector {
            #[cfg(feature = "cloud")]
            Connector::Cloud(c) => setup
                .request_timeout_ms
                .or(Some(c.config.request_timeout_ms)),
            _ => setup.request_timeout_ms,
        };
        let core = SessionCore::new(SessionConfig {
            label: "app-server",
            request_timeout_ms,
            options: setup.options,
            target: setup.target,
            nonce: nonce.to_owned(),
        });
        let shared = Rc::new_cyclic(|weak: &std::rc::Weak<Shared>| {
            let weak = weak.clone();
            Shared {
                driver: Driver::new(core, move |event| {
                    if let Some(shared) = weak.upgrade() {
                        shared.on_event(event);
                    }
                }),
                connector,
                web_socket: web_socket.filter(|f| f.is_function()),
                events,
                calls: RefCell::default(),
                next_call: Cell::new(0),
                waiters: RefCell::default(),
                transcript: RefCell::default(),
            }
        });
        Ok(SessionDriver {
            shared: RefCell::new(Some(shared)),
        })
    }

    /// The shared state (cloned, so no borrow of `self` outlives this line), or `None` once
    /// released.
    pub(super) fn live(&self) -> Option<Rc<Shared>> {
        self.shared.borrow().clone()
    }

    /// Starts an API call: `start(core, call, now)`, then `after(shared)`; the Promise is
    /// settled by the call's effect. Its resolvers are kept rather than a `oneshot` channel
    /// awaited through `wasm_bindgen_futures::future_to_promise`, which costs more wasm
    /// (bench/RESULTS.md, "Designs measured and left out").
    fn call(
        &self,
        predicate: Option<Function>,
        start: impl FnOnce(&mut SessionCore, u32, u64),
        after: impl FnOnce(&Rc<Shared>, u32),
    ) -> Promise {
        let Some(shared) = self.live() else {
            return Promise::reject(&SessionDriver::closed_error());
        };
        let call = shared.next_call.get().wrapping_add(1);
        shared.next_call.set(call);
        let mut predicate = predicate;
        let promise = Promise::new(&mut |resolve, reject| {
            let pending = Pending {
                resolve,
                reject,
                predicate: predicate.take(),
            };
            shared.calls.borrow_mut().push((call, pending));
        });
        shared.driver.run(|core, now| start(core, call, now));
        after(&shared, call);
        promise
    }

    /// Runs a synchronous operation; its error is thrown as a typed `Error`.
    pub(super) fn sync(
        &self,
        step: impl FnOnce(&mut SessionCore, u64) -> Result<(), SessionError>,
    ) -> Result<(), JsValue> {
        let shared = self.live().ok_or_else(SessionDriver::closed_error)?;
        shared.driver.run(step).map_err(|e| session_error(&e))
    }
}

/// A core error as a typed JS `Error`.
fn session_error(error: &SessionError) -> JsValue {
    typed_error(error.kind, &error.message)
}
