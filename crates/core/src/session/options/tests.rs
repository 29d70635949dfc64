use super::*;

#[test]
fn a_session_config_is_read_as_the_wrapper_writes_it() {
    let setup = read_session_config(
        r#"{"requestTimeoutMs":500,"target":{"kind":"resumeConversation","conversationId":"conv-1"},
            "options":{"permissionMode":"unrestricted","cwd":"/w","skillSources":[],"allowedTools":["Bash"],
              "toolset":{"base":"codex","include":["a"]},"dreaming":{"trigger":"off","stepCount":3},
              "hasCanUseTool":true,"autoAllowedTools":["StructuredOutput"],
              "tools":[{"name":"t","label":"T","description":"d","parameters":{"type":"object"}}]}}"#,
    )
    .unwrap();
    assert_eq!(setup.request_timeout_ms, Some(500));
    assert!(matches!(
        setup.target,
        Target::ResumeConversation { ref conversation_id } if conversation_id == "conv-1"
    ));
    let options = setup.options;
    assert_eq!(options.mode, "unrestricted");
    assert_eq!(options.cwd.as_deref(), Some("/w"));
    assert_eq!(options.skill_sources, Some(vec![]));
    assert_eq!(options.allowed_tools, Some(vec!["Bash".to_owned()]));
    let toolset = options.toolset.unwrap();
    assert_eq!(toolset.base.as_deref(), Some("codex"));
    assert_eq!(
        options.dreaming,
        Some(Dreaming {
            trigger: "off".into(),
            step_count: 3
        })
    );
    assert!(options.has_can_use_tool);
    assert_eq!(options.auto_allowed_tools, ["StructuredOutput"]);
    assert_eq!(options.tools.len(), 1);
    assert_eq!(options.tools[0].label, "T");
}

#[test]
fn defaults_fill_what_the_config_leaves_out() {
    let setup =
        read_session_config(r#"{"target":{"kind":"newConversation","agentId":"a"}}"#).unwrap();
    assert_eq!(setup.request_timeout_ms, None);
    assert_eq!(setup.options.mode, "standard");
    assert!(!setup.options.stateless && !setup.options.has_can_use_tool);
    let setup = read_session_config(
        r#"{"target":{"kind":"createAgent","body":{"name":"n"}},"options":{"dreaming":{}}}"#,
    )
    .unwrap();
    assert!(matches!(
        setup.target,
        Target::CreateAgent {
            pin_global: true,
            memfs: true,
            ..
        }
    ));
    let dreaming = setup.options.dreaming.unwrap();
    assert_eq!(
        (dreaming.trigger.as_str(), dreaming.step_count),
        ("step-count", 5)
    );
    // Legacy permission modes are mapped here (the wrapper passes what the caller gave).
    let setup = read_session_config(
        r#"{"target":{"kind":"newConversation","agentId":"a"},
            "options":{"permissionMode":"bypassPermissions","tools":[{"name":"t","parameters":{}}]}}"#,
    )
    .unwrap();
    assert_eq!(setup.options.mode, "unrestricted");
    let tool = &setup.options.tools[0];
    assert_eq!((tool.label.as_str(), tool.description.as_str()), ("t", ""));
    // A management connection has no session options.
    let setup = read_session_config(
        r#"{"target":{"kind":"management"},"options":{"permissionMode":"strict"}}"#,
    )
    .unwrap();
    assert_eq!(setup.options.mode, "");
}

#[test]
fn configs_of_another_shape_are_refused() {
    for bad in [
        "",
        "[]",
        "{}",
        r#"{"target":{"kind":"nope"}}"#,
        r#"{"target":{"kind":"newConversation"}}"#,
        r#"{"target":{"kind":"resumeConversation","conversationId":7}}"#,
    ] {
        assert!(read_session_config(bad).is_none(), "{bad}");
    }
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
