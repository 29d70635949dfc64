//! The calls that only need an open connection: the listings (`listMessages`, `listModels`),
//! `sendCommand` and the management requests. Their arguments are checked and their requests
//! built by the free functions below; the session checks it is open and issues the decision.

use super::super::core::SessionCore;
use super::super::error::SessionError;
use super::super::ids::RequestIds;
use super::super::options::{positive_integer, text};
use super::super::requests::{CallId, Purpose, ResponseMatch, Shape};
use super::{options_of, timeout_option, CallRequest};
use crate::json::{Object, Value};
use crate::protocol::commands::{Command, ConversationMessagesList, ListModels, MessagesQuery};
use std::borrow::Cow;

impl SessionCore {
    /// `listMessages({conversationId?, before?, after?, order?, limit?})`.
    pub fn list_messages(&mut self, call: CallId, options_json: &str, now: u64) {
        if !self.open_for(call) {
            return;
        }
        let conversation_id = self.runtime().map(|r| r.conversation_id.as_str());
        let decision = list_messages_request(&self.ids, call, options_json, conversation_id);
        self.issue(call, decision, now);
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
        let purpose = Purpose::Call(call, Shape::ListModels);
        self.issue(
            call,
            Ok(CallRequest::reply(&command, request_id, purpose)),
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

    /// `sendCommand(command, {responseType?, timeoutMs?, predicate?})` (`options_json`: the
    /// first two; `has_predicate`: the wrapper keeps the third): writes
    /// `{type, request_id, ...rest}` (a caller-supplied `request_id` wins) and settles with the
    /// first echoing frame of `responseType` (any typed frame without one); with a predicate,
    /// echoing frames are offered as [`super::super::core::Effect::Candidate`]s.
    pub fn send_command(
        &mut self,
        call: CallId,
        command_json: &str,
        options_json: &str,
        has_predicate: bool,
        now: u64,
    ) {
        if !self.open_for(call) {
            return;
        }
        let decision = command_request(&self.ids, call, command_json, options_json, has_predicate);
        self.issue(call, decision, now);
    }

    /// A management request (`agent_list`, `conversation_fork`, …): writes
    /// `{type, request_id, ...fields}` and settles with the `<type>_response` frame once its
    /// `success` is checked (with the reference's text for the command when the server gives
    /// none).
    pub fn management(&mut self, call: CallId, command_type: &str, fields_json: &str, now: u64) {
        if !self.open_for(call) {
            return;
        }
        let request = management_request(&self.ids, call, command_type, fields_json);
        self.issue(call, Ok(request), now);
    }
}

/// `listMessages`' request: the conversation (the options', else the session's own) and the
/// page query; no conversation, or a bad `limit`, is the call's error.
fn list_messages_request(
    ids: &RequestIds,
    call: CallId,
    options_json: &str,
    own_conversation: Option<&str>,
) -> Result<CallRequest, SessionError> {
    let options = options_of(options_json);
    let conversation_id = options
        .get("conversationId")
        .non_empty_str()
        .or(own_conversation)
        .map(str::to_owned)
        .ok_or_else(|| SessionError::invalid("No conversation id available for listMessages()"))?;
    let limit = positive_integer(options.get("limit"))
        .map_err(|_| SessionError::invalid("Invalid limit. Expected a positive integer."))?;
    let request_id = ids.next("conversation-messages-list");
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
    let purpose = Purpose::Call(call, Shape::ListMessages);
    Ok(CallRequest::reply(&command, request_id, purpose))
}

/// `sendCommand`'s request: the checked command as `{type, request_id, ...rest}`, answered as
/// its options say (`responseType`, a predicate, or any typed frame) within `timeoutMs`.
fn command_request(
    ids: &RequestIds,
    call: CallId,
    command_json: &str,
    options_json: &str,
    has_predicate: bool,
) -> Result<CallRequest, SessionError> {
    let options = options_of(options_json);
    let command = validate_command(command_json)?;
    let timeout_ms = timeout_option(&options)?;
    let response_type = options.get("responseType").as_str();
    let command_type = command.get("type").as_str().unwrap_or_default();
    let request_id = command
        .get("request_id")
        .as_str()
        .map_or_else(|| ids.next(command_type), str::to_owned);
    let matcher = match (has_predicate, response_type) {
        (true, _) => ResponseMatch::Candidates,
        (false, Some(t)) => ResponseMatch::Type(t.to_owned()),
        (false, None) => ResponseMatch::AnyTyped,
    };
    Ok(CallRequest {
        frame: command_frame(command_type, &request_id, &command),
        request_id,
        matcher,
        purpose: Purpose::Call(call, Shape::Frame),
        timeout_ms,
    })
}

/// A management request: `{type, request_id, ...fields}`, answered by its `<type>_response`
/// frame once `success` is checked.
fn management_request(
    ids: &RequestIds,
    call: CallId,
    command_type: &str,
    fields_json: &str,
) -> CallRequest {
    let failure = management_failure(command_type);
    let fields = options_of(fields_json);
    let request_id = ids.next(command_type);
    CallRequest {
        frame: command_frame(command_type, &request_id, &fields),
        request_id,
        matcher: ResponseMatch::Type(command_type.to_owned() + "_response"),
        purpose: Purpose::Call(call, Shape::Checked(failure)),
        timeout_ms: None,
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
