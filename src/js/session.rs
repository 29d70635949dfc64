//! The session binding: one sans-IO [`SessionCore`] behind a class with a single entry point,
//! [`SessionMachine::run`], that takes an operation code ([`op`]) and plain arguments. The socket, the timer and the Promises of API calls
//! live in the JS wrapper (`pkg-template/lib/driver.js`), which feeds socket events and the
//! clock in here and executes the effects it takes out ([`op::TAKE_EFFECTS`]).
//!
//! Keeping the host objects on the JS side is what keeps this module (and the wasm) small: no
//! closures, no `Promise`, no JS objects at all cross the boundary, only numbers and strings.
//! Every exported method costs glue and an export shim, hence one method for everything.

use super::json_array::JsonArray;
use crate::session::{read_session_config, Effect, SessionConfig, SessionCore, SessionError};
use wasm_bindgen::prelude::*;

/// The operations of [`SessionMachine::run`] (`driver.js` uses the same numbers). `id` is the
/// call (the wrapper's id for the Promise the effects settle) or the callback handle; `text`,
/// `extra` and `number` are what each one lists; the `now` of every operation is the clock.
pub mod op {
    /// The socket opened.
    pub const OPEN: u8 = 0;
    /// One text frame as received (`text`).
    pub const FRAME: u8 = 1;
    /// The socket closed.
    pub const CLOSED: u8 = 2;
    /// An error event or a failed connect (`text` names it; never holds the token).
    pub const ERROR: u8 = 3;
    /// The deadline given by [`NEXT_DEADLINE`] passed.
    pub const TICK: u8 = 4;
    /// Starts the session; settles `id` with the init info (JSON).
    pub const BEGIN: u8 = 5;
    /// Writes a user turn (`text`: a string or content-part array as JSON; `extra`: the otid).
    /// Returns an error.
    pub const SEND: u8 = 6;
    /// Interrupts the active turn; settles `id`.
    pub const ABORT: u8 = 7;
    /// `listMessages` (`text`: its options as JSON).
    pub const LIST_MESSAGES: u8 = 8;
    /// `listModels`.
    pub const LIST_MODELS: u8 = 9;
    /// `updateModel` (`text`: the request as JSON).
    pub const UPDATE_MODEL: u8 = 10;
    /// `removeQueuedMessage` (`text`: the item id).
    pub const REMOVE_QUEUED_MESSAGE: u8 = 11;
    /// `changeDeviceState` (`text`: the update as JSON). Returns an error.
    pub const CHANGE_DEVICE_STATE: u8 = 12;
    /// `getDeviceStatus` (`text`: its options as JSON).
    pub const GET_DEVICE_STATUS: u8 = 13;
    /// Whether device status listeners exist (`number`: 1 or 0).
    pub const SET_DEVICE_STATUS_LISTENING: u8 = 14;
    /// `recoverPendingApprovals` (`text`: its options as JSON).
    pub const RECOVER_PENDING_APPROVALS: u8 = 15;
    /// `sendCommand(command)` without options (`text`): written verbatim. Returns an error.
    pub const SEND_RAW: u8 = 16;
    /// `sendCommand(command, options)` (`text`: the command, `extra`: the response type,
    /// `number`: the timeout or 0): settles `id` with the answering frame (JSON).
    pub const SEND_COMMAND: u8 = 17;
    /// [`SEND_COMMAND`] with a predicate: candidate frames come out as `candidate` effects.
    pub const SEND_COMMAND_WITH_PREDICATE: u8 = 18;
    /// A management request (`text`: its fields as JSON, `extra`: its type, e.g. `agent_list`):
    /// settles `id` with the response frame (JSON).
    pub const MANAGEMENT: u8 = 19;
    /// Forgets a call the wrapper settled itself (a predicate accepted a frame or threw).
    pub const CANCEL_CALL: u8 = 20;
    /// The `canUseTool` callback's answer (`text`, JSON) for the `approval` effect `id`.
    pub const ANSWER_APPROVAL: u8 = 21;
    /// A tool's outcome (`text`: `{"result": …}` or `{"error": "…"}`) for the `tool` effect `id`.
    pub const FINISH_TOOL: u8 = 22;
    /// Ends the stream and rejects pending calls (their effects follow). Idempotent.
    pub const CLOSE: u8 = 23;
    /// Returns every pending effect as one JSON array (see [`super::write_effect`]), if any.
    pub const TAKE_EFFECTS: u8 = 24;
    /// Returns every `SDKMessage` available now as one JSON array, if any.
    pub const TAKE_MESSAGES: u8 = 25;
    /// Query ([`SessionMachine::query`]): when the `TICK` operation is due (ms since the epoch),
    /// `-1` for never.
    pub const NEXT_DEADLINE: u8 = 26;
    /// Query, a flag (`1` set, `0` not): `stream()` has nothing more to give (the session closed).
    pub const STREAM_ENDED: u8 = 27;
    /// Query, a flag: device status is wanted (else big status frames may be skipped unread).
    pub const WANTS_DEVICE_STATUS: u8 = 28;
    /// Query, a flag: a turn is active or queued.
    pub const HAS_IN_FLIGHT_TURN: u8 = 29;
    /// Query, a flag: the session is closed (`close()` or a transport loss).
    pub const IS_CLOSED: u8 = 30;
    /// Query, a flag: closed, but the socket stays open (bounded) while the server settles
    /// our work (`session::drain`).
    pub const IS_DRAINING: u8 = 31;
}

