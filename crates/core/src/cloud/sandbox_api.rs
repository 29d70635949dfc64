//! REST calls of managed sandboxes (spec §4.2): create, refresh (by sandbox id, or by agent on
//! legacy servers), terminate, and their responses.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use super::sandbox_options::GithubRepository;
use crate::json::{Object, Value};
use serde::Serialize;

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedSandbox {
    /// Sandbox id.
    pub sandbox_id: String,
    /// The device id of its environment (polled until online).
    pub device_id: String,
    /// Its computer name.
    pub connection_name: String,
    /// The echo: absent on legacy servers (then the sandbox is agent-scoped); `Some(None)` for
    /// an explicit `null`.
    pub conversation_id: Option<Option<String>>,
    /// An existing sandbox was resumed.
    pub resumed: Option<bool>,
}

/// Parses the create response (string `sandboxId`, `deviceId`, `connectionName` required; an
/// echo or `resumed` of another type is invalid).
pub fn parse_created(response: HttpResponse<'_>) -> CloudResult<CreatedSandbox> {
    let read = |o: Object<'_>| {
        let text = |key: &str| o.get(key).as_str().map(str::to_owned);
        let conversation_id = match o.get("conversationId") {
            Value::Absent => None,
            echo => Some(echo.clone().opt_str().ok()?.map(String::from)),
        };
        Some(CreatedSandbox {
            sandbox_id: text("sandboxId")?,
            device_id: text("deviceId")?,
            connection_name: text("connectionName")?,
            conversation_id,
            resumed: o.get("resumed").opt_bool().ok()?,
        })
    };
    Object::parse(response.ok()?).and_then(read).ok_or_else(|| {
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refreshed {
    /// Whether the lease was extended.
    pub success: Option<bool>,
    /// The refreshed sandbox (an agent-scoped refresh must return ours).
    pub sandbox_id: Option<String>,
    /// The new lease.
    pub ttl_minutes: Option<u32>,
}

/// Parses a refresh response (the status is checked by the caller, which maps 404). Members
/// are optional; one of another type makes the response invalid.
pub fn parse_refreshed(body: &str) -> CloudResult<Refreshed> {
    let read = |o: Object<'_>| {
        let ttl_minutes = match o.get("ttlMinutes").opt_f64().ok()? {
            Some(n) if (0.0..=f64::from(u32::MAX)).contains(&n) && n.fract() == 0.0 => {
                Some(n as u32)
            }
            Some(_) => return None,
            None => None,
        };
        Some(Refreshed {
            success: o.get("success").opt_bool().ok()?,
            sandbox_id: o.get("sandboxId").clone().opt_str().ok()?.map(String::from),
            ttl_minutes,
        })
    };
    Object::parse(body)
        .and_then(read)
        .ok_or_else(|| CloudError::bad_response("Invalid Cloud managed sandbox refresh response."))
}

/// `POST /v1/sandboxes/<id>/terminate` `{}` (conversation-scoped).
pub fn terminate(rb: &RequestBuilder, sandbox_id: &str) -> HttpRequest {
    let path = format!("/v1/sandboxes/{}/terminate", segment(sandbox_id));
    rb.json(Method::Post, &path, &Query::new(), &Object::new())
}

/// `DELETE /v1/agents/<agentId>/sandboxes` (agent-scoped).
pub fn terminate_by_agent(rb: &RequestBuilder, agent_id: &str) -> HttpRequest {
    let path = format!("/v1/agents/{}/sandboxes", segment(agent_id));
    rb.request(Method::Delete, &path, &Query::new(), Body::None)
}
