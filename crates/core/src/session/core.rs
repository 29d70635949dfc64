//! The session state machine (spec §1.5, §3.3–§3.12), sans-IO.
//!
//! The transport feeds it what happened (`on_open`, `on_frame`, `on_transport_closed`,
//! `on_tick`) and the JS layer feeds it calls (`send`, `list_messages`, …). It answers with
//! [`Effect`]s (frames to write, calls to complete, callbacks to run) and `SDKMessage`s for
//! `stream()`. It never reads a clock: every entry point takes `now` (ms);
//! [`SessionCore::next_deadline`] says when to call [`SessionCore::on_tick`].

use super::approvals::Approvals;
use super::coordinator::TurnCoordinator;
use super::device::DeviceWaiters;
use super::drain::Closing;
use super::error::SessionError;
use super::handlers::{QueueItems, ToolRuns};
use super::handshake::StartSequence;
use super::ids::RequestIds;
use super::options::{SessionOptions, DEFAULT_REQUEST_TIMEOUT_MS};
use super::reconnect::{Connections, LinkEffect, WriteGate};
use super::repeats::RecentFrames;
use super::requests::{earlier, CallId, Pending, Purpose, RequestTable, ResponseMatch};
use crate::protocol::commands::Command;
use crate::protocol::runtime::Runtime;
use std::collections::VecDeque;

/// What the session is started for (spec §3.4 step 3).
#[derive(Debug, Clone)]
pub enum Target {
    /// `createAgent()`: a throw-away session in create-agent mode.
    CreateAgent {
        /// `create_agent.body`.
        body: crate::json::Object<'static>,
        pin_global: bool,
        /// `false` disables memfs (no `enable_memfs` after start).
        memfs: bool,
    },
    /// `createSession(agentId)`: a new conversation.
    NewConversation { agent_id: String },
    /// `resumeSession(agentId)`: the agent's `default` conversation.
    ResumeAgent { agent_id: String },
    /// `resumeSession("conv-…")`: an existing conversation (its agent is looked up first).
    ResumeConversation { conversation_id: String },
    /// `query()`: an agent-free conversation, created with `body` or resumed by id.
    AgentFree {
        /// `create_conversation.body` (`model`, `system`, …) for a new conversation.
        body: Option<crate::protocol::commands::CreateConversationBody>,
        /// An existing agent-free conversation to resume.
        conversation_id: Option<String>,
        /// `disableMemoryGuard`: every start sends `execution_settings` with the guard off.
        disable_memory_guard: bool,
    },
    /// The pooled management connection of a client: requests only, no runtime.
    Management,
    /// A Cloud session (spec §4.6) whose runtime was resolved over REST (`crate::cloud::start`):
    /// the Cloud `runtime_start` (no create fields), then the un-correlated `sync`. After an
    /// idle transport drop the session reopens on the same runtime (spec §3.11). Only with the
    /// `cloud` feature (and in tests): the browser `/client` build has no Cloud sessions.
    Cloud { runtime: Runtime },
}

/// Everything a session is created with.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// `app-server` (used in texts and synthetic uuids).
    pub label: &'static str,
    /// `requestTimeoutMs` of the client.
    pub request_timeout_ms: Option<u64>,
    pub options: SessionOptions,
    pub target: Target,
    /// Per-client nonce of request ids.
    pub nonce: String,
}

