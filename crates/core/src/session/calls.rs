//! The session's API calls (spec §1.5, §3.5): each validates its arguments, writes its command
//! and registers how the response settles the call.

use super::core::{Phase, SessionCore};
use super::error::SessionError;
use super::options::{normalize_permission_mode, positive_integer, text};
use super::requests::{CallId, Purpose, ResponseMatch, Shape};
use crate::json::{write_u64, Object, Value};
use crate::protocol::commands::{
    ChangeDeviceState, Command, ConversationMessagesList, CreateMessage, DeviceStatePayload, Input,
    InputPayload, ListModels, MessagesQuery, ModelPayload, RemoveQueueItem, RuntimeRequest, Sync,
    UpdateModel, UserMessage,
};
use crate::protocol::runtime::Runtime;
use std::borrow::Cow;

impl SessionCore {
    /// `send(message, {otid})`: writes the `input` frame and tracks the turn. `content_json` is
    /// the message (a string or an array of content parts), passed to the wire unchanged.
    pub fn send(
        &mut self,
        content_json: &str,
        otid: Option<&str>,
        now: u64,
    ) -> Result<(), SessionError> {
        self.send_input(content_json, otid, None, now)
    }

    /// [`Self::send`] with the `response_format` the input carries (JSON text; structured
    /// output in native mode, chosen by the wrapper). A format that is not JSON is left out.
    pub fn send_input(
        &mut self,
        content_json: &str,
        otid: Option<&str>,
        response_format: Option<&str>,
        now: u64,
    ) -> Result<(), SessionError> {
        let runtime = self.ready_runtime()?;
        if otid.is_some_and(|o| o.trim().is_empty()) {
            return Err(SessionError::invalid(
                "send() otid must be a non-empty string",
            ));
        }
        let content = crate::json::parse(content_json)
            .filter(|value| matches!(value, Value::String(_) | Value::Array(_)))
            .ok_or_else(|| {
                SessionError::invalid(
                    "send() message must be a string or an array of content parts",
                )
            })?;
        // A chat shows the text it sent when the turn starts (`coordinator::echo`).
        let echo = self
            .echo_inputs
            .then(|| crate::json::content_text(&content).map(|t| t.into_owned()))
            .flatten();
        self.sent_messages += 1;
        let client_message_id = match otid {
            Some(otid) => otid.to_owned(),
            None => {
                let mut id = String::from("sdk-message-");
                write_u64(&mut id, now);
                id.push('-');
                write_u64(&mut id, self.sent_messages);
                id
            }
        };
        let options = &self.config.options;
        let request_id = self.ids.next("input");
        let command = Command::Input(Input {
            request_id: Some(request_id.clone()),
            runtime,
            payload: InputPayload::CreateMessage(CreateMessage {
                messages: vec![UserMessage {
                    role: "user",
                    content: content.into_static(),
                    client_message_id: client_message_id.clone(),
                    otid: otid.map(str::to_owned),
                }],
                client_tool_allowlist: options.allowed_tools.clone(),
                client_toolset: options.toolset.clone(),
                response_format: response_format
                    .and_then(Object::parse)
                    .map(Object::into_static),
                exclude_interactive_tools: true,
            }),
        });
        if let Some(c) = self.coordinator.as_mut() {
            let otid = otid.map(str::to_owned);
            match echo {
                Some(text) => c.track_echoed_turn(now, client_message_id.clone(), otid, text),
                None => c.track_sent_turn(now, client_message_id.clone(), otid),
            }
            c.note_input_request(&client_message_id, &request_id);
        }
        self.write_input(request_id, command.to_json(), now);
        Ok(())
    }

