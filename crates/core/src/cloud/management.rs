//! `client.agents` and `client.conversations` over Cloud REST (spec §4.2 "management"): the
//! routes of the generated resource methods. The camelCase → snake_case facade mapping is the
//! wrapper's (shared with the remote backend, spec §3.10); these builders take its output, the
//! wire-named `query` or `body` object, parsed from the JSON text it sent.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use crate::json::{self, Object, Value};

/// A scalar as a query value: a string as it is, anything else as its JSON text.
fn query_value(value: &Value<'_>) -> String {
    value
        .as_str()
        .map_or_else(|| json::to_string(value), str::to_owned)
}

/// A wire-named object as query parameters: scalars as text, arrays repeated, nulls skipped.
pub fn query_of(fields: &Value<'_>) -> Query {
    let mut query = Query::new();
    for (key, value) in fields.as_object().into_iter().flat_map(Object::members) {
        query = match value {
            Value::Absent | Value::Null => query,
            Value::Array(list) => {
                let items: Vec<String> = list
                    .iter()
                    .filter(|v| !v.is_nullish())
                    .map(query_value)
                    .collect();
                query.repeat(key, &items)
            }
            other => query.push(key, query_value(other)),
        };
    }
    query
}

// The ids in routes were checked by the wrapper's facades (lib/agent-client.js), for both
// backends.
fn agent_path(agent_id: &str) -> String {
    format!("/v1/agents/{}", segment(agent_id))
}

fn conversation_path(conversation_id: &str) -> String {
    format!("/v1/conversations/{}", segment(conversation_id))
}

/// `agents.list(query)` → `GET /v1/agents/`.
pub fn list_agents(rb: &RequestBuilder, query: &Value<'_>) -> HttpRequest {
    rb.request(Method::Get, "/v1/agents/", &query_of(query), Body::None)
}

/// `agents.retrieve(id)` → `GET /v1/agents/<id>`.
pub fn retrieve_agent(rb: &RequestBuilder, agent_id: &str) -> HttpRequest {
    rb.request(
        Method::Get,
        &agent_path(agent_id),
        &Query::new(),
        Body::None,
    )
}

/// `agents.update(id, body)` → `PATCH /v1/agents/<id>`.
pub fn update_agent(rb: &RequestBuilder, agent_id: &str, body: &Value<'_>) -> HttpRequest {
    rb.json(Method::Patch, &agent_path(agent_id), &Query::new(), body)
}

/// `agents.delete(id)` → `DELETE /v1/agents/<id>`.
pub fn delete_agent(rb: &RequestBuilder, agent_id: &str) -> HttpRequest {
    rb.request(
        Method::Delete,
        &agent_path(agent_id),
        &Query::new(),
        Body::None,
    )
}

/// `conversations.list(query)` → `GET /v1/conversations/`.
pub fn list_conversations(rb: &RequestBuilder, query: &Value<'_>) -> HttpRequest {
    rb.request(
        Method::Get,
        "/v1/conversations/",
        &query_of(query),
        Body::None,
    )
}

/// `conversations.retrieve(id)` → `GET /v1/conversations/<id>`.
pub fn retrieve_conversation(rb: &RequestBuilder, conversation_id: &str) -> HttpRequest {
    let path = conversation_path(conversation_id);
    rb.request(Method::Get, &path, &Query::new(), Body::None)
}

/// `conversations.create(body)` → `POST /v1/conversations/?agent_id=<agent_id>` with the rest of
/// the body (the generated client moves `agent_id` into the query).
pub fn create_conversation(rb: &RequestBuilder, body: &Value<'_>) -> HttpRequest {
    let fields = body.as_object().cloned().unwrap_or_default();
    let agent = fields.get("agent_id").as_str().unwrap_or_default();
    let query = Query::new().push("agent_id", agent);
    let mut rest = Object::new();
    for (key, value) in fields.members().filter(|(key, _)| *key != "agent_id") {
        rest.push(key, value.clone());
    }
    rb.json(Method::Post, "/v1/conversations/", &query, &rest)
}

/// `conversations.update(id, body)` → `PATCH /v1/conversations/<id>`.
pub fn update_conversation(
    rb: &RequestBuilder,
    conversation_id: &str,
    body: &Value<'_>,
) -> HttpRequest {
    let path = conversation_path(conversation_id);
    rb.json(Method::Patch, &path, &Query::new(), body)
}

/// `conversations.fork(id, {messageId?, hidden?})` → `POST /v1/conversations/<id>/fork` with
/// `message_id` and `hidden` in the query, as the generated client sends them.
pub fn fork_conversation(
    rb: &RequestBuilder,
    conversation_id: &str,
    message_id: Option<&str>,
    hidden: Option<bool>,
) -> HttpRequest {
    let path = format!("{}/fork", conversation_path(conversation_id));
    let query = Query::new()
        .opt("hidden", hidden)
        .opt("message_id", message_id);
    rb.request(Method::Post, &path, &query, Body::None)
}

/// The id of the fork, to retrieve it (spec §3.10: a failed retrieve is a
/// `ConversationForkHydrationError` of this id, raised by the binding).
pub fn parse_fork(response: HttpResponse<'_>) -> CloudResult<String> {
    Object::parse(response.ok()?)
        .and_then(|o| o.str("id"))
        .map(String::from)
        .ok_or_else(|| {
            CloudError::bad_response("Cloud conversation fork response did not include an id.")
        })
}

/// A JSON response body as JSON text (agents, conversations: passed to the caller as they
/// are, parsed once by the wrapper); `null` for an empty body.
pub fn parse_json(response: HttpResponse<'_>) -> CloudResult<String> {
    let body = response.ok()?;
    if body.trim().is_empty() {
        return Ok("null".to_owned());
    }
    match json::parse(body) {
        Some(_) => Ok(body.to_owned()),
        None => Err(CloudError::bad_response("Invalid Cloud JSON response.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::http::test_support::builder;

    fn json(text: &str) -> Value<'_> {
        json::parse(text).expect("test JSON")
    }

    #[test]
    fn routes_follow_the_generated_client() {
        let rb = builder();
        let list = list_agents(
            &rb,
            &json(r#"{"limit": 5, "order_by": "created_at", "tags": ["a", "b"]}"#),
        );
        assert_eq!(
            list.url,
            "https://api.letta.com/v1/agents/?limit=5&order_by=created_at&tags=a&tags=b"
        );
        let create = create_conversation(&rb, &json(r#"{"agent_id": "agent-1", "summary": "s"}"#));
        assert_eq!(
            (create.method, create.url.as_str()),
            (
                Method::Post,
                "https://api.letta.com/v1/conversations/?agent_id=agent-1"
            )
        );
        assert_eq!(create.body, Body::Json(r#"{"summary":"s"}"#.into()));
        let fork = fork_conversation(&rb, "conv-1", Some("m-1"), Some(true));
        assert_eq!(
            fork.url,
            "https://api.letta.com/v1/conversations/conv-1/fork?hidden=true&message_id=m-1"
        );
        let update = update_agent(&rb, "agent-1", &json(r#"{"name": "n"}"#));
        assert_eq!(
            (update.method, update.url.as_str()),
            (Method::Patch, "https://api.letta.com/v1/agents/agent-1")
        );
        assert_eq!(
            list_conversations(&rb, &json("{}")).url,
            "https://api.letta.com/v1/conversations/"
        );
    }
}
