//! REST calls of managed sandboxes (spec §4.2): create, refresh (by sandbox id, or by agent on
//! legacy servers), terminate, and their responses.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use super::sandbox_options::GithubRepository;
use serde::{Deserialize, Serialize};

/// Body of `POST /v1/agents/<agentId>/sandboxes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateSandboxBody<'a> {
    /// Only for a non-default conversation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<&'a str>,
    /// Only when the options name some.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub github_repositories: &'a [GithubRepository],
}

/// `POST /v1/agents/<agentId>/sandboxes`.
pub fn create(rb: &RequestBuilder, agent_id: &str, body: &CreateSandboxBody<'_>) -> HttpRequest {
    let path = format!("/v1/agents/{}/sandboxes", segment(agent_id));
    rb.json(Method::Post, &path, &Query::new(), body)
}

/// The create response.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreatedSandbox {
    /// Sandbox id.
    pub sandbox_id: String,
    /// The device id of its environment (polled until online).
    pub device_id: String,
    /// Its computer name.
    pub connection_name: String,
    /// The echo: absent on legacy servers (then the sandbox is agent-scoped); `Some(None)` for
    /// an explicit `null`.
    #[serde(default, deserialize_with = "present")]
    pub conversation_id: Option<Option<String>>,
    /// An existing sandbox was resumed.
    #[serde(default)]
    pub resumed: Option<bool>,
}

/// Tells an absent member (`None`) from `null` (`Some(None)`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// Parses the create response (string `sandboxId`, `deviceId`, `connectionName` required).
pub fn parse_created(response: HttpResponse<'_>) -> CloudResult<CreatedSandbox> {
    let body = response.ok()?;
    serde_json::from_str(body).map_err(|_| {
        CloudError::bad_response(
            "Cloud managed sandbox response did not include sandboxId, deviceId and connectionName.",
        )
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Ttl {
    ttl_minutes: u32,
}

/// `POST /v1/sandboxes/<sandboxId>/refresh` `{ttlMinutes}` (conversation-scoped).
pub fn refresh(rb: &RequestBuilder, sandbox_id: &str, ttl_minutes: u32) -> HttpRequest {
    let path = format!("/v1/sandboxes/{}/refresh", segment(sandbox_id));
    rb.json(Method::Post, &path, &Query::new(), &Ttl { ttl_minutes })
}

/// `POST /v1/agents/<agentId>/sandboxes/refresh` `{ttlMinutes}` (agent-scoped, legacy).
pub fn refresh_by_agent(rb: &RequestBuilder, agent_id: &str, ttl_minutes: u32) -> HttpRequest {
    let path = format!("/v1/agents/{}/sandboxes/refresh", segment(agent_id));
    rb.json(Method::Post, &path, &Query::new(), &Ttl { ttl_minutes })
}

/// The refresh response `{success, sandboxId, ttlMinutes}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refreshed {
    /// Whether the lease was extended.
    #[serde(default)]
    pub success: Option<bool>,
    /// The refreshed sandbox (an agent-scoped refresh must return ours).
    #[serde(default)]
    pub sandbox_id: Option<String>,
    /// The new lease.
    #[serde(default)]
    pub ttl_minutes: Option<u32>,
}

/// Parses a refresh response (the status is checked by the caller, which maps 404).
pub fn parse_refreshed(body: &str) -> CloudResult<Refreshed> {
    serde_json::from_str(body)
        .map_err(|_| CloudError::bad_response("Invalid Cloud managed sandbox refresh response."))
}

/// `POST /v1/sandboxes/<id>/terminate` `{}` (conversation-scoped).
pub fn terminate(rb: &RequestBuilder, sandbox_id: &str) -> HttpRequest {
    let path = format!("/v1/sandboxes/{}/terminate", segment(sandbox_id));
    rb.json(Method::Post, &path, &Query::new(), &serde_json::json!({}))
}

/// `DELETE /v1/agents/<agentId>/sandboxes` (agent-scoped).
pub fn terminate_by_agent(rb: &RequestBuilder, agent_id: &str) -> HttpRequest {
    let path = format!("/v1/agents/{}/sandboxes", segment(agent_id));
    rb.request(Method::Delete, &path, &Query::new(), Body::None)
}