    /// `abort()`: marks the active turn abort-requested and sends `abort_message`. A no-op
    /// (settled at once) when the session never started or is closed.
    pub fn abort(&mut self, call: CallId, now: u64) {
        let Ok(runtime) = self.ready_runtime() else {
            return self.complete(call, Ok(String::from("null")));
        };
        if let Some(c) = self.coordinator.as_mut() {
            c.request_abort();
        }
        let request_id = self.ids.next("abort");
        let command = Command::AbortMessage(RuntimeRequest {
            request_id: request_id.clone(),
            runtime,
        });
        self.request(
            &command,
            request_id,
            Purpose::Call(call, Shape::Abort),
            None,
            now,
        );
    }

    /// `listMessages({conversationId?, before?, after?, order?, limit?})`.
    pub fn list_messages(&mut self, call: CallId, options_json: &str, now: u64) {
        if !self.open_for(call) {
            return;
        }
        let options = Object::parse(options_json).unwrap_or_default();
        let conversation_id = options
            .get("conversationId")
            .non_empty_str()
            .map(str::to_owned)
            .or_else(|| self.runtime.as_ref().map(|r| r.conversation_id.clone()));
        let Some(conversation_id) = conversation_id else {
            let error = SessionError::invalid("No conversation id available for listMessages()");
            return self.complete(call, Err(error));
        };
        let limit = match positive_integer(options.get("limit")) {
            Ok(limit) => limit,
            Err(_) => {
                let error = SessionError::invalid("Invalid limit. Expected a positive integer.");
                return self.complete(call, Err(error));
            }
        };
        let request_id = self.ids.next("conversation-messages-list");
        let command = Command::ConversationMessagesList(ConversationMessagesList {
            request_id: request_id.clone(),
            conversation_id,
            query: MessagesQuery {
                before: text(&options, "before"),
                after: text(&options, "after"),
                order: text(&options, "order"),
                limit,
            },
        });
        self.request(
            &command,
            request_id,
            Purpose::Call(call, Shape::ListMessages),
            None,
            now,
        );
    }

    /// `listModels()` (also `client.models.list()`).
    pub fn list_models(&mut self, call: CallId, now: u64) {
        if !self.open_for(call) {
            return;
        }
        let request_id = self.ids.next("list_models");
        let command = Command::ListModels(ListModels {
            request_id: request_id.clone(),
            force: None,
        });
        self.request(
            &command,
            request_id,
            Purpose::Call(call, Shape::ListModels),
            None,
            now,
        );
    }

    /// `updateModel(model | {model?, modelId?, modelHandle?, reasoningEffort?})`.
    pub fn update_model(&mut self, call: CallId, request_json: &str, now: u64) {
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        if self.config.options.stateless {
            let error = SessionError::state("updateModel() is unavailable in a stateless session because it changes persistent model configuration.");
            return self.complete(call, Err(error));
        }
        let payload = match crate::json::parse(request_json) {
            Some(Value::String(model)) if !model.trim().is_empty() => {
                ModelPayload::from_model(&model)
            }
            Some(Value::Object(o)) => {
                let mut payload = o
                    .get("model")
                    .as_str()
                    .map(ModelPayload::from_model)
                    .unwrap_or_default();
                if let Some(id) = text(&o, "modelId") {
                    payload.model_id = Some(id);
                }
                if let Some(handle) = text(&o, "modelHandle") {
                    payload.model_handle = Some(handle);
                }
                payload.reasoning_effort = text(&o, "reasoningEffort");
                payload
            }
            _ => {
                let error = SessionError::invalid("updateModel() expects a model string or {model, modelId, modelHandle, reasoningEffort}.");
                return self.complete(call, Err(error));
            }
        };
        let request_id = self.ids.next("update_model");
        let command = Command::UpdateModel(UpdateModel {
            request_id: request_id.clone(),
            runtime,
            payload,
        });
        self.request(
            &command,
            request_id,
            Purpose::Call(call, Shape::UpdateModel),
            None,
            now,
        );
    }

