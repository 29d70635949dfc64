use super::*;

#[test]
fn client_options_follow_the_reference_texts() {
    let err = |json: &str| parse_client_options(json).unwrap_err().message;
    assert!(err("{}").contains("supports backend: \"remote\" and backend: \"cloud\" only"));
    assert!(err(r#"{"backend":"local"}"#)
        .contains("supports backend: \"remote\" and backend: \"cloud\" only"));
    assert_eq!(
        err(r#"{"backend":"nope"}"#),
        "Invalid Letta Code backend 'nope'. Valid values: local, remote, cloud."
    );
    assert_eq!(
        err(r#"{"backend":"remote"}"#),
        "LettaAgentClient remote backend requires a non-empty url."
    );
    assert_eq!(
        err(r#"{"backend":"remote","url":"  "}"#),
        "LettaAgentClient remote backend requires a non-empty url."
    );
    assert_eq!(
        err(r#"{"backend":"remote","url":"ws://h","authToken":" "}"#),
        "app-server auth token must not be empty"
    );
    for bad in ["0", "-1", "1.5", "\"10\""] {
        assert_eq!(
            err(&format!(
                r#"{{"backend":"remote","url":"ws://h","requestTimeoutMs":{bad}}}"#
            )),
            "Invalid requestTimeoutMs. Expected a positive integer."
        );
    }
    assert!(err(r#"{"backend":"remote","url":"ws://h","computer":"c"}"#)
        .starts_with("LettaAgentClient computer is only valid"));
    assert_eq!(
        err(r#"{"backend":"remote","url":"ws://h","sandbox":{}}"#),
        "LettaAgentClient sandbox options are only valid with backend: \"cloud\"."
    );
    assert_eq!(
        err(r#"{"backend":"remote","url":"ftp://h"}"#),
        "Unsupported app-server URL protocol: ftp:"
    );
    let ok = parse_client_options(r#"{"backend":"remote","url":"http://127.0.0.1:4500","authToken":"t","requestTimeoutMs":500}"#).unwrap();
    assert_eq!(ok.url, "ws://127.0.0.1:4500/ws");
    assert_eq!(ok.request_timeout_ms, Some(500));
    assert_eq!(ok.auth_token.as_deref(), Some("t"));
}

#[test]
fn urls_are_normalized_and_errors_never_show_credentials() {
    assert_eq!(
        normalize_app_server_url("https://h/").unwrap(),
        "wss://h/ws"
    );
    assert_eq!(
        normalize_app_server_url("ws://h:1/custom?a=1&channel=x&b=2").unwrap(),
        "ws://h:1/custom?a=1&b=2"
    );
    assert_eq!(
        normalize_app_server_url("ws://h?channel=control").unwrap(),
        "ws://h/ws"
    );
    let err = normalize_app_server_url("nonsense?token=secret")
        .unwrap_err()
        .message;
    assert!(!err.contains("secret"), "{err}");
    let err = normalize_app_server_url("ws://user:secret@/x")
        .unwrap_err()
        .message;
    assert!(!err.contains("secret"), "{err}");
}

#[test]
fn session_options_validate_with_the_reference_texts() {
    let err = |json: &str| {
        parse_session_options(json, "createSession")
            .unwrap_err()
            .message
    };
    assert!(err(r#"{"skillSources":["bundled","web"]}"#).starts_with("Invalid skill source 'web'"));
    assert!(
        err(r#"{"reasoningEffort":"extreme"}"#).starts_with("Invalid reasoningEffort 'extreme'")
    );
    assert!(err(r#"{"dreaming":{"trigger":"never"}}"#).starts_with("Invalid dreaming.trigger"));
    assert!(err(r#"{"dreaming":{"behavior":"x"}}"#).starts_with("Invalid dreaming.behavior"));
    assert_eq!(
        err(r#"{"dreaming":{"stepCount":0}}"#),
        "Invalid dreaming.stepCount. Expected a positive integer."
    );
    assert_eq!(
        err(r#"{"stateless":"yes"}"#),
        "Invalid stateless. Expected a boolean."
    );
    assert!(
        err(r#"{"stateless":true,"model":"m"}"#).contains("changes persisted agent configuration")
    );
    assert!(err(r#"{"stateless":true,"resources":[]}"#)
        .contains("changes persisted agent configuration"));
    assert!(err(r#"{"toolset":{"base":"weird"}}"#).starts_with("Invalid toolset.base"));
    assert!(err(r#"{"toolset":{"include":[""]}}"#).starts_with("Invalid toolset.include"));
    assert!(err(r#"{"systemPrompt":"x"}"#).contains("is not supported"));
    assert!(err(r#"{"computer":"x"}"#).contains("only valid with backend: \"cloud\""));
    assert!(err(r#"{"filesystemConfinement":"memory"}"#).contains("filesystemConfinement"));
    let ok = parse_session_options(
        r#"{"permissionMode":"default","skillSources":[],"dreaming":{},"toolset":{"base":"codex","include":["a","a"]},"hasCanUseTool":true}"#,
        "createSession",
    )
    .unwrap();
    assert_eq!(ok.mode, "standard");
    assert_eq!(ok.skill_sources, Some(vec![]));
    assert_eq!(
        ok.dreaming,
        Some(Dreaming {
            trigger: "step-count".into(),
            step_count: 5
        })
    );
    assert_eq!(ok.toolset.unwrap().include, Some(vec!["a".to_owned()]));
    assert!(ok.has_can_use_tool);
    assert_eq!(
        parse_session_options("", "createSession").unwrap().mode,
        "standard"
    );
}

#[test]
fn permission_modes_map_legacy_names() {
    assert_eq!(normalize_permission_mode(None), "standard");
    assert_eq!(
        normalize_permission_mode(Some("fullAccess")),
        "unrestricted"
    );
    assert_eq!(
        normalize_permission_mode(Some("acceptEdits")),
        "acceptEdits"
    );
    assert_eq!(normalize_permission_mode(Some("whatever")), "standard");
}
