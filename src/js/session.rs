//! The session driver: owns one sans-IO [`SessionCore`], its WebSocket and its timer, and
//! settles the JS promises of API calls. It is the only place where core effects meet the
//! host: frames are written, calls settled, callbacks handed to the JS wrapper (through one
//! event function), messages delivered to `nextMessages()` waiters.
//!
//! No `RefCell` borrow is held while JS runs: effects are drained under a short borrow and
//! executed after it is released, so callbacks may call back into the driver.

use super::errors::to_js_error;
use crate::session::{
    parse_client_options, parse_session_options, CallId, SessionConfig, SessionCore, Target,
};
use crate::transport::socket::Socket;
use crate::transport::timer::{now_ms, Timer};
use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

mod events;
mod target;

use events::{open_socket, pump};

/// Frames at least this long are checked for `update_device_status` before being copied into
/// wasm memory.
const BIG_FRAME: u32 = 1_024;

struct Call {
    id: CallId,
    resolve: Function,
    reject: Function,
    /// `sendCommand`'s predicate.
    predicate: Option<Function>,
}

struct State {
    core: SessionCore,
    url: String,
    auth_token: Option<String>,
    constructor: JsValue,
    /// Receives `(kind, ...)`: `approval`, `tool`, `device`.
    events: Function,
    socket: Option<Socket>,
    timer: Option<Timer>,
    calls: Vec<Call>,
    next_call: CallId,
    waiters: VecDeque<Function>,
}

/// One session (or management connection) driven over a real WebSocket.
#[wasm_bindgen]
pub struct SessionDriver {
    inner: Rc<RefCell<State>>,
}

#[wasm_bindgen]
impl SessionDriver {
    /// `client_options`: the client's options as JSON (functions removed); `session_options`:
    /// the session's (with `hasCanUseTool`, tools without `execute`); `target`: what to start
    /// (see `target.rs`); `constructor`: the injected WebSocket class or `undefined`;
    /// `events`: the wrapper's callback for approvals, tool calls and device status.
    #[wasm_bindgen(constructor)]
    pub fn new(
        client_options: &str,
        session_options: &str,
        target: &str,
        nonce: &str,
        constructor: JsValue,
        events: Function,
    ) -> Result<SessionDriver, JsValue> {
        let client = parse_client_options(client_options).map_err(|e| to_js_error(&e))?;
        let (target, action) =
            target::parse(target, client.pin_global_agent).map_err(|e| to_js_error(&e))?;
        let options = match target {
            Target::Management => Default::default(),
            _ => parse_session_options(session_options, action).map_err(|e| to_js_error(&e))?,
        };
        let core = SessionCore::new(SessionConfig {
            label: "app-server",
            request_timeout_ms: client.request_timeout_ms,
            options,
            target,
            nonce: nonce.to_owned(),
        });
        Ok(SessionDriver {
            inner: Rc::new(RefCell::new(State {
                core,
                url: client.url,
                auth_token: client.auth_token,
                constructor,
                events,
                socket: None,
                timer: None,
                calls: Vec::new(),
                next_call: 0,
                waiters: VecDeque::new(),
            })),
        })
    }

    /// Opens the socket and starts the session; resolves with the init info (JSON).
    pub fn connect(&self) -> Promise {
        let promise = self.promise(|core, call, now| core.begin(call, now));
        open_socket(&self.inner);
        promise
    }

    /// Writes a user turn (`content_json`: a string or content-part array, as JSON).
    pub fn send(&self, content_json: &str, otid: Option<String>) -> Result<(), JsValue> {
        let result = self.with_core(|core, now| core.send(content_json, otid.as_deref(), now));
        result.map_err(|e| to_js_error(&e))
    }

    /// Every `SDKMessage` available now, as one JSON array (waiting for at least one), or
    /// `undefined` once the stream has ended. One boundary crossing and one `JSON.parse` per
    /// batch instead of per message.
    #[wasm_bindgen(js_name = nextMessages)]
    pub fn next_messages(&self) -> Promise {
        let mut state = self.inner.borrow_mut();
        if let Some(batch) = take_batch(&mut state.core) {
            return Promise::resolve(&JsValue::from_str(&batch));
        }
        if state.core.stream_ended() {
            return Promise::resolve(&JsValue::UNDEFINED);
        }
        let mut resolver = None;
        let promise = Promise::new(&mut |resolve, _| resolver = Some(resolve));
        if let Some(resolve) = resolver {
            state.waiters.push_back(resolve);
        }
        promise
    }

    pub fn abort(&self) -> Promise {
        self.promise(|core, call, now| core.abort(call, now))
    }

    #[wasm_bindgen(js_name = listMessages)]
    pub fn list_messages(&self, options_json: &str) -> Promise {
        self.promise(|core, call, now| core.list_messages(call, options_json, now))
    }

    #[wasm_bindgen(js_name = listModels)]
    pub fn list_models(&self) -> Promise {
        self.promise(|core, call, now| core.list_models(call, now))
    }

    #[wasm_bindgen(js_name = updateModel)]
    pub fn update_model(&self, request_json: &str) -> Promise {
        self.promise(|core, call, now| core.update_model(call, request_json, now))
    }

    #[wasm_bindgen(js_name = removeQueuedMessage)]
    pub fn remove_queued_message(&self, item_id: &str) -> Promise {
        self.promise(|core, call, now| core.remove_queued_message(call, item_id, now))
    }

    #[wasm_bindgen(js_name = changeDeviceState)]
    pub fn change_device_state(&self, update_json: &str) -> Result<(), JsValue> {
        self.with_core(|core, _| core.change_device_state(update_json))
            .map_err(|e| to_js_error(&e))
    }

