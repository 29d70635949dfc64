//! The session binding: one sans-IO [`SessionCore`] behind a class whose methods take strings
//! and numbers and return strings. The socket, the timer and the Promises of API calls live in
//! the JS wrapper (`pkg-template/lib/driver.js`), which feeds socket events and the clock in
//! here and executes the effects it takes out ([`SessionMachine::take_effects`]).
//!
//! Keeping the host objects on the JS side is what keeps this module (and the wasm) small:
//! no closures, no `Promise`, no web-sys socket; every method is a call into the core.

use super::errors::to_js_error;
use crate::json::to_string as json_string;
use crate::session::{
    read_session_config, CallId, Effect, SessionConfig, SessionCore, SessionError,
};
use wasm_bindgen::prelude::*;

/// One session (or management connection): the core and nothing else.
#[wasm_bindgen]
pub struct SessionMachine {
    core: SessionCore,
}

#[wasm_bindgen]
impl SessionMachine {
    /// `config`: the session configuration the wrapper validated (`pkg-template/lib/options.js`):
    /// `{"requestTimeoutMs"?, "target", "options"}`. `nonce`: the client's request-id nonce.
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str, nonce: &str) -> Result<SessionMachine, JsValue> {
        let setup = read_session_config(config)
            .ok_or_else(|| to_js_error(&SessionError::invalid("Invalid session configuration.")))?;
        let core = SessionCore::new(SessionConfig {
            label: "app-server",
            request_timeout_ms: setup.request_timeout_ms,
            options: setup.options,
            target: setup.target,
            nonce: nonce.to_owned(),
        });
        Ok(SessionMachine { core })
    }

    // ---- transport events ----------------------------------------------------------------

    #[wasm_bindgen(js_name = onOpen)]
    pub fn on_open(&mut self, now: f64) {
        self.core.on_open(now as u64);
    }

    /// One text frame as received.
    #[wasm_bindgen(js_name = onFrame)]
    pub fn on_frame(&mut self, text: &str, now: f64) {
        self.core.on_frame(text, now as u64);
    }

    #[wasm_bindgen(js_name = onClosed)]
    pub fn on_closed(&mut self, now: f64) {
        self.core.on_transport_closed(now as u64);
    }

    /// An error event or a failed connect (`detail` names it; never holds the token).
    #[wasm_bindgen(js_name = onError)]
    pub fn on_error(&mut self, detail: &str) {
        self.core.on_transport_error(detail);
    }

    /// The deadline given by [`Self::next_deadline`] passed.
    #[wasm_bindgen(js_name = onTick)]
    pub fn on_tick(&mut self, now: f64) {
        self.core.on_tick(now as u64);
    }

    // ---- API calls: `call` is the wrapper's id for the Promise the effects settle ----------

    /// Starts the session; settles `call` with the init info (JSON).
    pub fn begin(&mut self, call: CallId, now: f64) {
        self.core.begin(call, now as u64);
    }

    /// Writes a user turn (`content_json`: a string or content-part array, as JSON).
    pub fn send(
        &mut self,
        content_json: &str,
        otid: Option<String>,
        now: f64,
    ) -> Result<(), JsValue> {
        self.core
            .send(content_json, otid.as_deref(), now as u64)
            .map_err(|e| to_js_error(&e))
    }

    pub fn abort(&mut self, call: CallId, now: f64) {
        self.core.abort(call, now as u64);
    }

    #[wasm_bindgen(js_name = listMessages)]
    pub fn list_messages(&mut self, call: CallId, options_json: &str, now: f64) {
        self.core.list_messages(call, options_json, now as u64);
    }

    #[wasm_bindgen(js_name = listModels)]
    pub fn list_models(&mut self, call: CallId, now: f64) {
        self.core.list_models(call, now as u64);
    }

    #[wasm_bindgen(js_name = updateModel)]
    pub fn update_model(&mut self, call: CallId, request_json: &str, now: f64) {
        self.core.update_model(call, request_json, now as u64);
    }

    #[wasm_bindgen(js_name = removeQueuedMessage)]
    pub fn remove_queued_message(&mut self, call: CallId, item_id: &str, now: f64) {
        self.core.remove_queued_message(call, item_id, now as u64);
    }

    #[wasm_bindgen(js_name = changeDeviceState)]
    pub fn change_device_state(&mut self, update_json: &str) -> Result<(), JsValue> {
        self.core
            .change_device_state(update_json)
            .map_err(|e| to_js_error(&e))
    }

    #[wasm_bindgen(js_name = getDeviceStatus)]
    pub fn get_device_status(&mut self, call: CallId, options_json: &str, now: f64) {
        self.core.get_device_status(call, options_json, now as u64);
    }

    #[wasm_bindgen(js_name = setDeviceStatusListening)]
    pub fn set_device_status_listening(&mut self, listening: bool) {
        self.core.set_device_status_listening(listening);
    }

    #[wasm_bindgen(js_name = recoverPendingApprovals)]
    pub fn recover_pending_approvals(&mut self, call: CallId, options_json: &str, now: f64) {
        self.core
            .recover_pending_approvals(call, options_json, now as u64);
    }

    /// `sendCommand(command)` without options: written verbatim.
    #[wasm_bindgen(js_name = sendRaw)]
    pub fn send_raw(&mut self, command_json: &str) -> Result<(), JsValue> {
        self.core
            .send_raw(command_json)
            .map_err(|e| to_js_error(&e))
    }

    /// `sendCommand(command, options)`: settles `call` with the answering frame (JSON); with a
    /// predicate, candidate frames come out as `candidate` effects for the wrapper to test.
    #[wasm_bindgen(js_name = sendCommand)]
    pub fn send_command(
        &mut self,
        call: CallId,
        command_json: &str,
        response_type: Option<String>,
        has_predicate: bool,
        timeout_ms: Option<f64>,
        now: f64,
    ) {
        let timeout = timeout_ms.filter(|t| *t >= 1.0).map(|t| t as u64);
        self.core.send_command(
            call,
            command_json,
            response_type.as_deref(),
            has_predicate,
            timeout,
            now as u64,
        );
    }

    /// A management request (`agent_list`, …): settles `call` with the response frame (JSON).
    pub fn management(&mut self, call: CallId, command_type: &str, fields_json: &str, now: f64) {
        let failure = failure_text(command_type);
        self.core
            .management(call, command_type, fields_json, failure, now as u64);
    }

    /// Forgets a call the wrapper settled itself (a `sendCommand` predicate accepted a frame or threw).
    #[wasm_bindgen(js_name = cancelCall)]
    pub fn cancel_call(&mut self, call: CallId) {
        self.core.cancel_call(call);
    }

    /// The `canUseTool` callback's answer (JSON) for an `approval` effect.
    #[wasm_bindgen(js_name = answerApproval)]
    pub fn answer_approval(&mut self, handle: f64, response_json: &str) {
        self.core.answer_approval(handle as u64, response_json);
    }

    /// A tool's outcome (`{"result": …}` or `{"error": "…"}`) for a `tool` effect.
    #[wasm_bindgen(js_name = finishTool)]
    pub fn finish_tool(&mut self, handle: f64, outcome_json: &str) {
        self.core.finish_tool(handle as u64, outcome_json);
    }

    /// Ends the stream and rejects pending calls (their effects follow). Idempotent.
    pub fn close(&mut self, now: f64) {
        self.core.close(now as u64);
    }

    // ---- outputs ---------------------------------------------------------------------------

    /// Every pending effect as one JSON array (see [`write_effect`]), or `undefined` if none.
    #[wasm_bindgen(js_name = takeEffects)]
    pub fn take_effects(&mut self) -> Option<String> {
        let first = self.core.pop_effect()?;
        let mut out = String::from("[");
        write_effect(&mut out, first);
        while let Some(effect) = self.core.pop_effect() {
            out.push(',');
            write_effect(&mut out, effect);
        }
        out.push(']');
        Some(out)
    }

    /// Every `SDKMessage` available now as one JSON array, or `undefined` when none is.
    #[wasm_bindgen(js_name = takeMessages)]
    pub fn take_messages(&mut self) -> Option<String> {
        let first = self.core.pop_message()?;
        let mut batch = String::with_capacity(first.len() * 8 + 2);
        batch.push('[');
        batch.push_str(&first);
        while let Some(message) = self.core.pop_message() {
            batch.push(',');
            batch.push_str(&message);
        }
        batch.push(']');
        Some(batch)
    }

    /// True once `stream()` has nothing more to give (the session closed).
    #[wasm_bindgen(js_name = streamEnded)]
    pub fn stream_ended(&self) -> bool {
        self.core.stream_ended()
    }

    /// When [`Self::on_tick`] is due (ms since the epoch), or `-1` for never.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> f64 {
        self.core.next_deadline().map_or(-1.0, |at| at as f64)
    }

    /// False while nobody listens for device status (big status frames may then be skipped).
    #[wasm_bindgen(js_name = wantsDeviceStatus)]
    pub fn wants_device_status(&self) -> bool {
        self.core.wants_device_status()
    }

    #[wasm_bindgen(js_name = hasInFlightTurn)]
    pub fn has_in_flight_turn(&self) -> bool {
        self.core.has_in_flight_turn()
    }

    #[wasm_bindgen(js_name = isClosed)]
    pub fn is_closed(&self) -> bool {
        self.core.is_closed()
    }
}