    /// `removeQueuedMessage(itemId)`.
    pub fn remove_queued_message(&mut self, call: CallId, item_id: &str, now: u64) {
        if item_id.trim().is_empty() {
            let error =
                SessionError::invalid("Invalid queue item id. Expected a non-empty string.");
            return self.complete(call, Err(error));
        }
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        let request_id = self.ids.next("remove_queue_item");
        let command = Command::RemoveQueueItem(RemoveQueueItem {
            request_id: request_id.clone(),
            runtime,
            item_id: item_id.to_owned(),
        });
        let matcher = ResponseMatch::QueueItem(item_id.to_owned());
        let purpose = Purpose::Call(call, Shape::RemoveQueueItem);
        self.send_request(command.to_json(), request_id, matcher, purpose, None, now);
    }

    /// `changeDeviceState({cwd?, permissionMode?})`: fire-and-forget.
    pub fn change_device_state(&mut self, update_json: &str) -> Result<(), SessionError> {
        let runtime = self.ready_runtime()?;
        let update = Object::parse(update_json).unwrap_or_default();
        let cwd = text(&update, "cwd");
        let mode = update
            .get("permissionMode")
            .as_str()
            .map(|m| normalize_permission_mode(Some(m)).to_owned());
        if cwd.is_none() && mode.is_none() {
            return Err(SessionError::invalid(
                "Invalid device state update. Expected cwd or permissionMode.",
            ));
        }
        let command = Command::ChangeDeviceState(ChangeDeviceState {
            runtime,
            payload: DeviceStatePayload { cwd, mode },
        });
        self.write(command.to_json());
        Ok(())
    }

    /// `getDeviceStatus({timeoutMs?})`.
    pub fn get_device_status(&mut self, call: CallId, options_json: &str, now: u64) {
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        let options = Object::parse(options_json).unwrap_or_default();
        let timeout = match positive_integer(options.get("timeoutMs")) {
            Ok(t) => t.unwrap_or_else(|| self.request_timeout()),
            Err(_) => {
                let error = SessionError::invalid(
                    "Invalid device status timeout. Expected a positive integer.",
                );
                return self.complete(call, Err(error));
            }
        };
        let deadline = now.saturating_add(timeout);
        self.devices.add(call, deadline);
        let request_id = self.ids.next("sync");
        let command = Command::Sync(Sync {
            request_id: Some(request_id.clone()),
            runtime,
            recover_approvals: false,
            force_device_status: true,
        });
        // The wait's own deadline reports the timeout; the request outlives it by a moment.
        let purpose = Purpose::DeviceSync(call);
        self.request(&command, request_id, purpose, Some(timeout + 1), now);
    }

    /// `recoverPendingApprovals({timeoutMs?})`.
    pub fn recover_pending_approvals(&mut self, call: CallId, options_json: &str, now: u64) {
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        let options = Object::parse(options_json).unwrap_or_default();
        let Ok(timeout) = positive_integer(options.get("timeoutMs")) else {
            let error = SessionError::invalid("Invalid timeoutMs. Expected a positive integer.");
            return self.complete(call, Err(error));
        };
        let request_id = self.ids.next("sync");
        let command = Command::Sync(Sync {
            request_id: Some(request_id.clone()),
            runtime,
            recover_approvals: true,
            force_device_status: true,
        });
        self.request(
            &command,
            request_id,
            Purpose::Call(call, Shape::RecoverApprovals),
            timeout,
            now,
        );
    }

    /// `sendCommand(command)` without options: written verbatim, settles nothing.
    pub fn send_raw(&mut self, command_json: &str) -> Result<(), SessionError> {
        self.open_for_calls()?;
        validate_command(command_json)?;
        self.write(command_json.to_owned());
        Ok(())
    }

