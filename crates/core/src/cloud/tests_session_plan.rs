//! A Cloud session's plan: every session kind, the target against the client default, the
//! `resources` checks, and the errors of a config that is not one.

use super::*;
use crate::cloud::config::CloudEnv;
use crate::cloud::sandbox_options::SandboxOptions;
use serde_json::json;

fn client(options: serde_json::Value) -> CloudConfig {
    CloudConfig::from_json(&options.to_string(), &CloudEnv::default()).unwrap()
}

fn plan(client_options: serde_json::Value, session: serde_json::Value) -> CloudResult<SessionPlan> {
    SessionPlan::parse(&client(client_options), &session.to_string())
}

fn error(client_options: serde_json::Value, session: serde_json::Value) -> String {
    let error = plan(client_options, session).unwrap_err();
    assert_eq!(error.name(), "LettaInvalidArgumentError");
    error.message
}

#[test]
fn each_session_kind_names_its_conversation() {
    let cloud = json!({"backend": "cloud", "computer": {"deviceId": "dev-1"}});
    let conversation = |target: serde_json::Value| {
        plan(
            cloud.clone(),
            json!({"target": target, "cloud": {"action": "query"}}),
        )
        .unwrap()
        .conversation
    };
    assert_eq!(
        conversation(json!({"kind": "newConversation", "agentId": "agent-1"})),
        ConversationPlan::Agent {
            agent_id: "agent-1".into(),
            conversation: Conversation::New
        }
    );
    assert_eq!(
        conversation(json!({"kind": "resumeAgent", "agentId": "agent-1"})),
        ConversationPlan::Agent {
            agent_id: "agent-1".into(),
            conversation: Conversation::Default
        }
    );
    assert_eq!(
        conversation(json!({"kind": "resumeConversation", "conversationId": "conv-1"})),
        ConversationPlan::Conversation("conv-1".into())
    );
    assert_eq!(
        conversation(json!({"kind": "agentFree", "conversationId": "conv-2"})),
        ConversationPlan::AgentFreeExisting("conv-2".into())
    );
    let ConversationPlan::AgentFreeNew(body) = conversation(json!({
        "kind": "agentFree",
        "body": {"model": "m", "system": "s", "context_window_limit": 4096, "model_settings": {"t": 1}}
    })) else {
        panic!("a new agent-free conversation");
    };
    assert_eq!((body.model.as_str(), body.system.as_str()), ("m", "s"));
    assert_eq!(body.context_window_limit, Some(4096));
    assert!(body.model_settings.is_some());
}

#[test]
fn the_target_follows_the_session_then_the_client_default() {
    let session = json!({"target": {"kind": "newConversation", "agentId": "a"}});
    let default = plan(json!({"backend": "cloud"}), session.clone()).unwrap();
    assert_eq!(
        default.target,
        SessionTarget::ManagedSandbox(SandboxOptions::default())
    );
    let computer = plan(
        json!({"backend": "cloud", "computer": {"deviceId": "dev-1"}}),
        session.clone(),
    )
    .unwrap();
    assert!(matches!(computer.target, SessionTarget::Computer(_)));
    assert_eq!(
        error(
            json!({"backend": "cloud", "computer": {"deviceId": "dev-1"}}),
            json!({"target": {"kind": "newConversation", "agentId": "a"}, "cloud": {"sandbox": {}}})
        ),
        "Letta Cloud createSession() cannot specify sandbox options when the client has a default computer."
    );
}

#[test]
fn an_agent_free_query_needs_a_computer() {
    assert_eq!(
        error(
            json!({"backend": "cloud"}),
            json!({"target": {"kind": "agentFree", "conversationId": "c"}, "cloud": {"action": "query"}})
        ),
        "Cloud query() requires an explicit computer; managed sandboxes are agent-scoped."
    );
}