/// Something the I/O layer must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Write this frame on the socket.
    Write(String),
    /// Settle an API call: `Ok` holds the JSON text of its result.
    Complete {
        call: CallId,
        result: Result<String, SessionError>,
    },
    /// Run `canUseTool(toolName, input, context)`; answer with `answer_approval(handle, …)`.
    /// Handles are `u32` so that they cross to JavaScript as a Number on every build: a `u64`
    /// crosses as a BigInt, which the React Native (wasm2js) build cannot pass.
    AskApproval {
        handle: u32,
        tool_name: String,
        input: String,
        context: String,
    },
    /// Run an SDK-hosted tool's `execute`; answer with `finish_tool(handle, …)`.
    RunTool {
        handle: u32,
        tool_call_id: String,
        tool_name: String,
        input: String,
    },
    /// A frame echoing a `sendCommand` request with a predicate: the caller's predicate
    /// decides; call `cancel_call` once it accepted one.
    Candidate { call: CallId, frame: String },
    /// A device status snapshot (JSON) for `onDeviceStatus` listeners.
    DeviceStatus(String),
    /// Close the socket (and the standby, if any).
    CloseTransport,
    /// Work on the session's other connections (see `reconnect`).
    Link(LinkEffect),
    /// A connection change for `onConnectionChange` listeners (JSON: `{type:"reconnecting",
    /// live}` or `{type:"reconnected"}`).
    Connection(&'static str),
}

/// Where the start sequence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Waiting for the socket to open.
    Connecting,
    /// `conversation_retrieve` sent.
    Retrieving,
    /// `runtime_start` sent.
    Starting,
    /// `enable_memfs` sent.
    EnablingMemfs,
    /// `set_reflection_settings` sent.
    Reflecting,
    /// `update_model` sent.
    UpdatingModel,
    /// Initialized.
    Ready,
    /// The start failed; the session can only be discarded.
    Failed,
}

/// One session (or management connection) of one client.
#[derive(Debug)]
pub struct SessionCore {
    pub(super) config: SessionConfig,
    pub(super) ids: RequestIds,
    /// Where the start sequence is, and the calls waiting for it (see `handshake`).
    pub(super) startup: StartSequence,
    pub(super) model: String,
    pub(super) tools: Vec<String>,
    pub(super) coordinator: Option<TurnCoordinator>,
    pub(super) requests: RequestTable,
    pub(super) approvals: Approvals,
    /// SDK-hosted tool calls being executed, by handle (see `handlers::hosted`).
    pub(super) tool_runs: ToolRuns,
    pub(super) devices: DeviceWaiters,
    pub(super) device_listening: bool,
    pub(super) effects: VecDeque<Effect>,
    /// Counter for generated `client_message_id`s.
    pub(super) sent_messages: u64,
    /// Server queue items of this session and the messages they carry.
    pub(super) queue_items: QueueItems,
    /// Closed or not, and the drain of a closed session's socket (see `drain`).
    pub(super) closing: Closing,
    /// The broadcast frames accepted lately: their repeats are dropped unparsed.
    pub(super) recent_frames: RecentFrames,
    /// The standby socket, the runtime a dropped session reopens, unacknowledged input and
    /// retry timers (see `reconnect`).
    pub(super) connections: Connections,
    /// Writes held while an input waits for the standby (see `reconnect::gate`).
    pub(super) gate: WriteGate,
    /// Inputs are echoed into the stream when their turn starts (a chat's session, see
    /// `coordinator::echo`).
    pub(super) echo_inputs: bool,
}

impl SessionCore {
    /// A session that will start when its transport opens.
    pub fn new(config: SessionConfig) -> Self {
        let ids = RequestIds::new(config.nonce.clone());
        let connections = Connections::seeded(SessionCore::jitter_seed(&config.nonce));
        SessionCore {
            config,
            ids,
            startup: StartSequence::default(),
            model: String::new(),
            tools: Vec::new(),
            coordinator: None,
            requests: RequestTable::default(),
            approvals: Approvals::default(),
            tool_runs: ToolRuns::default(),
            devices: DeviceWaiters::default(),
            device_listening: false,
            effects: VecDeque::new(),
            sent_messages: 0,
            queue_items: QueueItems::default(),
            closing: Closing::default(),
            recent_frames: RecentFrames::default(),
            connections,
            gate: WriteGate::default(),
            echo_inputs: false,
        }
    }

