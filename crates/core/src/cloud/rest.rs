//! REST calls of session start (spec §4.2): agent creation, conversations, recompile and the
//! repositories attached to an agent. Each call is a builder returning an [`HttpRequest`] and
//! a parser taking the [`HttpResponse`]; paths follow the generated client (a trailing slash on
//! collection POSTs, `agent_id` in the query of conversation create).

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use crate::json::{self, Object, Value};
use serde::Serialize;

/// The default model of a Cloud agent.
pub const DEFAULT_AGENT_MODEL: &str = "letta/auto";
/// The first tag of every agent the SDK creates.
pub const ORIGIN_TAG: &str = "origin:letta-code";
/// The tag added when the agent's memory is a git-backed MemFS (`memfs`, default on).
pub const GIT_MEMORY_TAG: &str = "git-memory-enabled";

/// Body of `POST /v1/agents/` (letta-code's `buildCreateAgentRequest`, Cloud variant).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CreateAgentBody<'a> {
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
    pub memory_blocks: Option<Value<'a>>,
    /// Existing block ids, passed through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_ids: Option<Value<'a>>,
    /// `baseTools`: the server-side tools, exactly (with the two flags below `false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Value<'a>>,
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

/// The create body from the options `pkg-template/lib/agent-creation.js` checked (wire names,
/// plus `memfs`): Letta Cloud's defaults and tags on top.
pub fn create_agent_body<'a>(options: &Object<'a>) -> CloudResult<CreateAgentBody<'a>> {
    let get = |key: &str| options.get(key).clone().non_null();
    let text = |key: &str| options.get(key).as_str().map(str::to_owned);
    let model = match get("model") {
        None => DEFAULT_AGENT_MODEL.to_owned(),
        Some(Value::String(m)) if !m.trim().is_empty() => m.into_owned(),
        Some(other) => {
            let shown = other.as_str().unwrap_or_default();
            return Err(CloudError::invalid(format!("Unknown model: {shown}")));
        }
    };
    let mut tags = vec![ORIGIN_TAG.to_owned()];
    if options.bool("memfs") != Some(false) {
        tags.push(GIT_MEMORY_TAG.to_owned());
    }
    if let Some(list) = options.array("tags") {
        tags.extend(list.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    Ok(CreateAgentBody {
        model,
        system: text("system"),
        tags,
        name: text("name"),
        description: text("description"),
        embedding: text("embedding"),
        memory_blocks: get("memory_blocks"),
        block_ids: get("block_ids"),
        tools: get("tools"),
        include_base_tools: options.bool("include_base_tools"),
        include_base_tool_rules: options.bool("include_base_tool_rules"),
        hidden: options.bool("hidden"),
    })
}

/// `POST /v1/agents/`.
pub fn create_agent(rb: &RequestBuilder, body: &CreateAgentBody<'_>) -> HttpRequest {
    rb.json(Method::Post, "/v1/agents/", &Query::new(), body)
}

/// The non-empty string `key` of a response object.
fn member(response: HttpResponse<'_>, key: &str) -> CloudResult<Option<String>> {
    let body = response.ok()?;
    Ok(Object::parse(body).and_then(|o| o.get(key).non_empty_str().map(str::to_owned)))
}

fn id_of(response: HttpResponse<'_>, missing: &str) -> CloudResult<String> {
    member(response, "id")?.ok_or_else(|| CloudError::bad_response(missing))
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
    rb.json(Method::Post, "/v1/conversations/", &query, &Object::new())
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
    member(response, "agent_id")?.ok_or_else(|| {
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
    pub model_settings: Option<Value<'static>>,
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
        #[derive(Serialize)]
        struct Recompile<'a> {
            agent_id: &'a str,
        }
        rb.json(Method::Post, &path, &Query::new(), &Recompile { agent_id })
    }
}

/// Access of an attached repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RepositoryPermissions {
    /// `read`.
    Read,
    /// `read_write`.
    ReadWrite,
}

impl RepositoryPermissions {
    /// `read` or `read_write`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "read" => Some(Self::Read),
            "read_write" => Some(Self::ReadWrite),
            _ => None,
        }
    }
}

/// A repository attached to an agent (written for the caller with camelCase names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
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

impl AgentRepository {
    /// Reads an entry: string `id` and `name`, boolean `is_primary`, known `permissions`.
    fn read(value: &Value<'_>) -> Option<Self> {
        let o = value.as_object()?;
        Some(AgentRepository {
            id: o.get("id").as_str()?.to_owned(),
            name: o.get("name").as_str()?.to_owned(),
            is_primary: o.bool("is_primary")?,
            permissions: RepositoryPermissions::from_name(o.get("permissions").as_str()?)?,
        })
    }
}

/// The repositories of a list response: an array, or `{repositories: [...]}`; entries without
/// the required fields are dropped.
pub fn parse_agent_repositories(response: HttpResponse<'_>) -> CloudResult<Vec<AgentRepository>> {
    let invalid = || CloudError::bad_response("Invalid Cloud agent repositories response.");
    let list = match json::parse(response.ok()?).ok_or_else(invalid)? {
        Value::Array(list) => list,
        Value::Object(mut o) => o.take("repositories").into_array().unwrap_or_default(),
        _ => Vec::new(),
    };
    Ok(list.iter().filter_map(AgentRepository::read).collect())
}

/// The attached repository of `{success, repository}`.
pub fn parse_attached_repository(response: HttpResponse<'_>) -> CloudResult<AgentRepository> {
    Object::parse(response.ok()?)
        .filter(|o| o.bool("success") == Some(true))
        .and_then(|o| AgentRepository::read(o.get("repository")))
        .ok_or_else(|| CloudError::bad_response("Invalid Cloud attach agent repository response."))
}

#[cfg(test)]
#[path = "tests_rest.rs"]
mod tests;
