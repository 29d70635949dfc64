//! Frames the session answers itself (spec §3.6): `can_use_tool` control requests, SDK-hosted
//! tool calls (`external_tool_call_request`) and device status snapshots.

use super::approvals::{ApprovalKey, Disposition};
use super::core::{Effect, SessionCore};
use super::error::SessionError;
use super::options::text;
use super::requests::CallId;
use super::responses::response_error;
use crate::json::{Object, Value};
use crate::protocol::commands::{
    ApprovalDecision, ApprovalResponse, Command, ExternalToolCallResponse, ExternalToolContent,
    ExternalToolResult, Input, InputPayload,
};
use crate::protocol::device_status::DeviceStatusFrame;
use crate::protocol::frames::{
    ControlRequestFrame, ExternalToolCallRequestFrame, ParsedFrame, QueueUpdateFrame,
};
use crate::protocol::runtime::Runtime;
pub(super) use hosted::{QueueItems, ToolRuns};
use serde::Serialize;

impl SessionCore {
    /// True when a frame addresses this session's runtime (frames without scope are ours).
    fn owns(&self, frame: &ParsedFrame<'_>) -> bool {
        self.runtime()
            .as_ref()
            .is_some_and(|r| frame.scope.matches(r))
    }

    /// `update_queue`: remembers which item carries which of our messages, and forgets the
    /// tracked turns of items the server cancelled (they will never run).
    pub(super) fn on_queue_update(
        &mut self,
        frame: &ParsedFrame<'_>,
        queue: &QueueUpdateFrame<'_>,
    ) {
        if !self.owns(frame) {
            return;
        }
        let ours = queue.queue.iter().filter_map(|item| {
            let client_message_id = item.client_message_id.as_deref()?;
            Some((item.id.as_ref().to_owned(), client_message_id.to_owned()))
        });
        self.queue_items.replace(ours);
        for removed in &queue.removed {
            if removed.disposition.as_deref() == Some("cancelled") {
                if let (Some(id), Some(c)) = (
                    removed.client_message_id.as_deref(),
                    self.coordinator.as_mut(),
                ) {
                    c.remove_tracked_turn(id);
                }
            }
        }
    }

    /// `removeQueuedMessage` succeeded: the item's tracked turn will never run.
    pub(super) fn forget_queue_item(&mut self, item_id: &str) {
        let Some(client_message_id) = self.queue_items.take(item_id) else {
            return;
        };
        if let Some(c) = self.coordinator.as_mut() {
            c.remove_tracked_turn(&client_message_id);
        }
    }

    pub(super) fn on_control_request(
        &mut self,
        frame: &ParsedFrame<'_>,
        request: &ControlRequestFrame<'_>,
    ) {
        if request.subtype.as_deref() != Some("can_use_tool") {
            return;
        }
        // A frame that addresses this session names exactly its runtime.
        let (true, Some(runtime), Some(request_id)) = (
            self.owns(frame),
            self.runtime().cloned(),
            frame.request_id.as_deref(),
        ) else {
            return;
        };
        let tool_name = request.tool_name.as_deref().unwrap_or("unknown");
        let key = ApprovalKey {
            agent_id: runtime.agent_id.clone(),
            conversation_id: runtime.conversation_id.clone(),
            request_id: request_id.to_owned(),
        };
        let options = &self.config.options;
        let disposition = self.approvals.dispose(
            key,
            tool_name,
            options.mode == "unrestricted",
            options.has_can_use_tool,
            options.auto_allowed_tools.iter().any(|t| t == tool_name),
        );
        match disposition {
            Disposition::Ignore => {}
            Disposition::Resend(decision) | Disposition::Decide(decision) => {
                self.send_decision(runtime, request_id.to_owned(), decision);
            }
            Disposition::Ask { handle } => {
                let blocked_path = &request.blocked_path;
                let context = crate::json::to_string(&ApprovalContext {
                    request_id,
                    tool_call_id: request.tool_call_id.as_deref(),
                    permission_suggestions: request.permission_suggestions.as_ref(),
                    blocked_path: matches!(blocked_path, Value::String(_) | Value::Null)
                        .then_some(blocked_path),
                    diffs: request.diffs.as_ref(),
                });
                self.emit(Effect::AskApproval {
                    handle,
                    tool_name: tool_name.to_owned(),
                    input: input_json(request.input.as_ref()),
                    context,
                });
            }
        }
    }

    /// The `canUseTool` callback answered (`response_json`: its return value, or
    /// `{behavior:"deny", message}` built from a thrown error).
    pub fn answer_approval(&mut self, handle: u32, response_json: &str) {
        if self.is_closed() {
            return;
        }
        if let Some((key, decision)) = self.approvals.answer(handle, response_json) {
            let runtime = Runtime {
                agent_id: key.agent_id,
                conversation_id: key.conversation_id,
            };
            self.send_decision(runtime, key.request_id, decision);
        }
    }

