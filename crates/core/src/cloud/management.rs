//! `client.agents` and `client.conversations` over Cloud REST (spec §4.2 "management"): the
//! routes of the generated resource methods. The camelCase → snake_case facade mapping is the
//! binding's (shared with the remote backend, spec §3.10); these builders take its output, the
//! wire-named `query` or `body` object.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use serde_json::Value;

fn id<'a>(value: &'a str, what: &str) -> CloudResult<&'a str> {
    if value.trim().is_empty() {
        Err(CloudError::invalid(format!(
            "Invalid {what} id. Expected a non-empty string."
        )))
    } else {
        Ok(value)
    }
}

/// A wire-named object as query parameters: scalars as text, arrays repeated, nulls skipped.
pub fn query_of(fields: &Value) -> Query {
    let mut query = Query::new();
    if let Some(o) = fields.as_object() {
        for (key, value) in o {
            query = match value {
                Value::Null => query,
                Value::String(s) => query.push(key, s),
                Value::Array(list) => {
                    let items: Vec<String> = list
                        .iter()
                        .filter(|v| !v.is_null())
                        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                        .collect();
                    query.repeat(key, &items)
                }
                other => query.push(key, other),
            };
        }
    }
    query
}

fn agent_path(agent_id: &str) -> CloudResult<String> {
    Ok(format!("/v1/agents/{}", segment(id(agent_id, "agent")?)))
}

fn conversation_path(conversation_id: &str) -> CloudResult<String> {
    Ok(format!(
        "/v1/conversations/{}",
        segment(id(conversation_id, "conversation")?)
    ))
}

/// `agents.list(query)` → `GET /v1/agents/`.
pub fn list_agents(rb: &RequestBuilder, query: &Value) -> HttpRequest {
    rb.request(Method::Get, "/v1/agents/", &query_of(query), Body::None)
}

/// `agents.retrieve(id)` → `GET /v1/agents/<id>`.
pub fn retrieve_agent(rb: &RequestBuilder, agent_id: &str) -> CloudResult<HttpRequest> {
    Ok(rb.request(
        Method::Get,
        &agent_path(agent_id)?,
        &Query::new(),
        Body::None,
    ))
}

/// `agents.update(id, body)` → `PATCH /v1/agents/<id>`.
pub fn update_agent(rb: &RequestBuilder, agent_id: &str, body: &Value) -> CloudResult<HttpRequest> {
    Ok(rb.json(Method::Patch, &agent_path(agent_id)?, &Query::new(), body))
}

/// `agents.delete(id)` → `DELETE /v1/agents/<id>`.
pub fn delete_agent(rb: &RequestBuilder, agent_id: &str) -> CloudResult<HttpRequest> {
    Ok(rb.request(
        Method::Delete,
        &agent_path(agent_id)?,
        &Query::new(),
        Body::None,
    ))
}

/// `conversations.list(query)` → `GET /v1/conversations/`.
pub fn list_conversations(rb: &RequestBuilder, query: &Value) -> HttpRequest {
    rb.request(
        Method::Get,
        "/v1/conversations/",
        &query_of(query),
        Body::None,
    )
}

/// `conversations.retrieve(id)` → `GET /v1/conversations/<id>`.
pub fn retrieve_conversation(
    rb: &RequestBuilder,
    conversation_id: &str,
) -> CloudResult<HttpRequest> {
    let path = conversation_path(conversation_id)?;
    Ok(rb.request(Method::Get, &path, &Query::new(), Body::None))
}

/// `conversations.create(body)` → `POST /v1/conversations/?agent_id=<agent_id>` with the rest of
/// the body (the generated client moves `agent_id` into the query).
pub fn create_conversation(rb: &RequestBuilder, body: &Value) -> CloudResult<HttpRequest> {
    let mut body = body.as_object().cloned().unwrap_or_default();
    let agent = match body.remove("agent_id") {
        Some(Value::String(agent)) => agent,
        _ => {
            return Err(CloudError::invalid(
                "Invalid agent id. Expected a non-empty string.",
            ))
        }
    };
    let query = Query::new().push("agent_id", id(&agent, "agent")?);
    Ok(rb.json(
        Method::Post,
        "/v1/conversations/",
        &query,
        &Value::Object(body),
    ))
}