    /// Registers the call that `initialize()` completes (with the init info, or the error).
    /// The socket must open within the request timeout.
    pub fn begin(&mut self, call: CallId, now: u64) {
        if self.is_closed() {
            return self.complete(call, Err(SessionError::session_closed()));
        }
        match self.startup.phase() {
            Phase::Ready => {
                let info = self.init_info();
                self.complete(call, Ok(info));
            }
            Phase::Failed => {
                self.complete(call, Err(SessionError::state("Session failed to start")))
            }
            _ => {
                self.startup.wait(call);
                self.reopen_for_call(now);
                let at = now.saturating_add(self.request_timeout());
                self.startup.expect_socket(at);
            }
        }
    }

    /// The timeout of requests: `requestTimeoutMs`, else 30 000 ms.
    pub(super) fn request_timeout(&self) -> u64 {
        self.config
            .request_timeout_ms
            .unwrap_or(DEFAULT_REQUEST_TIMEOUT_MS)
    }

    /// Device status frames are needed (listeners, or a `getDeviceStatus()` call waiting).
    pub fn wants_device_status(&self) -> bool {
        self.device_listening || !self.devices.is_empty()
    }

    /// True once the start sequence succeeded and the session is not closed.
    pub fn is_ready(&self) -> bool {
        self.startup.is_ready() && !self.is_closed()
    }

    /// True after `close()` or a transport loss.
    pub fn is_closed(&self) -> bool {
        self.closing.is_closed()
    }

    /// The runtime, once started.
    pub fn runtime(&self) -> Option<&Runtime> {
        self.startup.runtime()
    }

    /// The next thing the I/O layer must do.
    pub fn pop_effect(&mut self) -> Option<Effect> {
        self.effects.pop_front()
    }

    /// The next `SDKMessage` for `stream()`, as JSON.
    pub fn pop_message(&mut self) -> Option<String> {
        self.coordinator
            .as_mut()
            .and_then(|c| c.pop_message())
            .map(|m| m.to_json())
    }

    /// Every `SDKMessage` waiting for `stream()`, as one JSON array; `None` when none waits.
    pub fn take_messages_json(&mut self) -> Option<String> {
        self.coordinator.as_mut()?.take_messages_json()
    }

    /// True when `stream()` will never get another message.
    pub fn stream_ended(&self) -> bool {
        self.is_closed() && self.coordinator.as_ref().is_none_or(|c| c.is_closed())
    }

    /// True while a turn is active or queued.
    pub fn has_in_flight_turn(&self) -> bool {
        self.coordinator
            .as_ref()
            .is_some_and(|c| c.has_in_flight_turn())
    }

    /// The earliest time `on_tick` must run.
    pub fn next_deadline(&self) -> Option<u64> {
        let coordinator = self.coordinator.as_ref().and_then(|c| c.next_deadline());
        let requests = earlier(self.requests.next_deadline(), self.devices.next_deadline());
        let own = earlier(
            earlier(self.startup.connect_deadline(), self.closing.deadline()),
            coordinator,
        );
        earlier(earlier(own, requests), self.reconnect_deadline())
    }

    /// Fires due timers: request timeouts, device-status waits, coordinator graces.
    pub fn on_tick(&mut self, now: u64) {
        if self.startup.connect_overdue(now) && !self.reopen_timed_out(now) {
            self.fail_start(SessionError::timeout(
                "Timed out waiting for the app-server WebSocket to open",
            ));
        }
        while let Some(pending) = self.requests.take_due(now) {
            let error =
                SessionError::timeout("Timed out waiting for ".to_owned() + &pending.request_id);
            self.fail_pending(pending, error);
        }
        while let Some(call) = self.devices.take_due(now) {
            self.requests.remove_call(call);
            let label = self.config.label;
            self.complete(
                call,
                Err(SessionError::timeout(
                    "Timed out waiting for ".to_owned() + label + " device status",
                )),
            );
        }
        if let Some(c) = self.coordinator.as_mut() {
            c.on_tick(now);
        }
        self.reconnect_tick(now);
        self.drain_tick(now);
    }

