//! Client options: every validation text and normalization of spec §1.2 / §4.1 / §4.7.

use super::*;
use crate::cloud::http::test_support::{doc, object};
use crate::cloud::sandbox_options::{SandboxClass, SandboxOptions};
use crate::cloud::target::{session_target, SessionTarget};
use serde_json::json;

fn config(options: serde_json::Value) -> CloudResult<CloudConfig> {
    CloudConfig::from_options(&object(options), &CloudEnv::default())
}

fn message(options: serde_json::Value) -> String {
    let error = config(options).unwrap_err();
    assert_eq!(
        (error.name(), error.code()),
        ("LettaInvalidArgumentError", "invalid_argument")
    );
    error.message
}

#[test]
fn defaults() {
    let c = config(json!({"backend": "cloud"})).unwrap();
    assert_eq!(c.api_key, None);
    assert_eq!(c.api_base_url, "https://api.letta.com");
    assert_eq!(c.request_timeout_ms, 120_000);
    assert_eq!(c.ping_interval_ms, 30_000);
    assert_eq!(c.web_socket_auth, WebSocketAuth::Header);
    assert_eq!(c.default_target, DefaultTarget::None);
}

#[test]
fn api_key_comes_from_the_option_then_the_bearer_header_then_the_environment() {
    let env = CloudEnv {
        letta_api_key: Some("env-key".into()),
        letta_cloud_api_key: Some("cloud-env-key".into()),
    };
    let key = |o: serde_json::Value, env: &CloudEnv| {
        CloudConfig::from_options(&object(o), env).unwrap().api_key
    };
    let headers = json!({"authorization": "bearer header-key"});
    assert_eq!(
        key(json!({"apiKey": "opt", "headers": headers}), &env).as_deref(),
        Some("opt")
    );
    assert_eq!(
        key(json!({"headers": headers}), &env).as_deref(),
        Some("header-key")
    );
    let upper = json!({"headers": {"Authorization": "BEARER  up-key "}});
    assert_eq!(key(upper, &env).as_deref(), Some("up-key"));
    let basic = json!({"headers": {"Authorization": "Basic abc"}});
    assert_eq!(
        key(basic, &env).as_deref(),
        Some("env-key"),
        "only a bearer token counts"
    );
    let only_cloud = CloudEnv {
        letta_api_key: None,
        ..env.clone()
    };
    assert_eq!(
        key(json!({}), &only_cloud).as_deref(),
        Some("cloud-env-key")
    );
    assert_eq!(
        key(json!({"apiKey": "  "}), &CloudEnv::default()),
        None,
        "a blank key is no key"
    );
}

#[test]
fn api_base_url_is_normalized() {
    let url = |u: &str| config(json!({"apiBaseUrl": u})).unwrap().api_base_url;
    assert_eq!(url("https://api.letta.com/"), "https://api.letta.com");
    assert_eq!(
        url("http://127.0.0.1:8283/base///?x=1#frag"),
        "http://127.0.0.1:8283/base"
    );
    assert_eq!(
        url("HTTPS://example.test#only-hash"),
        "https://example.test"
    );
    for bad in [json!("not a url"), json!("https://"), json!(5)] {
        assert_eq!(
            message(json!({"apiBaseUrl": bad})),
            "Invalid apiBaseUrl. Expected an absolute URL."
        );
    }
}

/// `requestTimeoutMs` is checked by lib/options.js for both backends (with the reference's
/// text); what reaches the core is read strictly. `pingIntervalMs` is Cloud's own.
#[test]
fn numeric_options_need_positive_integers() {
    for bad in [json!(0), json!(-1), json!(1.5), json!("100")] {
        assert_eq!(
            message(json!({"pingIntervalMs": bad})),
            "Invalid pingIntervalMs. Expected a positive integer."
        );
    }
    for bad in [json!(0), json!(1.5), json!("100")] {
        assert!(config(json!({"requestTimeoutMs": bad})).is_err());
    }
    let c = config(json!({"requestTimeoutMs": 5000, "pingIntervalMs": 250})).unwrap();
    assert_eq!((c.request_timeout_ms, c.ping_interval_ms), (5000, 250));
}

