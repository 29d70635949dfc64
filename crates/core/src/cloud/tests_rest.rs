//! Session-start REST rows of spec §4.2.

use super::*;
use crate::cloud::config::{CloudConfig, CloudEnv};
use crate::cloud::http::test_support::object;
use serde_json::json;

fn rb() -> RequestBuilder {
    RequestBuilder::new(
        &CloudConfig::from_options(&object(json!({"apiKey": "k"})), &CloudEnv::default()).unwrap(),
    )
}

fn body(request: &HttpRequest) -> serde_json::Value {
    match &request.body {
        Body::Json(text) => serde_json::from_str(text).unwrap(),
        other => panic!("not JSON: {other:?}"),
    }
}

#[test]
fn create_agent_body_tags_model_and_texts() {
    let b = create_agent_body(&object(json!({}))).unwrap();
    assert_eq!(b.model, "letta/auto");
    assert_eq!(b.tags, ["origin:letta-code", "git-memory-enabled"]);
    let request = create_agent(&rb(), &b);
    assert_eq!(
        (request.method, request.url.as_str()),
        (Method::Post, "https://api.letta.com/v1/agents/")
    );
    assert_eq!(
        body(&request),
        json!({"model": "letta/auto", "system": null, "tags": ["origin:letta-code", "git-memory-enabled"]})
    );
    let custom = create_agent_body(&object(json!({"model": "openai/gpt-5", "memfs": false, "tags": ["mine"], "name": "n", "system": "be brief"}))).unwrap();
    assert_eq!(custom.tags, ["origin:letta-code", "mine"]);
    assert_eq!(
        (custom.name.as_deref(), custom.system.as_deref()),
        (Some("n"), Some("be brief"))
    );
    assert!(create_agent_body(&object(json!({"model": "  "})))
        .unwrap_err()
        .message
        .starts_with("Unknown model:"));
}

#[test]
fn create_agent_body_carries_memory_and_pinned_tools() {
    let options = json!({
        "embedding": "openai/text-embedding-3-small",
        "memory_blocks": [{"label": "persona", "value": "p"}],
        "block_ids": ["block-1"],
        "tools": ["web_search"],
        "include_base_tools": false,
        "include_base_tool_rules": false,
    });
    let request = create_agent(&rb(), &create_agent_body(&object(options.clone())).unwrap());
    let sent = body(&request);
    for key in [
        "embedding",
        "memory_blocks",
        "block_ids",
        "tools",
        "include_base_tools",
        "include_base_tool_rules",
    ] {
        assert_eq!(sent[key], options[key], "{key}");
    }
}

