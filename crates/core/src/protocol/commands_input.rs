//! `input` commands: a user turn (`create_message`) or an approval reply (`approval_response`).

use super::runtime::Runtime;
use crate::json::{Object, Value};
use serde::Serialize;

/// `input`.
#[derive(Debug, Clone, Serialize)]
pub struct Input {
    /// Optional request id (the server answers `input_accepted` with it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// Target runtime.
    pub runtime: Runtime,
    /// The payload.
    pub payload: InputPayload,
}

/// `input.payload`, tagged by `kind`.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InputPayload {
    /// A user turn.
    CreateMessage(CreateMessage),
    /// A reply to a `can_use_tool` control request.
    ApprovalResponse(ApprovalResponse),
}

/// A user turn payload.
#[derive(Debug, Clone, Serialize)]
pub struct CreateMessage {
    /// Exactly one user message.
    pub messages: Vec<UserMessage>,
    /// Deduplicated `allowedTools`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_tool_allowlist: Option<Vec<String>>,
    /// Toolset preference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_toolset: Option<ClientToolset>,
    /// Structured output format (native mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_format: Option<Object<'static>>,
    /// Always `true`.
    pub exclude_interactive_tools: bool,
}

/// The user message of a turn.
#[derive(Debug, Clone, Serialize)]
pub struct UserMessage {
    /// Always `"user"`.
    pub role: &'static str,
    /// A string or content-part array, passed unchanged.
    pub content: Value<'static>,
    /// Correlation id (the caller's otid, else `sdk-message-<ms>-<n>`).
    pub client_message_id: String,
    /// Present only when the caller gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub otid: Option<String>,
}

/// `client_toolset`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ClientToolset {
    /// Base toolset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Extra tools (deduplicated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include: Option<Vec<String>>,
}

/// An approval reply payload.
#[derive(Debug, Clone, Serialize)]
pub struct ApprovalResponse {
    /// The control request's id (`perm-<tool_call_id>`).
    pub request_id: String,
    /// The decision.
    pub decision: ApprovalDecision,
}

/// `decision`, tagged by `behavior`. `interrupt` is never transmitted.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "behavior", rename_all = "lowercase")]
pub enum ApprovalDecision {
    /// Allow the tool call.
    Allow {
        /// Optional message.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        /// Replacement input; sent as `null` when not given.
        updated_input: Option<Object<'static>>,
        /// Always an array.
        selected_permission_suggestion_ids: Vec<String>,
    },
    /// Deny the tool call.
    Deny {
        /// Why.
        message: String,
    },
}