#[test]
fn web_socket_auth_is_header_or_query() {
    assert_eq!(
        config(json!({"webSocketAuth": "query"}))
            .unwrap()
            .web_socket_auth,
        WebSocketAuth::Query
    );
    assert_eq!(
        config(json!({"webSocketAuth": "header"}))
            .unwrap()
            .web_socket_auth,
        WebSocketAuth::Header
    );
    for bad in [json!("cookie"), json!(true)] {
        assert_eq!(
            message(json!({"webSocketAuth": bad})),
            "Invalid webSocketAuth. Valid values: header, query."
        );
    }
}

#[test]
fn client_targets_exclude_each_other() {
    assert_eq!(
        message(json!({"computer": "a", "environment": "b"})),
        "Letta Cloud clients cannot specify both computer and deprecated environment."
    );
    assert_eq!(
        message(json!({"computer": "a", "sandbox": {}})),
        "Letta Cloud sessions cannot specify both computer and sandbox options."
    );
    assert_eq!(
        message(json!({"environment": {"id": "e"}, "sandbox": {}})),
        "Letta Cloud sessions cannot specify both environment and sandbox options."
    );
    let c = config(json!({"environment": {"deviceId": "dev-1"}})).unwrap();
    assert_eq!(
        c.default_target,
        DefaultTarget::Computer {
            option: "environment",
            selector: ComputerSelector::DeviceId("dev-1".into())
        }
    );
    assert!(message(json!({"computer": {"name": "a", "id": "b"}})).starts_with("Invalid computer."));
    assert!(message(json!({"computer": ""})).starts_with("Invalid computer."));
}

fn sandbox(options: serde_json::Value) -> CloudResult<SandboxOptions> {
    SandboxOptions::from_json(&doc(options))
}

#[test]
fn sandbox_defaults() {
    let s = sandbox(json!({})).unwrap();
    assert_eq!(s, SandboxOptions::default());
    assert_eq!(
        (
            s.ttl_minutes,
            s.ready_timeout_ms,
            s.ready_poll_interval_ms,
            s.refresh_interval_ms,
            s.terminate_on_close
        ),
        (5, 120_000, 1_000, 240_000, false)
    );
    let one =
        sandbox(json!({"ttlMinutes": 1, "sandboxClass": "container", "terminateOnClose": true}))
            .unwrap();
    assert_eq!(
        (
            one.refresh_interval_ms,
            one.sandbox_class,
            one.terminate_on_close
        ),
        (48_000, Some(SandboxClass::Container), true)
    );
    assert_eq!(
        sandbox(json!({"ttlMinutes": 60}))
            .unwrap()
            .refresh_interval_ms,
        2_880_000
    );
    assert_eq!(
        sandbox(json!({"ttlMinutes": 60, "refreshIntervalMs": 10}))
            .unwrap()
            .refresh_interval_ms,
        10
    );
}

#[test]
fn sandbox_validation_texts() {
    let text = |o| sandbox(o).unwrap_err().message;
    for bad in [json!(0), json!(61), json!(2.5), json!("5")] {
        assert_eq!(
            text(json!({"ttlMinutes": bad})),
            "Invalid sandbox.ttlMinutes. Expected an integer between 1 and 60."
        );
    }
    let eleven: Vec<_> = (0..11)
        .map(|_| json!({"owner": "o", "repo": "r"}))
        .collect();
    assert_eq!(
        text(json!({"githubRepositories": eleven})),
        "Invalid sandbox.githubRepositories. Expected at most 10 repositories."
    );
    let repos = |entry| json!({"githubRepositories": [{"owner": "ok", "repo": "ok"}, entry]});
    assert_eq!(
        text(repos(json!({"owner": "bad owner", "repo": "r"}))),
        "Invalid sandbox.githubRepositories[1].owner."
    );
    assert_eq!(
        text(repos(json!({"owner": "o_o", "repo": "r"}))),
        "Invalid sandbox.githubRepositories[1].owner."
    );
    assert_eq!(
        text(repos(json!({"owner": "o", "repo": "r/x"}))),
        "Invalid sandbox.githubRepositories[1].repo."
    );
    assert_eq!(
        text(repos(json!({"owner": "o", "repo": "r", "commit": "abc"}))),
        "Invalid sandbox.githubRepositories[1].commit."
    );
    let sha = "0123456789abcdef0123456789ABCDEF01234567";
    let ok = sandbox(json!({"githubRepositories": [{"owner": "letta-ai", "repo": "letta.code_x-1", "commit": sha}]})).unwrap();
    assert_eq!(ok.github_repositories[0].commit.as_deref(), Some(sha));
    assert_eq!(
        text(json!({"readyTimeoutMs": 0})),
        "Invalid sandbox.readyTimeoutMs. Expected a positive integer."
    );
    assert_eq!(
        text(json!({"readyPollIntervalMs": -5})),
        "Invalid sandbox.readyPollIntervalMs. Expected a positive integer."
    );
    assert_eq!(
        text(json!({"terminateOnClose": "yes"})),
        "Invalid sandbox.terminateOnClose. Expected a boolean."
    );
    assert_eq!(
        text(json!({"sandboxClass": "vm"})),
        "Invalid sandbox.sandboxClass. Valid values: linux-vm, container."
    );
}