#[test]
fn ids_are_required_in_responses() {
    assert_eq!(
        parse_created_agent(HttpResponse::new(200, r#"{"id":"agent-1"}"#)),
        Ok("agent-1".into())
    );
    assert_eq!(
        parse_created_agent(HttpResponse::new(200, "{}"))
            .unwrap_err()
            .message,
        "Cloud create agent response did not include an agent id."
    );
    assert_eq!(
        parse_created_conversation(HttpResponse::new(200, r#"{"id":""}"#))
            .unwrap_err()
            .message,
        "Cloud createSession() response did not include a conversation id."
    );
    assert_eq!(
        parse_conversation_agent(HttpResponse::new(200, r#"{"id":"conv-1"}"#), "conv-1")
            .unwrap_err()
            .message,
        "Cloud conversation conv-1 did not include an agent id."
    );
    assert_eq!(
        parse_conversation_agent(
            HttpResponse::new(200, r#"{"agent_id":"agent-2"}"#),
            "conv-1"
        ),
        Ok("agent-2".into())
    );
    assert_eq!(
        parse_created_agent(HttpResponse::new(401, "bad key"))
            .unwrap_err()
            .message,
        "401 bad key"
    );
}

#[test]
fn conversation_routes() {
    let rb = rb();
    let create = create_conversation(&rb, "agent-1");
    assert_eq!(
        (create.method, create.url.as_str()),
        (
            Method::Post,
            "https://api.letta.com/v1/conversations/?agent_id=agent-1"
        )
    );
    assert_eq!(body(&create), json!({}));
    assert_eq!(
        retrieve_conversation(&rb, "conv-1").url,
        "https://api.letta.com/v1/conversations/conv-1"
    );
    let ephemeral = create_ephemeral_conversation(
        &rb,
        &EphemeralConversationBody {
            model: "m".into(),
            system: "s".into(),
            model_settings: None,
            context_window_limit: Some(8000),
        },
    );
    assert_eq!(
        ephemeral.url,
        "https://api.letta.com/v1/conversations/ephemeral"
    );
    assert_eq!(
        body(&ephemeral),
        json!({"model": "m", "system": "s", "context_window_limit": 8000})
    );
    assert_eq!(
        parse_ephemeral_conversation(HttpResponse::new(200, r#"{"id":"conv-e"}"#)),
        Ok("conv-e".into())
    );
}

#[test]
fn recompile_targets_the_agent_for_default_else_the_conversation() {
    let rb = rb();
    let agent = recompile(&rb, "agent-1", "default");
    assert_eq!(
        (agent.url.as_str(), &agent.body),
        (
            "https://api.letta.com/v1/agents/agent-1/recompile",
            &Body::None
        )
    );
    let conversation = recompile(&rb, "agent-1", "conv-1");
    assert_eq!(
        conversation.url,
        "https://api.letta.com/v1/conversations/conv-1/recompile"
    );
    assert_eq!(body(&conversation), json!({"agent_id": "agent-1"}));
}

#[test]
fn agent_repositories() {
    let rb = rb();
    assert_eq!(
        list_agent_repositories(&rb, "agent-1").url,
        "https://api.letta.com/v1/agents/agent-1/repositories"
    );
    let attach = attach_agent_repository(
        &rb,
        "agent-1",
        "repo-1",
        Some(RepositoryPermissions::ReadWrite),
    );
    assert_eq!(
        body(&attach),
        json!({"repository_id": "repo-1", "permissions": "read_write"})
    );
    let detach = detach_agent_repository(&rb, "agent-1", "repo-1");
    assert_eq!(
        (detach.method, detach.url.as_str()),
        (
            Method::Delete,
            "https://api.letta.com/v1/agents/agent-1/repositories/repo-1"
        )
    );
    let listed = parse_agent_repositories(HttpResponse::new(
        200,
        r#"[
        {"id":"r1","name":"a","is_primary":true,"permissions":"read"},
        {"id":"r2","name":"b","is_primary":"yes","permissions":"read"},
        {"id":"r3","name":"c","is_primary":false,"permissions":"admin"}]"#,
    ))
    .unwrap();
    assert_eq!(
        listed.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["r1"],
        "malformed entries are dropped"
    );
    let wrapped = parse_agent_repositories(HttpResponse::new(200, r#"{"repositories":[{"id":"r1","name":"a","is_primary":false,"permissions":"read_write"}]}"#)).unwrap();
    assert_eq!(wrapped[0].permissions, RepositoryPermissions::ReadWrite);
    let attached = parse_attached_repository(HttpResponse::new(
        200,
        r#"{"success":true,"repository":{"id":"r1","name":"a","is_primary":false,"permissions":"read"}}"#,
    ));
    assert_eq!(attached.unwrap().id, "r1");
    assert!(parse_attached_repository(HttpResponse::new(200, r#"{"success":false}"#)).is_err());
}

#[test]
fn the_ephemeral_and_fork_ids_are_required_too() {
    assert_eq!(
        parse_ephemeral_conversation(HttpResponse::new(200, "{}"))
            .unwrap_err()
            .message,
        "Cloud query() response did not include a conversation id."
    );
    let fork = crate::cloud::management::parse_fork(HttpResponse::new(200, r#"{"agent_id":"a"}"#));
    assert_eq!(
        fork.unwrap_err().message,
        "Cloud conversation fork response did not include an id."
    );
    assert_eq!(
        crate::cloud::management::parse_fork(HttpResponse::new(200, r#"{"id":"conv-f"}"#)),
        Ok("conv-f".into())
    );
}
