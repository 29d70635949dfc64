//! `runtime_start` (spec §3.4): the fields the reference client sends to start a runtime.

use crate::json::{Members, Object, ToJson};

/// `client_info` of `runtime_start`.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    /// Client package name.
    pub name: String,
    /// Display title.
    pub title: String,
}

impl Default for ClientInfo {
    fn default() -> Self {
        ClientInfo {
            name: "@letta-ai/letta-agent-sdk".to_owned(),
            title: "Letta Agent SDK".to_owned(),
        }
    }
}

/// `runtime_start`. Exactly one target shape is set by the caller (create agent, agent +
/// new/default/given conversation, or agent-free).
#[derive(Debug, Clone)]
pub struct RuntimeStart {
    /// Caller-generated request id.
    pub request_id: String,
    /// Always sent.
    pub client_info: ClientInfo,
    /// `false` on start.
    pub recover_approvals: bool,
    /// `true` on start.
    pub force_device_status: bool,
    /// Permission mode; always sent (`"standard"` by default).
    pub mode: String,
    /// Working directory.
    pub cwd: Option<String>,
    /// `true` for stateless sessions; omitted otherwise.
    pub stateless: Option<bool>,
    /// Deduplicated skill sources; `[]` is meaningful and sent.
    pub skill_sources: Option<Vec<String>>,
    /// SDK/MCP tools hosted by the client.
    pub external_tools: Option<Vec<ExternalToolGroup>>,
    /// Existing agent.
    pub agent_id: Option<String>,
    /// Existing conversation (`"default"` allowed).
    pub conversation_id: Option<String>,
    /// Create-agent mode.
    pub create_agent: Option<CreateAgent>,
    /// New conversation.
    pub create_conversation: Option<CreateConversation>,
}

impl RuntimeStart {
    /// A start frame with the always-present fields set as the reference sends them.
    pub fn new(request_id: impl Into<String>, mode: impl Into<String>) -> Self {
        RuntimeStart {
            request_id: request_id.into(),
            client_info: ClientInfo::default(),
            recover_approvals: false,
            force_device_status: true,
            mode: mode.into(),
            cwd: None,
            stateless: None,
            skill_sources: None,
            external_tools: None,
            agent_id: None,
            conversation_id: None,
            create_agent: None,
            create_conversation: None,
        }
    }
}

/// One `external_tools` group.
#[derive(Debug, Clone)]
pub struct ExternalToolGroup {
    /// Tool definitions.
    pub tools: Vec<ExternalToolSpec>,
}

/// An SDK-hosted tool definition.
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone)]
pub struct CreateAgent {
    /// Agent creation body (built by the caller).
    pub body: Object<'static>,
    /// `pinGlobalAgent`, else `hidden !== true`.
    pub pin_global: bool,
    /// `Some(false)` when memfs is disabled; omitted otherwise.
    pub memfs: Option<bool>,
}

/// `create_conversation` of `runtime_start`: `{body: {}}` for a session, or the agent-free body.
#[derive(Debug, Clone, Default)]
pub struct CreateConversation {
    /// Conversation body.
    pub body: CreateConversationBody,
}

/// Body of `create_conversation` (all optional; `{}` for ordinary sessions).
#[derive(Debug, Clone, Default)]
pub struct CreateConversationBody {
    /// Model handle (agent-free).
    pub model: Option<String>,
    /// System prompt (agent-free).
    pub system: Option<String>,
    /// Parent agent.
    pub parent_agent_id: Option<String>,
    /// Conversation name.
    pub name: Option<String>,
    /// Subagent flag.
    pub is_subagent: Option<bool>,
    /// Model settings, as given.
    pub model_settings: Option<Object<'static>>,
    /// Context window limit.
    pub context_window_limit: Option<u64>,
}

impl RuntimeStart {
    /// Writes the fields after the command's `type`.
    pub(super) fn write_members(&self, m: &mut Members<'_>) {
        m.string("request_id", &self.request_id)
            .serialize("client_info", &self.client_info)
            .bool("recover_approvals", self.recover_approvals)
            .bool("force_device_status", self.force_device_status)
            .string("mode", &self.mode)
            .opt_string("cwd", &self.cwd)
            .opt_bool("stateless", self.stateless)
            .opt("skill_sources", &self.skill_sources)
            .opt("external_tools", &self.external_tools)
            .opt_string("agent_id", &self.agent_id)
            .opt_string("conversation_id", &self.conversation_id)
            .opt("create_agent", &self.create_agent)
            .opt("create_conversation", &self.create_conversation);
    }
}

impl ToJson for ClientInfo {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.string("name", &self.name).string("title", &self.title);
        m.close();
    }
}

impl ToJson for ExternalToolGroup {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.serialize("tools", &self.tools);
        m.close();
    }
}

impl ToJson for ExternalToolSpec {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.string("name", &self.name)
            .string("label", &self.label)
            .string("description", &self.description)
            .serialize("parameters", &self.parameters);
        m.close();
    }
}

impl ToJson for CreateAgent {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.serialize("body", &self.body)
            .bool("pin_global", self.pin_global)
            .opt_bool("memfs", self.memfs);
        m.close();
    }
}

impl ToJson for CreateConversation {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.serialize("body", &self.body);
        m.close();
    }
}

impl ToJson for CreateConversationBody {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.opt_string("model", &self.model)
            .opt_string("system", &self.system)
            .opt_string("parent_agent_id", &self.parent_agent_id)
            .opt_string("name", &self.name)
            .opt_bool("is_subagent", self.is_subagent)
            .opt("model_settings", &self.model_settings);
        if let Some(limit) = self.context_window_limit {
            m.u64("context_window_limit", limit);
        }
        m.close();
    }
}