#[test]
fn session_targets() {
    let none = DefaultTarget::None;
    let computer = DefaultTarget::Computer {
        option: "computer",
        selector: ComputerSelector::Name("box".into()),
    };
    let environment = DefaultTarget::Computer {
        option: "environment",
        selector: ComputerSelector::Name("box".into()),
    };
    let sandboxed = DefaultTarget::Sandbox(SandboxOptions {
        ttl_minutes: 9,
        ..SandboxOptions::default()
    });
    let text = |client: &DefaultTarget, o, agent_free| {
        session_target(client, &doc(o), "createSession", agent_free)
            .unwrap_err()
            .message
    };
    assert_eq!(
        text(&none, json!({"computer": "a", "environment": "b"}), false),
        "createSession() cannot specify both computer and deprecated environment."
    );
    assert_eq!(
        text(&none, json!({"environment": "a", "sandbox": {}}), false),
        "Letta Cloud createSession() cannot specify both environment and sandbox options."
    );
    assert_eq!(
        text(&computer, json!({"sandbox": {}}), false),
        "Letta Cloud createSession() cannot specify sandbox options when the client has a default computer."
    );
    assert_eq!(
        text(&environment, json!({"sandbox": {}}), false),
        "Letta Cloud createSession() cannot specify sandbox options when the client has a default environment."
    );
    assert!(text(&sandboxed, json!({"computer": "a"}), false)
        .contains("when the client has default sandbox options"));
    assert_eq!(
        session_target(&none, &doc(json!({})), "query", true)
            .unwrap_err()
            .message,
        "Cloud query() requires an explicit computer; managed sandboxes are agent-scoped."
    );
    let target = |client: &DefaultTarget, o| {
        session_target(client, &doc(o), "createSession", false).unwrap()
    };
    assert_eq!(
        target(&none, json!({})),
        SessionTarget::ManagedSandbox(SandboxOptions::default())
    );
    assert_eq!(
        target(&computer, json!({})),
        SessionTarget::Computer(ComputerSelector::Name("box".into()))
    );
    assert_eq!(
        target(&computer, json!({"computer": {"id": "e-2"}})),
        SessionTarget::Computer(ComputerSelector::Id("e-2".into()))
    );
    let SessionTarget::ManagedSandbox(s) = target(&sandboxed, json!({})) else {
        panic!("a sandbox")
    };
    assert_eq!(s.ttl_minutes, 9);
    assert!(session_target(&none, &doc(json!({"computer": "a"})), "query", true).is_ok());
}

#[test]
fn shapes_of_the_options_themselves() {
    assert_eq!(
        message(json!({"headers": ["x"]})),
        "Invalid headers. Expected an object of strings."
    );
    assert_eq!(
        crate::cloud::config::require_websocket(false)
            .unwrap_err()
            .message,
        "No WebSocket implementation available for cloud backend."
    );
    assert!(crate::cloud::config::require_websocket(true).is_ok());
    let text = |o| sandbox(o).unwrap_err().message;
    assert_eq!(
        text(json!("fast")),
        "Invalid sandbox options. Expected an object."
    );
    assert_eq!(
        text(json!({"githubRepositories": "o/r"})),
        "Invalid sandbox.githubRepositories. Expected an array."
    );
    assert_eq!(
        text(json!({"githubRepositories": ["o/r"]})),
        "Invalid sandbox.githubRepositories[0]. Expected an object."
    );
    assert_eq!(
        message(json!({"sandbox": {"ttlMinutes": 0}})),
        "Invalid sandbox.ttlMinutes. Expected an integer between 1 and 60."
    );
    let c = config(json!({"sandbox": {"ttlMinutes": 2}})).unwrap();
    assert!(matches!(c.default_target, DefaultTarget::Sandbox(ref s) if s.ttl_minutes == 2));
}