    /// `sendCommand(command, {responseType?, timeoutMs?, predicate?})`: writes
    /// `{type, request_id, ...rest}` (a caller-supplied `request_id` wins) and settles with the
    /// first echoing frame of `response_type` (any typed frame without one); with a predicate,
    /// echoing frames are offered as [`super::core::Effect::Candidate`]s.
    pub fn send_command(
        &mut self,
        call: CallId,
        command_json: &str,
        response_type: Option<&str>,
        has_predicate: bool,
        timeout_ms: Option<u64>,
        now: u64,
    ) {
        if !self.open_for(call) {
            return;
        }
        let command = match validate_command(command_json) {
            Ok(command) => command,
            Err(error) => return self.complete(call, Err(error)),
        };
        let command_type = command.get("type").as_str().unwrap_or_default();
        let request_id = command
            .get("request_id")
            .as_str()
            .map_or_else(|| self.ids.next(command_type), str::to_owned);
        let frame = command_frame(command_type, &request_id, &command);
        let matcher = match (has_predicate, response_type) {
            (true, _) => ResponseMatch::Candidates,
            (false, Some(t)) => ResponseMatch::Type(t.to_owned()),
            (false, None) => ResponseMatch::AnyTyped,
        };
        let purpose = Purpose::Call(call, Shape::Frame);
        self.send_request(frame, request_id, matcher, purpose, timeout_ms, now);
    }

    /// A management request (`agent_list`, `conversation_fork`, …): writes
    /// `{type, request_id, ...fields}` and settles with the `<type>_response` frame once its
    /// `success` is checked (with the reference's text for the command when the server gives
    /// none).
    pub fn management(&mut self, call: CallId, command_type: &str, fields_json: &str, now: u64) {
        if !self.open_for(call) {
            return;
        }
        let failure = management_failure(command_type);
        let fields = Object::parse(fields_json).unwrap_or_default();
        let request_id = self.ids.next(command_type);
        let frame = command_frame(command_type, &request_id, &fields);
        let matcher = ResponseMatch::Type(command_type.to_owned() + "_response");
        let purpose = Purpose::Call(call, Shape::Checked(failure));
        self.send_request(frame, request_id, matcher, purpose, None, now);
    }

    /// The running session's runtime; without one, settles `call` with the reason.
    fn runtime_for(&mut self, call: CallId) -> Option<Runtime> {
        match self.ready_runtime() {
            Ok(runtime) => Some(runtime),
            Err(error) => {
                self.complete(call, Err(error));
                None
            }
        }
    }

    /// [`SessionCore::open_for_calls`], settling `call` with the error when it is not.
    fn open_for(&mut self, call: CallId) -> bool {
        match self.open_for_calls() {
            Ok(()) => true,
            Err(error) => {
                self.complete(call, Err(error));
                false
            }
        }
    }

    /// Calls that only need an open connection (management calls, raw commands, listings).
    fn open_for_calls(&self) -> Result<(), SessionError> {
        if self.closed {
            return Err(SessionError::session_closed());
        }
        if self.phase != Phase::Ready {
            return Err(SessionError::state("Session is not initialized"));
        }
        Ok(())
    }
}

/// `{type, request_id, ...members}` (the `type` and `request_id` members are not repeated).
fn command_frame(command_type: &str, request_id: &str, members: &Object<'_>) -> String {
    let mut frame = Object::new();
    frame.push("type", Value::String(Cow::Borrowed(command_type)));
    frame.push("request_id", Value::String(Cow::Borrowed(request_id)));
    for (key, value) in members.members() {
        if key != "type" && key != "request_id" {
            frame.push(key, value.clone());
        }
    }
    crate::json::to_string(&frame)
}

/// A protocol command: a non-array object with a non-empty string `type`.
fn validate_command(command_json: &str) -> Result<Object<'_>, SessionError> {
    let command = Object::parse(command_json).ok_or_else(|| {
        SessionError::invalid("Invalid command. Expected a protocol command object.")
    })?;
    match command.get("type") {
        Value::String(t) if !t.is_empty() => Ok(command),
        _ => Err(SessionError::invalid(
            "Invalid command. Expected a non-empty type.",
        )),
    }
}

/// The text a management request fails with when the server gives none (the reference's).
fn management_failure(command_type: &str) -> &'static str {
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
