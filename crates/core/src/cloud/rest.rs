//! REST calls of session start (spec §4.2): agent creation, conversations, recompile and the
//! repositories attached to an agent. Each call is a builder returning an [`HttpRequest`] and
//! a parser taking the [`HttpResponse`]; paths follow the generated client (a trailing slash on
//! collection POSTs, `agent_id` in the query of conversation create).

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The default model of a Cloud agent.
pub const DEFAULT_AGENT_MODEL: &str = "letta/auto";
/// The first tag of every agent the SDK creates.
pub const ORIGIN_TAG: &str = "origin:letta-code";
/// The tag added when the agent's memory is a git-backed MemFS (`memfs`, default on).
pub const GIT_MEMORY_TAG: &str = "git-memory-enabled";

/// Body of `POST /v1/agents/` (letta-code's `buildCreateAgentRequest`, Cloud variant).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CreateAgentBody {
    /// Model handle (default `letta/auto`).
    pub model: String,
    /// Custom system prompt, or `null` for the server's default.
    pub system: Option<String>,
    /// `origin:letta-code`, `git-memory-enabled` (with memfs), then the caller's tags.
    pub tags: Vec<String>,
    /// Name, only if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Description, only if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Embedding model, only if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding: Option<String>,
    /// Memory blocks, passed through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_blocks: Option<Value>,
    /// Existing block ids, passed through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_ids: Option<Value>,
    /// `baseTools`: the server-side tools, exactly (with the two flags below `false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Value>,
    /// `false` with `tools`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_base_tools: Option<bool>,
    /// `false` with `tools`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_base_tool_rules: Option<bool>,
    /// Hidden agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
}

fn opt_string(o: &Value, key: &str) -> Option<String> {
    o.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The create body from the options `pkg-template/lib/agent-creation.js` checked (wire names,
/// plus `memfs`): Letta Cloud's defaults and tags on top.
pub fn create_agent_body(options: &Value) -> CloudResult<CreateAgentBody> {
    let get = |key: &str| options.get(key).filter(|v| !v.is_null());
    let model = match get("model") {
        None => DEFAULT_AGENT_MODEL.to_owned(),
        Some(Value::String(m)) if !m.trim().is_empty() => m.clone(),
        Some(other) => {
            let shown = other.as_str().unwrap_or_default();
            return Err(CloudError::invalid(format!("Unknown model: {shown}")));
        }
    };
    let mut tags = vec![ORIGIN_TAG.to_owned()];
    if get("memfs").and_then(Value::as_bool) != Some(false) {
        tags.push(GIT_MEMORY_TAG.to_owned());
    }
    if let Some(Value::Array(list)) = get("tags") {
        tags.extend(list.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    Ok(CreateAgentBody {
        model,
        system: opt_string(options, "system"),
        tags,
        name: opt_string(options, "name"),
        description: opt_string(options, "description"),
        embedding: opt_string(options, "embedding"),
        memory_blocks: get("memory_blocks").cloned(),
        block_ids: get("block_ids").cloned(),
        tools: get("tools").cloned(),
        include_base_tools: get("include_base_tools").and_then(Value::as_bool),
        include_base_tool_rules: get("include_base_tool_rules").and_then(Value::as_bool),
        hidden: get("hidden").and_then(Value::as_bool),
    })
}

/// `POST /v1/agents/`.
pub fn create_agent(rb: &RequestBuilder, body: &CreateAgentBody) -> HttpRequest {
    rb.json(Method::Post, "/v1/agents/", &Query::new(), body)
}

#[derive(Deserialize)]
struct WithId {
    #[serde(default)]
    id: Option<String>,
}

fn id_of(response: HttpResponse<'_>, missing: &str) -> CloudResult<String> {
    let body = response.ok()?;
    serde_json::from_str::<WithId>(body)
        .ok()
        .and_then(|r| r.id)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| CloudError::bad_response(missing))
}

/// The agent id of a create-agent response.
pub fn parse_created_agent(response: HttpResponse<'_>) -> CloudResult<String> {
    id_of(
        response,
        "Cloud create agent response did not include an agent id.",
    )
}

/// `POST /v1/conversations/?agent_id=<id>` with an empty body (a session's new conversation).
pub fn create_conversation(rb: &RequestBuilder, agent_id: &str) -> HttpRequest {
    let query = Query::new().push("agent_id", agent_id);
    rb.json(
        Method::Post,
        "/v1/conversations/",
        &query,
        &serde_json::json!({}),
    )
}

/// The conversation id of a create-conversation response.
pub fn parse_created_conversation(response: HttpResponse<'_>) -> CloudResult<String> {
    id_of(
        response,
        "Cloud createSession() response did not include a conversation id.",
    )
}

/// `GET /v1/conversations/<id>`.
pub fn retrieve_conversation(rb: &RequestBuilder, conversation_id: &str) -> HttpRequest {
    let path = format!("/v1/conversations/{}", segment(conversation_id));
    rb.request(Method::Get, &path, &Query::new(), Body::None)
}

/// The agent of a conversation (`agent_id`).
pub fn parse_conversation_agent(
    response: HttpResponse<'_>,
    conversation_id: &str,
) -> CloudResult<String> {
    #[derive(Deserialize)]
    struct Conversation {
        #[serde(default)]
        agent_id: Option<String>,
    }
    let body = response.ok()?;
    serde_json::from_str::<Conversation>(body)
        .ok()
        .and_then(|c| c.agent_id)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| {
            CloudError::bad_response(format!(
                "Cloud conversation {conversation_id} did not include an agent id."
            ))
        })
}

/// Body of `POST /v1/conversations/ephemeral` (`query()`, spec §1.7).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EphemeralConversationBody {
    /// Model handle.
    pub model: String,
    /// System prompt.
    pub system: String,
    /// Model settings, passed through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_settings: Option<Value>,
    /// Context window limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_window_limit: Option<u64>,
}

/// `POST /v1/conversations/ephemeral`.
pub fn create_ephemeral_conversation(
    rb: &RequestBuilder,
    body: &EphemeralConversationBody,
) -> HttpRequest {
    rb.json(
        Method::Post,
        "/v1/conversations/ephemeral",
        &Query::new(),
        body,
    )
}

/// The id of the agent-free conversation.
pub fn parse_ephemeral_conversation(response: HttpResponse<'_>) -> CloudResult<String> {
    id_of(
        response,
        "Cloud query() response did not include a conversation id.",
    )
}

/// `POST /v1/agents/<id>/recompile` (the agent prompt, for the `default` conversation) or
/// `POST /v1/conversations/<id>/recompile` with `{agent_id}`.
pub fn recompile(rb: &RequestBuilder, agent_id: &str, conversation_id: &str) -> HttpRequest {
    if conversation_id == "default" {
        let path = format!("/v1/agents/{}/recompile", segment(agent_id));
        rb.request(Method::Post, &path, &Query::new(), Body::None)
    } else {
        let path = format!("/v1/conversations/{}/recompile", segment(conversation_id));
        let body = serde_json::json!({ "agent_id": agent_id });
        rb.json(Method::Post, &path, &Query::new(), &body)
    }
}

/// Access of an attached repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepositoryPermissions {
    /// `read`.
    Read,
    /// `read_write`.
    ReadWrite,
}