    /// The socket opened: start the session (or, for a management connection, be ready).
    pub fn on_open(&mut self, now: u64) {
        if self.is_closed() || !self.startup.socket_opened() {
            return;
        }
        self.start(now);
    }

    /// The socket failed before opening (a reopen retries, see `reconnect`).
    pub fn on_transport_error(&mut self, detail: &str, now: u64) {
        if self.restart_lost_start(detail, now) {
            return;
        }
        if self.startup.phase() == Phase::Connecting && !self.is_closed() {
            self.fail_start(SessionError::connection(
                "App-server WebSocket failed to open: ".to_owned() + detail,
            ));
        }
    }

    /// Sends `command` and registers its `<type>_response` frame as the answer for `purpose`.
    pub(super) fn request(
        &mut self,
        command: &Command,
        request_id: String,
        purpose: Purpose,
        timeout_ms: Option<u64>,
        now: u64,
    ) {
        let matcher = ResponseMatch::Reply(command.type_str());
        self.send_request(
            command.to_json(),
            request_id,
            matcher,
            purpose,
            timeout_ms,
            now,
        );
    }

    /// Writes a request frame and registers which frame answers it, and what for (within
    /// `timeout_ms`, else the request timeout).
    pub(super) fn send_request(
        &mut self,
        frame: String,
        request_id: String,
        matcher: ResponseMatch,
        purpose: Purpose,
        timeout_ms: Option<u64>,
        now: u64,
    ) {
        let timeout = timeout_ms.unwrap_or_else(|| self.request_timeout());
        self.requests.insert(Pending {
            request_id,
            matcher,
            purpose,
            deadline: now.saturating_add(timeout),
        });
        self.write(frame);
    }

    /// Settles every call waiting for initialization with `result`.
    pub(super) fn settle_init(&mut self, result: Result<String, SessionError>) {
        for call in self.startup.take_waiting() {
            self.complete(call, result.clone());
        }
    }

    /// Queues an effect for the I/O layer: the one way a decision of any concern leaves the
    /// core (the queue itself is written here only).
    pub(super) fn emit(&mut self, effect: Effect) {
        self.effects.push_back(effect);
    }

    /// Settles an API call with `result`.
    pub(super) fn complete(&mut self, call: CallId, result: Result<String, SessionError>) {
        self.emit(Effect::Complete { call, result });
    }

    fn fail_pending(&mut self, pending: Pending, error: SessionError) {
        match pending.purpose {
            Purpose::Handshake => self.fail_start(error),
            Purpose::Call(call, _) | Purpose::DeviceSync(call) => {
                self.devices.remove(call);
                self.complete(call, Err(error));
            }
        }
    }

    pub(super) fn reject_all(&mut self, error: SessionError) {
        while let Some(pending) = self.requests.take_due(u64::MAX) {
            if let Purpose::Call(call, _) = pending.purpose {
                self.complete(call, Err(error.clone()));
            }
        }
        let label = self.config.label;
        while let Some(call) = self.devices.take_due(u64::MAX) {
            self.complete(
                call,
                Err(SessionError::closed(
                    "Session closed while waiting for ".to_owned() + label + " device status",
                )),
            );
        }
    }

    /// Forgets a call's pending request without settling it (the JS side settled it).
    pub fn cancel_call(&mut self, call: CallId) {
        self.requests.remove_call(call);
        self.devices.remove(call);
    }

    /// `Session is closed` / not yet initialized, for calls that need a running session.
    pub(super) fn ready_runtime(&self) -> Result<Runtime, SessionError> {
        if self.is_closed() {
            return Err(SessionError::session_closed());
        }
        match (self.runtime(), self.startup.phase()) {
            (Some(runtime), Phase::Ready) => Ok(runtime.clone()),
            _ => Err(SessionError::state("Session is not initialized")),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_calls;
#[cfg(test)]
mod tests_cloud;
#[cfg(test)]
mod tests_reconnect;
#[cfg(test)]
mod tests_reopen;
#[cfg(test)]
mod tests_repeats;