/// One effect as a JSON array whose first element names it:
/// `["write", text]`, `["ok", call, json]`, `["error", call, name, code, message]`,
/// `["candidate", call, frame]`, `["approval", handle, toolName, input, context]`,
/// `["tool", handle, toolCallId, toolName, input]`, `["device", json]`, `["close"]`.
/// Texts are JSON strings (the wrapper parses the JSON inside them where it needs to).
fn write_effect(out: &mut String, effect: Effect) {
    let (kind, number, texts): (&str, Option<u64>, Vec<String>) = match effect {
        Effect::Write(text) => ("write", None, vec![text]),
        Effect::Complete {
            call,
            result: Ok(json),
        } => ("ok", Some(call.into()), vec![json]),
        Effect::Complete {
            call,
            result: Err(error),
        } => (
            "error",
            Some(call.into()),
            vec![error.name.into(), error.code.into(), error.message],
        ),
        Effect::Candidate { call, frame } => ("candidate", Some(call.into()), vec![frame]),
        Effect::AskApproval {
            handle,
            tool_name,
            input,
            context,
        } => ("approval", Some(handle), vec![tool_name, input, context]),
        Effect::RunTool {
            handle,
            tool_call_id,
            tool_name,
            input,
        } => ("tool", Some(handle), vec![tool_call_id, tool_name, input]),
        Effect::DeviceStatus(json) => ("device", None, vec![json]),
        Effect::CloseTransport => ("close", None, Vec::new()),
    };
    out.push_str("[\"");
    out.push_str(kind);
    out.push('"');
    if let Some(number) = number {
        out.push(',');
        out.push_str(&number.to_string());
    }
    for text in &texts {
        out.push(',');
        out.push_str(&json_string(text.as_str()));
    }
    out.push(']');
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
