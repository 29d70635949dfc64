//! `runtime_start` (spec §3.4): the fields the reference client sends to start a runtime.

use crate::json::Object;
use serde::Serialize;

/// `client_info` of `runtime_start`: always the reference SDK's.
#[derive(Debug, Clone, Serialize)]
pub struct ClientInfo {
    /// Client package name.
    pub name: &'static str,
    /// Display title.
    pub title: &'static str,
}

impl Default for ClientInfo {
    fn default() -> Self {
        ClientInfo {
            name: "@letta-ai/letta-agent-sdk",
            title: "Letta Agent SDK",
        }
    }
}

/// `runtime_start`. Exactly one target shape is set by the caller (create agent, agent +
/// new/default/given conversation, or agent-free).
#[derive(Debug, Clone, Serialize)]
pub struct RuntimeStart {
    /// Caller-generated request id.
    pub request_id: String,
    /// Always sent.
    pub client_info: ClientInfo,
    /// `false` on start.
    pub recover_approvals: bool,
    /// `true` on start.
    pub force_device_status: bool,
    /// Permission mode; sent on every start (`"standard"` by default). `None` leaves the
    /// conversation's mode as it is (a second socket on a running session).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Working directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// `true` for stateless sessions; omitted otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stateless: Option<bool>,
    /// Deduplicated skill sources; `[]` is meaningful and sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_sources: Option<Vec<String>>,
    /// `true` keeps the conversation's skill sources when `skill_sources` is absent (which
    /// otherwise clears them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserve_skill_sources: Option<bool>,
    /// SDK/MCP tools hosted by the client.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_tools: Option<Vec<ExternalToolGroup>>,
    /// Existing agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Existing conversation (`"default"` allowed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    /// Create-agent mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_agent: Option<CreateAgent>,
    /// New conversation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_conversation: Option<CreateConversation>,
    /// The conversation's launch options; only `query({disableMemoryGuard: true})` sends them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_settings: Option<ExecutionSettings>,
}

impl RuntimeStart {
    /// A start frame with the always-present fields set as the reference sends them.
    pub fn new(request_id: impl Into<String>, mode: impl Into<String>) -> Self {
        RuntimeStart {
            request_id: request_id.into(),
            client_info: ClientInfo::default(),
            recover_approvals: false,
            force_device_status: true,
            mode: Some(mode.into()),
            cwd: None,
            stateless: None,
            skill_sources: None,
            preserve_skill_sources: None,
            external_tools: None,
            agent_id: None,
            conversation_id: None,
            create_agent: None,
            create_conversation: None,
            execution_settings: None,
        }
    }
}

/// `execution_settings` of `runtime_start` (letta-code's `RuntimeExecutionSettings`: the CLI
/// launch options a listener keeps per conversation). The app server takes the memory guard
/// only here, and only with both permission rule lists, which stay empty (the CLI's defaults).
#[derive(Debug, Clone, Serialize)]
pub struct ExecutionSettings {
    /// Extra allow rules: none (`[]`).
    pub allowed_tools: [String; 0],
    /// Extra deny rules: none (`[]`).
    pub disallowed_tools: [String; 0],
    /// Turns off the guard that keeps the agent's tools out of other agents' memory.
    pub disable_memory_guard: bool,
}

impl ExecutionSettings {
    /// The default settings with the memory guard off.
    pub fn without_memory_guard() -> Self {
        ExecutionSettings {
            allowed_tools: [],
            disallowed_tools: [],
            disable_memory_guard: true,
        }
    }
}

/// One `external_tools` group.
#[derive(Debug, Clone, Serialize)]
pub struct ExternalToolGroup {
    /// Tool definitions.
    pub tools: Vec<ExternalToolSpec>,
}

/// An SDK-hosted tool definition.
#[derive(Debug, Clone, Serialize)]
pub struct ExternalToolSpec {
    /// Tool name.
    pub name: String,
    /// Display label.
    pub label: String,
    /// Description for the model.
    pub description: String,
    /// JSON Schema of the parameters.
    pub parameters: Object<'static>,
}

/// `create_agent` of `runtime_start`.
#[derive(Debug, Clone, Serialize)]
pub struct CreateAgent {
    /// Agent creation body (built by the caller).
    pub body: Object<'static>,
    /// `pinGlobalAgent`, else `hidden !== true`.
    pub pin_global: bool,
    /// `Some(false)` when memfs is disabled; omitted otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memfs: Option<bool>,
}

/// `create_conversation` of `runtime_start`: `{body: {}}` for a session, or the agent-free body.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CreateConversation {
    /// Conversation body.
    pub body: CreateConversationBody,
}

/// Body of `create_conversation` (all optional; `{}` for ordinary sessions).
#[derive(Debug, Clone, Default, Serialize)]
pub struct CreateConversationBody {
    /// Model handle (agent-free).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// System prompt (agent-free).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// Parent agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_agent_id: Option<String>,
    /// Conversation name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Subagent flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_subagent: Option<bool>,
    /// Model settings, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_settings: Option<Object<'static>>,
    /// Context window limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_window_limit: Option<u64>,
}