/// One session (or management connection): the core and nothing else.
#[wasm_bindgen]
pub struct SessionMachine {
    core: SessionCore,
}

#[wasm_bindgen]
impl SessionMachine {
    /// `config`: the session configuration the wrapper validated (`pkg-template/lib/options.js`):
    /// `{"requestTimeoutMs"?, "target", "options"}`. `nonce`: the client's request-id nonce.
    /// `undefined` when the configuration has another shape (the wrapper then throws).
    pub fn create(config: &str, nonce: &str) -> Option<SessionMachine> {
        let setup = read_session_config(config)?;
        let core = SessionCore::new(SessionConfig {
            label: "app-server",
            request_timeout_ms: setup.request_timeout_ms,
            options: setup.options,
            target: setup.target,
            nonce: nonce.to_owned(),
        });
        Some(SessionMachine { core })
    }

    /// Runs the operation `op` (see [`op`]). Returns the error of a synchronous call as
    /// `[name, code, message]` JSON, the batch of the `TAKE_*` operations, the answer of a
    /// query (a flag is `""` when set, `undefined` when not), else `undefined`.
    pub fn run(
        &mut self,
        op: u8,
        id: f64,
        text: &str,
        extra: Option<String>,
        number: f64,
        now: f64,
    ) -> Option<String> {
        let core = &mut self.core;
        let call = id as u32;
        let now = now as u64;
        match op {
            op::OPEN => core.on_open(now),
            op::FRAME => core.on_frame(text, now),
            op::CLOSED => core.on_transport_closed(now),
            op::ERROR => core.on_transport_error(text),
            op::TICK => core.on_tick(now),
            op::BEGIN => core.begin(call, now),
            op::SEND => return error_json(core.send(text, extra.as_deref(), now)),
            op::ABORT => core.abort(call, now),
            op::LIST_MESSAGES => core.list_messages(call, text, now),
            op::LIST_MODELS => core.list_models(call, now),
            op::UPDATE_MODEL => core.update_model(call, text, now),
            op::REMOVE_QUEUED_MESSAGE => core.remove_queued_message(call, text, now),
            op::CHANGE_DEVICE_STATE => return error_json(core.change_device_state(text)),
            op::GET_DEVICE_STATUS => core.get_device_status(call, text, now),
            op::SET_DEVICE_STATUS_LISTENING => core.set_device_status_listening(number != 0.0),
            op::RECOVER_PENDING_APPROVALS => core.recover_pending_approvals(call, text, now),
            op::SEND_RAW => return error_json(core.send_raw(text)),
            op::SEND_COMMAND | op::SEND_COMMAND_WITH_PREDICATE => {
                let timeout = (number >= 1.0).then_some(number as u64);
                let predicate = op == op::SEND_COMMAND_WITH_PREDICATE;
                core.send_command(call, text, extra.as_deref(), predicate, timeout, now)
            }
            op::MANAGEMENT => {
                let command_type = extra.as_deref().unwrap_or_default();
                let failure = failure_text(command_type);
                core.management(call, command_type, text, failure, now)
            }
            op::CANCEL_CALL => core.cancel_call(call),
            op::ANSWER_APPROVAL => core.answer_approval(id as u64, text),
            op::FINISH_TOOL => core.finish_tool(id as u64, text),
            op::CLOSE => core.close(now),
            op::TAKE_EFFECTS => return self.take_effects(),
            op::TAKE_MESSAGES => return self.take_messages(),
            _ => {}
        }
        None
    }