/// `conversations.update(id, body)` → `PATCH /v1/conversations/<id>`.
pub fn update_conversation(
    rb: &RequestBuilder,
    conversation_id: &str,
    body: &Value,
) -> CloudResult<HttpRequest> {
    let path = conversation_path(conversation_id)?;
    Ok(rb.json(Method::Patch, &path, &Query::new(), body))
}

/// `conversations.fork(id, {messageId?, hidden?})` → `POST /v1/conversations/<id>/fork` with
/// `message_id` and `hidden` in the query, as the generated client sends them.
pub fn fork_conversation(
    rb: &RequestBuilder,
    conversation_id: &str,
    message_id: Option<&str>,
    hidden: Option<bool>,
) -> CloudResult<HttpRequest> {
    let path = format!("{}/fork", conversation_path(conversation_id)?);
    let message_id = message_id.map(|m| id(m, "message")).transpose()?;
    let query = Query::new()
        .opt("hidden", hidden)
        .opt("message_id", message_id);
    Ok(rb.request(Method::Post, &path, &query, Body::None))
}

/// The id of the fork, to retrieve it (spec §3.10: a failed retrieve is a
/// `ConversationForkHydrationError` of this id, raised by the binding).
pub fn parse_fork(response: HttpResponse<'_>) -> CloudResult<String> {
    let body = response.ok()?;
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v.get("id").and_then(Value::as_str).map(str::to_owned))
        .ok_or_else(|| {
            CloudError::bad_response("Cloud conversation fork response did not include an id.")
        })
}

/// A JSON response body as a value (agents, conversations: passed to the caller as they are).
pub fn parse_json(response: HttpResponse<'_>) -> CloudResult<Value> {
    let body = response.ok()?;
    if body.trim().is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_str(body).map_err(|_| CloudError::bad_response("Invalid Cloud JSON response."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::http::test_support::builder;

    use serde_json::json;

    #[test]
    fn routes_follow_the_generated_client() {
        let rb = builder();
        let list = list_agents(
            &rb,
            &json!({"tags": ["a", "b"], "limit": 5, "order_by": "created_at"}),
        );
        assert_eq!(
            list.url,
            "https://api.letta.com/v1/agents/?limit=5&order_by=created_at&tags=a&tags=b"
        );
        let create =
            create_conversation(&rb, &json!({"agent_id": "agent-1", "summary": "s"})).unwrap();
        assert_eq!(
            (create.method, create.url.as_str()),
            (
                Method::Post,
                "https://api.letta.com/v1/conversations/?agent_id=agent-1"
            )
        );
        assert_eq!(create.body, Body::Json(r#"{"summary":"s"}"#.into()));
        let fork = fork_conversation(&rb, "conv-1", Some("m-1"), Some(true)).unwrap();
        assert_eq!(
            fork.url,
            "https://api.letta.com/v1/conversations/conv-1/fork?hidden=true&message_id=m-1"
        );
        let update = update_agent(&rb, "agent-1", &json!({"name": "n"})).unwrap();
        assert_eq!(
            (update.method, update.url.as_str()),
            (Method::Patch, "https://api.letta.com/v1/agents/agent-1")
        );
        assert_eq!(
            list_conversations(&rb, &json!({})).url,
            "https://api.letta.com/v1/conversations/"
        );
    }

    #[test]
    fn blank_ids_have_the_reference_texts() {
        let rb = builder();
        assert_eq!(
            delete_agent(&rb, "").unwrap_err().message,
            "Invalid agent id. Expected a non-empty string."
        );
        assert_eq!(
            fork_conversation(&rb, " ", None, None).unwrap_err().message,
            "Invalid conversation id. Expected a non-empty string."
        );
        assert_eq!(
            fork_conversation(&rb, "conv-1", Some(""), None)
                .unwrap_err()
                .message,
            "Invalid message id. Expected a non-empty string."
        );
    }
}