    /// `respondToApproval(toolCallId, decision)`: answers the approval of a tool call without
    /// the `canUseTool` callback (one recovered after a reload, or a chat's own answer); the
    /// request is the app server's `perm-<toolCallId>`. A request answered already is left as
    /// it is.
    pub fn respond_to_approval(
        &mut self,
        tool_call_id: &str,
        response_json: &str,
    ) -> Result<(), SessionError> {
        let runtime = self.ready_runtime()?;
        if tool_call_id.trim().is_empty() {
            return Err(SessionError::invalid(
                "Invalid toolCallId. Expected a non-empty string.",
            ));
        }
        let key = ApprovalKey {
            agent_id: runtime.agent_id.clone(),
            conversation_id: runtime.conversation_id.clone(),
            request_id: "perm-".to_owned() + tool_call_id,
        };
        let request_id = key.request_id.clone();
        if let Some(decision) = self.approvals.respond(key, response_json) {
            self.send_decision(runtime, request_id, decision);
        }
        Ok(())
    }

    fn send_decision(&mut self, runtime: Runtime, request_id: String, decision: ApprovalDecision) {
        let command = Command::Input(Input {
            request_id: None,
            runtime,
            payload: InputPayload::ApprovalResponse(ApprovalResponse {
                request_id,
                decision,
            }),
        });
        self.write(command.to_json());
    }

    pub(super) fn on_tool_request(
        &mut self,
        frame: &ParsedFrame<'_>,
        request: &ExternalToolCallRequestFrame<'_>,
    ) {
        if !self.owns(frame) {
            return;
        }
        let Some(request_id) = frame.request_id.as_deref() else {
            return;
        };
        let tool_name = request.tool_name.as_deref().unwrap_or("");
        if !self
            .config
            .options
            .tools
            .iter()
            .any(|t| t.name == tool_name)
        {
            let error = "Unknown external tool: ".to_owned() + tool_name;
            return self.send_tool_response(request_id.to_owned(), None, Some(error));
        }
        let handle = self.tool_runs.start(request_id.to_owned());
        self.emit(Effect::RunTool {
            handle,
            tool_call_id: request.tool_call_id.as_deref().unwrap_or("").to_owned(),
            tool_name: tool_name.to_owned(),
            input: input_json(request.input.as_ref()),
        });
    }

    /// A tool's `execute` settled: `outcome_json` is `{"result": {content, isError?}}` or
    /// `{"error": "<message>"}`.
    pub fn finish_tool(&mut self, handle: u32, outcome_json: &str) {
        let Some(request_id) = self.tool_runs.finish(handle) else {
            return;
        };
        if self.is_closed() {
            return;
        }
        let outcome = Object::parse(outcome_json).unwrap_or_default();
        match outcome.object("result") {
            Some(result) => {
                let mut content = Vec::new();
                for part in result.array("content").unwrap_or_default() {
                    let Some(part) = part.as_object() else {
                        continue;
                    };
                    content.push(ExternalToolContent {
                        content_type: text(part, "type").unwrap_or_else(|| "text".to_owned()),
                        text: text(part, "text"),
                        data: text(part, "data"),
                        mime_type: text(part, "mimeType"),
                    });
                }
                let is_error = (result.bool("isError") == Some(true)).then_some(true);
                let result = ExternalToolResult { content, is_error };
                self.send_tool_response(request_id, Some(result), None);
            }
            None => {
                let error = outcome
                    .get("error")
                    .as_str()
                    .unwrap_or("External tool failed");
                self.send_tool_response(request_id, None, Some(error.to_owned()));
            }
        }
    }

    fn send_tool_response(
        &mut self,
        request_id: String,
        result: Option<ExternalToolResult>,
        error: Option<String>,
    ) {
        let command = Command::ExternalToolCallResponse(ExternalToolCallResponse {
            request_id,
            result,
            error,
        });
        self.write(command.to_json());
    }

    pub(super) fn on_device_status(
        &mut self,
        frame: &ParsedFrame<'_>,
        status: &DeviceStatusFrame<'_>,
    ) {
        if !self.owns(frame) {
            return;
        }
        let Some(projected) = status.project() else {
            return;
        };
        let json = projected.json;
        self.devices.on_status(&json);
        while let Some((call, status)) = self.devices.take_done() {
            self.complete(call, Ok(status));
        }
        if self.device_listening {
            self.emit(Effect::DeviceStatus(json));
        }
    }

    pub(super) fn on_device_sync(&mut self, call: CallId, frame: &ParsedFrame<'_>) {
        let response = Object::parse(frame.raw).unwrap_or_default();
        if response.bool("success") != Some(true) {
            self.devices.remove(call);
            let error = response_error(&response, "Failed to sync device status");
            return self.complete(call, Err(error));
        }
        self.devices.on_synced(call);
        while let Some((call, status)) = self.devices.take_done() {
            self.complete(call, Ok(status));
        }
    }

    /// Whether `onDeviceStatus` listeners exist (device status frames are parsed only then, or
    /// while a `getDeviceStatus()` call waits).
    pub fn set_device_status_listening(&mut self, listening: bool) {
        self.device_listening = listening;
    }
}

/// The context of a `canUseTool` call (`requestId`, and what the request carried).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ApprovalContext<'r> {
    request_id: &'r str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'r str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_suggestions: Option<&'r Value<'r>>,
    /// A string or `null`; omitted when missing or of another type.
    #[serde(skip_serializing_if = "Option::is_none")]
    blocked_path: Option<&'r Value<'r>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diffs: Option<&'r Value<'r>>,
}

/// A tool input as JSON text for the JS callback (`{}` when there is none).
fn input_json(input: Option<&Value<'_>>) -> String {
    input.map_or_else(|| String::from("{}"), crate::json::to_string)
}

mod hosted;