    /// Answers the query `op` (`NEXT_DEADLINE` and the flags of [`op`]) as a number, without
    /// crossing a string: the driver asks after every event, so this stays cheap.
    pub fn query(&self, op: u8) -> f64 {
        let core = &self.core;
        let set = match op {
            op::NEXT_DEADLINE => return core.next_deadline().map_or(-1.0, |at| at as f64),
            op::STREAM_ENDED => core.stream_ended(),
            op::WANTS_DEVICE_STATUS => core.wants_device_status(),
            op::HAS_IN_FLIGHT_TURN => core.has_in_flight_turn(),
            op::IS_CLOSED => core.is_closed(),
            op::IS_DRAINING => core.is_draining(),
            _ => false,
        };
        if set {
            1.0
        } else {
            0.0
        }
    }
}

impl SessionMachine {
    /// Every pending effect as one JSON array (see [`write_effect`]), or `None` if none.
    fn take_effects(&mut self) -> Option<String> {
        let mut batch = JsonArray::new();
        while let Some(effect) = self.core.pop_effect() {
            write_effect(batch.array(), effect);
        }
        batch.finish()
    }

    /// Every `SDKMessage` available now as one JSON array, or `None` when none is.
    fn take_messages(&mut self) -> Option<String> {
        let mut batch = JsonArray::new();
        while let Some(message) = self.core.pop_message() {
            batch.raw(&message);
        }
        batch.finish()
    }
}

/// `None`, or the error as `[name, code, message]` JSON.
fn error_json(result: Result<(), SessionError>) -> Option<String> {
    let error = result.err()?;
    let mut out = JsonArray::new();
    out.string(error.name)
        .string(error.code)
        .string(&error.message);
    out.finish()
}

/// One effect as a JSON array whose first element names it:
/// `["write", text]`, `["ok", call, json]`, `["error", call, name, code, message]`,
/// `["candidate", call, frame]`, `["approval", handle, toolName, input, context]`,
/// `["tool", handle, toolCallId, toolName, input]`, `["device", json]`, `["close"]`.
/// Texts are JSON strings (the wrapper parses the JSON inside them where it needs to).
fn write_effect(out: &mut JsonArray, effect: Effect) {
    match effect {
        Effect::Write(text) => {
            out.string("write").string(&text);
        }
        Effect::Complete {
            call,
            result: Ok(json),
        } => {
            out.string("ok").number(call.into()).string(&json);
        }
        Effect::Complete {
            call,
            result: Err(error),
        } => {
            out.string("error").number(call.into());
            out.string(error.name)
                .string(error.code)
                .string(&error.message);
        }
        Effect::Candidate { call, frame } => {
            out.string("candidate").number(call.into()).string(&frame);
        }
        Effect::AskApproval {
            handle,
            tool_name,
            input,
            context,
        } => {
            out.string("approval").number(handle).string(&tool_name);
            out.string(&input).string(&context);
        }
        Effect::RunTool {
            handle,
            tool_call_id,
            tool_name,
            input,
        } => {
            out.string("tool").number(handle).string(&tool_call_id);
            out.string(&tool_name).string(&input);
        }
        Effect::DeviceStatus(json) => {
            out.string("device").string(&json);
        }
        Effect::CloseTransport => {
            out.string("close");
        }
    }
    out.close();
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