/// A repository attached to an agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentRepository {
    /// Repository id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The agent's primary repository.
    pub is_primary: bool,
    /// Access.
    pub permissions: RepositoryPermissions,
}

fn agent_repositories_path(agent_id: &str) -> String {
    format!("/v1/agents/{}/repositories", segment(agent_id))
}

/// `GET /v1/agents/<id>/repositories`.
pub fn list_agent_repositories(rb: &RequestBuilder, agent_id: &str) -> HttpRequest {
    let path = agent_repositories_path(agent_id);
    rb.request(Method::Get, &path, &Query::new(), Body::None)
}

/// `POST /v1/agents/<id>/repositories` `{repository_id, permissions?}`.
pub fn attach_agent_repository(
    rb: &RequestBuilder,
    agent_id: &str,
    repository_id: &str,
    permissions: Option<RepositoryPermissions>,
) -> HttpRequest {
    #[derive(Serialize)]
    struct Attach<'a> {
        repository_id: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        permissions: Option<RepositoryPermissions>,
    }
    let body = Attach {
        repository_id,
        permissions,
    };
    rb.json(
        Method::Post,
        &agent_repositories_path(agent_id),
        &Query::new(),
        &body,
    )
}

/// `DELETE /v1/agents/<id>/repositories/<repoId>`.
pub fn detach_agent_repository(
    rb: &RequestBuilder,
    agent_id: &str,
    repository_id: &str,
) -> HttpRequest {
    let path = format!(
        "{}/{}",
        agent_repositories_path(agent_id),
        segment(repository_id)
    );
    rb.request(Method::Delete, &path, &Query::new(), Body::None)
}

/// The repositories of a list response: an array, or `{repositories: [...]}`; entries without
/// the required fields are dropped.
pub fn parse_agent_repositories(response: HttpResponse<'_>) -> CloudResult<Vec<AgentRepository>> {
    let body = response.ok()?;
    let value: Value = serde_json::from_str(body)
        .map_err(|_| CloudError::bad_response("Invalid Cloud agent repositories response."))?;
    let list = match value {
        Value::Array(list) => list,
        Value::Object(mut o) => match o.remove("repositories") {
            Some(Value::Array(list)) => list,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    Ok(list
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect())
}

/// The attached repository of `{success, repository}`.
pub fn parse_attached_repository(response: HttpResponse<'_>) -> CloudResult<AgentRepository> {
    #[derive(Deserialize)]
    struct Attached {
        success: bool,
        repository: Option<AgentRepository>,
    }
    let body = response.ok()?;
    match serde_json::from_str::<Attached>(body) {
        Ok(Attached {
            success: true,
            repository: Some(repository),
        }) => Ok(repository),
        _ => Err(CloudError::bad_response(
            "Invalid Cloud attach agent repository response.",
        )),
    }
}

#[cfg(test)]
#[path = "tests_rest.rs"]
mod tests;