    #[wasm_bindgen(js_name = getDeviceStatus)]
    pub fn get_device_status(&self, options_json: &str) -> Promise {
        self.promise(|core, call, now| core.get_device_status(call, options_json, now))
    }

    #[wasm_bindgen(js_name = setDeviceStatusListening)]
    pub fn set_device_status_listening(&self, listening: bool) {
        self.inner
            .borrow_mut()
            .core
            .set_device_status_listening(listening);
    }

    #[wasm_bindgen(js_name = recoverPendingApprovals)]
    pub fn recover_pending_approvals(&self, options_json: &str) -> Promise {
        self.promise(|core, call, now| core.recover_pending_approvals(call, options_json, now))
    }

    /// `sendCommand(command)` without options: written verbatim.
    #[wasm_bindgen(js_name = sendRaw)]
    pub fn send_raw(&self, command_json: &str) -> Result<(), JsValue> {
        self.with_core(|core, _| core.send_raw(command_json))
            .map_err(|e| to_js_error(&e))
    }

    /// `sendCommand(command, options)`: resolves with the answering frame (JSON).
    #[wasm_bindgen(js_name = sendCommand)]
    pub fn send_command(
        &self,
        command_json: &str,
        response_type: Option<String>,
        predicate: Option<Function>,
        timeout_ms: Option<f64>,
    ) -> Promise {
        let has_predicate = predicate.is_some();
        let timeout = timeout_ms.filter(|t| *t >= 1.0).map(|t| t as u64);
        self.call(predicate, |core, call, now| {
            core.send_command(
                call,
                command_json,
                response_type.as_deref(),
                has_predicate,
                timeout,
                now,
            )
        })
        .unwrap_or_else(|e| e)
    }

    /// A management request (`agent_list`, …): resolves with the response frame (JSON).
    pub fn management(&self, command_type: &str, fields_json: &str) -> Promise {
        let failure = failure_text(command_type);
        self.promise(|core, call, now| {
            core.management(call, command_type, fields_json, failure, now)
        })
    }

    /// The `canUseTool` callback's answer (JSON) for an `approval` event.
    #[wasm_bindgen(js_name = answerApproval)]
    pub fn answer_approval(&self, handle: f64, response_json: &str) {
        self.with_core(|core, _| core.answer_approval(handle as u64, response_json));
    }

    /// A tool's outcome (`{"result": …}` or `{"error": "…"}`) for a `tool` event.
    #[wasm_bindgen(js_name = finishTool)]
    pub fn finish_tool(&self, handle: f64, outcome_json: &str) {
        self.with_core(|core, _| core.finish_tool(handle as u64, outcome_json));
    }

    #[wasm_bindgen(js_name = hasInFlightTurn)]
    pub fn has_in_flight_turn(&self) -> bool {
        self.inner.borrow().core.has_in_flight_turn()
    }

    #[wasm_bindgen(js_name = isClosed)]
    pub fn is_closed(&self) -> bool {
        self.inner.borrow().core.is_closed()
    }

    /// Ends the stream, rejects pending calls and closes the socket. Idempotent.
    pub fn close(&self) {
        self.with_core(|core, now| core.close(now));
    }
}

/// All queued messages as one JSON array, or `None` when none is queued.
fn take_batch(core: &mut SessionCore) -> Option<String> {
    let first = core.pop_message()?;
    let mut batch = String::with_capacity(first.len() * 8 + 2);
    batch.push('[');
    batch.push_str(&first);
    while let Some(message) = core.pop_message() {
        batch.push(',');
        batch.push_str(&message);
    }
    batch.push(']');
    Some(batch)
}

impl SessionDriver {
    fn with_core<R>(&self, f: impl FnOnce(&mut SessionCore, u64) -> R) -> R {
        let result = {
            let mut state = self.inner.borrow_mut();
            f(&mut state.core, now_ms())
        };
        pump(&self.inner);
        result
    }

    /// Registers a call (a Promise) and runs `f` with its id.
    fn call(
        &self,
        predicate: Option<Function>,
        f: impl FnOnce(&mut SessionCore, CallId, u64),
    ) -> Result<Promise, Promise> {
        let mut settle = None;
        let promise = Promise::new(&mut |resolve, reject| settle = Some((resolve, reject)));
        let Some((resolve, reject)) = settle else {
            return Err(promise);
        };
        {
            let mut state = self.inner.borrow_mut();
            state.next_call += 1;
            let id = state.next_call;
            state.calls.push(Call {
                id,
                resolve,
                reject,
                predicate,
            });
            f(&mut state.core, id, now_ms());
        }
        pump(&self.inner);
        Ok(promise)
    }

    fn promise(&self, f: impl FnOnce(&mut SessionCore, CallId, u64)) -> Promise {
        self.call(None, f).unwrap_or_else(|p| p)
    }
}

/// The text used when a management response fails without an `error`.
fn failure_text(command_type: &str) -> &'static str {
    match command_type {
        "agent_list" => "Failed to list agents",
        "agent_retrieve" => "Failed to retrieve agent",
        "agent_update" => "Failed to update agent",
        "agent_delete" => "Failed to delete agent",
        "conversation_list" => "Failed to list conversations",
        "conversation_retrieve" => "Failed to retrieve conversation",
        "conversation_create" => "Failed to create conversation",
        "conversation_update" => "Failed to update conversation",
        "conversation_fork" => "Failed to fork conversation",
        "conversation_messages_list" => "listMessages failed",
        "list_models" => "Failed to list models",
        _ => "Request failed",
    }
}
