//! Management commands over the app server (spec §3.10): wire bodies with snake_case keys.
//! The camelCase facade options map onto these fields one to one (see [`order_by_to_wire`]).

use crate::json::Object;
use serde::Serialize;

/// Maps a facade `orderBy` value to its wire spelling (`createdAt` → `created_at`, …); other
/// values pass through unchanged.
pub fn order_by_to_wire(value: &str) -> &str {
    match value {
        "createdAt" => "created_at",
        "lastRunCompletion" => "last_run_completion",
        "lastMessageAt" => "last_message_at",
        other => other,
    }
}

/// A command naming one agent (`agent_retrieve`, `agent_delete`, `enable_memfs`).
#[derive(Debug, Clone, Serialize)]
pub struct AgentRef {
    /// Caller-generated request id.
    pub request_id: String,
    /// The agent.
    pub agent_id: String,
}

/// `agent_list`.
#[derive(Debug, Clone, Serialize)]
pub struct AgentList {
    /// Caller-generated request id.
    pub request_id: String,
    /// Filters.
    pub query: AgentListQuery,
}

/// `agent_list.query`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AgentListQuery {
    /// Cursor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// Cursor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// `asc` | `desc`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// Wire order key (see [`order_by_to_wire`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// Free-text search (facade `query`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_text: Option<String>,
    /// Exact name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Require all tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_all_tags: Option<bool>,
    /// Relations to include.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include: Option<Vec<String>>,
}

/// `agent_update`.
#[derive(Debug, Clone, Serialize)]
pub struct AgentUpdate {
    /// Caller-generated request id.
    pub request_id: String,
    /// The agent.
    pub agent_id: String,
    /// Changed fields.
    pub body: AgentUpdateBody,
}

/// `agent_update.body`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AgentUpdateBody {
    /// Name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Model handle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Model settings, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_settings: Option<Object<'static>>,
    /// System prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// Tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Hidden flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Context window limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_window_limit: Option<u64>,
}

/// `conversation_list`.
#[derive(Debug, Clone, Serialize)]
pub struct ConversationList {
    /// Caller-generated request id.
    pub request_id: String,
    /// Filters.
    pub query: ConversationListQuery,
}

/// `conversation_list.query`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ConversationListQuery {
    /// Agent filter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Cursor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// `asc` | `desc`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// Wire order key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// Archive filter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive_status: Option<String>,
    /// Summary search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary_search: Option<String>,
}

/// `conversation_create`.
#[derive(Debug, Clone, Serialize)]
pub struct ConversationCreate {
    /// Caller-generated request id.
    pub request_id: String,
    /// Creation body.
    pub body: ConversationCreateBody,
}

/// `conversation_create.body`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ConversationCreateBody {
    /// Owning agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Model handle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Model settings, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_settings: Option<Object<'static>>,
    /// Context window limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_window_limit: Option<u64>,
    /// Hidden flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
}

/// `conversation_update`.
#[derive(Debug, Clone, Serialize)]
pub struct ConversationUpdate {
    /// Caller-generated request id.
    pub request_id: String,
    /// The conversation.
    pub conversation_id: String,
    /// Changed fields.
    pub body: ConversationUpdateBody,
}

/// `conversation_update.body`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ConversationUpdateBody {
    /// Summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Model handle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Model settings, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_settings: Option<Object<'static>>,
    /// Context window limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_window_limit: Option<u64>,
    /// Archived flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
}

/// `conversation_fork`.
#[derive(Debug, Clone, Serialize)]
pub struct ConversationFork {
    /// Caller-generated request id.
    pub request_id: String,
    /// The conversation to fork.
    pub conversation_id: String,
    /// Fork options.
    pub body: ConversationForkBody,
}

/// `conversation_fork.body`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ConversationForkBody {
    /// Fork point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Hidden flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
}
