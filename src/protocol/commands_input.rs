//! `input` commands: a user turn (`create_message`) or an approval reply (`approval_response`).

use super::runtime::Runtime;
use crate::json::{Members, Object, ToJson, Value};

/// `input`.
#[derive(Debug, Clone)]
pub struct Input {
    /// Optional request id (the server answers `input_accepted` with it).
    pub request_id: Option<String>,
    /// Target runtime.
    pub runtime: Runtime,
    /// The payload.
    pub payload: InputPayload,
}

/// `input.payload`, tagged by `kind`.
#[derive(Debug, Clone)]
pub enum InputPayload {
    /// A user turn.
    CreateMessage(CreateMessage),
    /// A reply to a `can_use_tool` control request.
    ApprovalResponse(ApprovalResponse),
}

/// A user turn payload.
#[derive(Debug, Clone)]
pub struct CreateMessage {
    /// Exactly one user message.
    pub messages: Vec<UserMessage>,
    /// Deduplicated `allowedTools`.
    pub client_tool_allowlist: Option<Vec<String>>,
    /// Toolset preference.
    pub client_toolset: Option<ClientToolset>,
    /// Structured output format (native mode).
    pub response_format: Option<Object<'static>>,
    /// Always `true`.
    pub exclude_interactive_tools: bool,
}

/// The user message of a turn.
#[derive(Debug, Clone)]
pub struct UserMessage {
    /// Always `"user"`.
    pub role: &'static str,
    /// A string or content-part array, passed unchanged.
    pub content: Value<'static>,
    /// Correlation id (the caller's otid, else `sdk-message-<ms>-<n>`).
    pub client_message_id: String,
    /// Present only when the caller gave one.
    pub otid: Option<String>,
}

/// `client_toolset`.
#[derive(Debug, Clone, Default)]
pub struct ClientToolset {
    /// Base toolset.
    pub base: Option<String>,
    /// Extra tools (deduplicated).
    pub include: Option<Vec<String>>,
}

/// An approval reply payload.
#[derive(Debug, Clone)]
pub struct ApprovalResponse {
    /// The control request's id (`perm-<tool_call_id>`).
    pub request_id: String,
    /// The decision.
    pub decision: ApprovalDecision,
}

/// `decision`, tagged by `behavior`. `interrupt` is never transmitted.
#[derive(Debug, Clone)]
pub enum ApprovalDecision {
    /// Allow the tool call.
    Allow {
        /// Optional message.
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

impl Input {
    /// Writes the fields after the command's `type`.
    pub(super) fn write_members(&self, m: &mut Members<'_>) {
        m.opt_string("request_id", &self.request_id)
            .serialize("runtime", &self.runtime)
            .serialize("payload", &self.payload);
    }
}

impl ToJson for InputPayload {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        match self {
            InputPayload::CreateMessage(c) => {
                m.string("kind", "create_message")
                    .serialize("messages", &c.messages)
                    .opt("client_tool_allowlist", &c.client_tool_allowlist)
                    .opt("client_toolset", &c.client_toolset)
                    .opt("response_format", &c.response_format)
                    .bool("exclude_interactive_tools", c.exclude_interactive_tools);
            }
            InputPayload::ApprovalResponse(r) => {
                m.string("kind", "approval_response")
                    .string("request_id", &r.request_id)
                    .serialize("decision", &r.decision);
            }
        }
        m.close();
    }
}

impl ToJson for UserMessage {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.string("role", self.role)
            .value("content", &self.content)
            .string("client_message_id", &self.client_message_id)
            .opt_string("otid", &self.otid);
        m.close();
    }
}

impl ToJson for ClientToolset {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.opt_string("base", &self.base)
            .opt("include", &self.include);
        m.close();
    }
}

impl ToJson for ApprovalDecision {
    /// `{"behavior": "allow" | "deny", …}`; `updated_input` is `null` when not given.
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        match self {
            ApprovalDecision::Allow {
                message,
                updated_input,
                selected_permission_suggestion_ids,
            } => {
                m.string("behavior", "allow")
                    .opt_string("message", message)
                    .serialize("updated_input", updated_input)
                    .serialize(
                        "selected_permission_suggestion_ids",
                        selected_permission_suggestion_ids,
                    );
            }
            ApprovalDecision::Deny { message } => {
                m.string("behavior", "deny").string("message", message);
            }
        }
        m.close();
    }
}