#[test]
fn resources_are_repositories_with_recompile_on_by_default() {
    let resources = plan(
        json!({"backend": "cloud"}),
        json!({
            "target": {"kind": "newConversation", "agentId": "a"},
            "cloud": {"resources": [
                {"type": "repository", "repositoryId": "repo-1"},
                {"type": "repository", "repositoryId": "repo-2", "recompile": false}
            ]}
        }),
    )
    .unwrap()
    .resources;
    assert_eq!(
        resources,
        vec![
            RepositoryResource {
                repository_id: "repo-1".into(),
                recompile: true
            },
            RepositoryResource {
                repository_id: "repo-2".into(),
                recompile: false
            },
        ]
    );
    let with = |resources: serde_json::Value| {
        error(
            json!({"backend": "cloud"}),
            json!({"target": {"kind": "newConversation", "agentId": "a"}, "cloud": {"resources": resources}}),
        )
    };
    assert_eq!(
        with(json!("repo-1")),
        "Invalid resources. Expected an array."
    );
    assert_eq!(
        with(
            json!([{"type": "repository", "repositoryId": "r"}, {"type": "repository", "repositoryId": " "}])
        ),
        "Invalid resources[1]. Expected {type: \"repository\", repositoryId}."
    );
    assert_eq!(
        with(json!([{"type": "file", "repositoryId": "r"}])),
        "Invalid resources[0]. Expected {type: \"repository\", repositoryId}."
    );
}

#[test]
fn a_config_that_is_not_one_is_a_typed_error() {
    let cloud = json!({"backend": "cloud"});
    let invalid = "Invalid session configuration.";
    assert_eq!(error(cloud.clone(), json!([])), invalid);
    assert_eq!(error(cloud.clone(), json!({"cloud": {}})), invalid);
    assert_eq!(
        error(
            cloud.clone(),
            json!({"target": {"kind": "newConversation"}})
        ),
        invalid
    );
    assert_eq!(
        error(cloud.clone(), json!({"target": {"kind": "agentFree"}})),
        invalid
    );
    assert_eq!(
        error(cloud.clone(), json!({"target": {"kind": "management"}})),
        "This session kind is not available with backend: \"cloud\"."
    );
    let not_json = SessionPlan::parse(&client(cloud), "{").unwrap_err();
    assert_eq!(not_json.message, invalid);
}

#[test]
fn client_options_as_text_are_checked_as_the_object_is() {
    let env = CloudEnv::default();
    let message = |text: &str| CloudConfig::from_json(text, &env).unwrap_err().message;
    assert_eq!(message("[1]"), "Invalid client options.");
    assert_eq!(message("not json"), "Invalid client options.");
    assert_eq!(
        message(r#"{"backend": "cloud", "webSocketAuth": "cookie"}"#),
        "Invalid webSocketAuth. Valid values: header, query."
    );
}

#[test]
fn check_options_gives_the_errors_of_parse_for_the_options_and_reads_nothing_else() {
    let target = json!({"kind": "newConversation", "agentId": "a"});
    let wrong_options = [
        json!({"sandbox": {}}),
        json!({"computer": {"name": "box"}, "environment": {"name": "box"}}),
        json!({"resources": [{"type": "file"}]}),
        json!({"computer": 7}),
    ];
    let config = client(json!({"backend": "cloud", "computer": {"deviceId": "dev-1"}}));
    for cloud in wrong_options {
        let session = json!({"target": target, "cloud": cloud}).to_string();
        let checked = SessionPlan::check_options(&config, &session).unwrap_err();
        let parsed = SessionPlan::parse(&config, &session).unwrap_err();
        assert_eq!(checked.message, parsed.message, "{session}");
        assert_eq!(checked.name(), "LettaInvalidArgumentError");
    }
    let fine = json!({"target": target, "cloud": {"computer": {"name": "box"}}}).to_string();
    assert!(SessionPlan::check_options(&config, &fine).is_ok());
    // The conversation is the wrapper's, read by `parse` only.
    let no_agent = json!({"target": {"kind": "newConversation"}}).to_string();
    assert!(SessionPlan::check_options(&config, &no_agent).is_ok());
    assert!(SessionPlan::parse(&config, &no_agent).is_err());
    assert_eq!(
        SessionPlan::check_options(&config, "{")
            .unwrap_err()
            .message,
        "Invalid session configuration."
    );
}
