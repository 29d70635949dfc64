//! Session state machine tests: each drives the sans-IO core with frames as the real app server
//! sends them and checks the effects.

use super::*;
use crate::json::Object;
use crate::session::SessionOptions;

pub(super) const RUNTIME: &str = r#"{"agent_id":"agent-1","conversation_id":"conv-1"}"#;

pub(crate) fn config(target: Target, options: &str) -> SessionConfig {
    SessionConfig {
        label: "app-server",
        request_timeout_ms: None,
        // The normalized options the JS wrapper sends (pkg-template/lib/options.js).
        options: SessionOptions::read(&Object::parse(options).unwrap_or_default()),
        target,
        nonce: "test".into(),
    }
}

pub(crate) fn effects(core: &mut SessionCore) -> Vec<Effect> {
    std::iter::from_fn(|| core.pop_effect()).collect()
}

pub(crate) fn writes(effects: &[Effect]) -> Vec<serde_json::Value> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Write(text) => Some(serde_json::from_str(text).unwrap()),
            _ => None,
        })
        .collect()
}

pub(super) fn completion(effects: &[Effect], call: CallId) -> Option<Result<String, SessionError>> {
    effects.iter().find_map(|e| match e {
        Effect::Complete { call: c, result } if *c == call => Some(result.clone()),
        _ => None,
    })
}

fn start_response(request_id: &str) -> String {
    format!(
        r#"{{"type":"runtime_start_response","request_id":"{request_id}","success":true,"runtime":{RUNTIME},"agent":{{"id":"agent-1","model":"openai-compatible/fake-model","tools":["Bash",{{"name":"Read"}}]}},"conversation":{{"id":"conv-1"}},"created":{{"agent":false,"conversation":true}}}}"#
    )
}

/// A started session (`createSession("agent-1")`), effects drained, whose standby (when it has a reconnect policy) is subscribed, so that
/// input goes out at once (see `reconnect::gate`).
pub(crate) fn started(options: &str) -> SessionCore {
    let mut core = just_started(options);
    core.on_standby_open(2);
    let start = writes_on_standby(&effects(&mut core));
    if let Some(start) = start.first() {
        let id = start["request_id"].as_str().unwrap();
        core.on_standby_frame(&start_response(id), 3);
        assert!(effects(&mut core).is_empty());
    }
    core
}

/// What was written on the standby socket.
pub(crate) fn writes_on_standby(effects: &[Effect]) -> Vec<serde_json::Value> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Link(crate::session::LinkEffect::WriteStandby(text)) => {
                Some(serde_json::from_str(text).unwrap())
            }
            _ => None,
        })
        .collect()
}

/// A session whose start just finished (its standby, if any, not open yet).
pub(crate) fn just_started(options: &str) -> SessionCore {
    let mut core = SessionCore::new(config(
        Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        options,
    ));
    core.begin(1, 0);
    core.on_open(0);
    let sent = writes(&effects(&mut core));
    let id = sent[0]["request_id"].as_str().unwrap().to_owned();
    core.on_frame(&start_response(&id), 1);
    let done = effects(&mut core);
    assert!(completion(&done, 1).unwrap().is_ok());
    core
}

#[test]
fn start_sends_runtime_start_and_settles_initialize_with_the_identity() {
    let mut core = SessionCore::new(config(
        Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        r#"{"cwd":"/w","permissionMode":"bypassPermissions","skillSources":["bundled"]}"#,
    ));
    core.begin(7, 0);
    assert!(
        effects(&mut core).is_empty(),
        "nothing before the socket opens"
    );
    core.on_open(0);
    let sent = writes(&effects(&mut core));
    assert_eq!(sent.len(), 1);
    let start = &sent[0];
    assert_eq!(start["type"], "runtime_start");
    assert_eq!(start["agent_id"], "agent-1");
    assert_eq!(
        start["create_conversation"],
        serde_json::json!({"body": {}})
    );
    assert_eq!(start["mode"], "unrestricted");
    assert_eq!(start["cwd"], "/w");
    assert_eq!(start["skill_sources"], serde_json::json!(["bundled"]));
    assert_eq!(start["recover_approvals"], false);
    assert_eq!(start["force_device_status"], true);
    assert_eq!(start["client_info"]["name"], "@letta-ai/letta-agent-sdk");
    let id = start["request_id"].as_str().unwrap();
    assert!(id.starts_with("runtime-start-test-"));
    core.on_frame(&start_response(id), 5);
    let result = completion(&effects(&mut core), 7).unwrap().unwrap();
    let info: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_eq!(info["type"], "init");
    assert_eq!(info["sessionId"], "agent-1:conv-1");
    assert_eq!(info["model"], "openai-compatible/fake-model");
    assert_eq!(info["tools"], serde_json::json!(["Bash", "Read"]));
    assert!(core.is_ready());
}

#[test]
fn resuming_a_conversation_looks_up_its_agent_first() {
    let mut core = SessionCore::new(config(
        Target::ResumeConversation {
            conversation_id: "local-conv-3".into(),
        },
        "",
    ));
    core.begin(1, 0);
    core.on_open(0);
    let sent = writes(&effects(&mut core));
    assert_eq!(sent[0]["type"], "conversation_retrieve");
    assert_eq!(sent[0]["conversation_id"], "local-conv-3");
    let id = sent[0]["request_id"].as_str().unwrap();
    core.on_frame(
        &format!(r#"{{"type":"conversation_retrieve_response","request_id":"{id}","success":true,"conversation":{{"id":"local-conv-3","agent_id":"agent-9"}}}}"#),
        1,
    );
    let sent = writes(&effects(&mut core));
    assert_eq!(sent[0]["type"], "runtime_start");
    assert_eq!(sent[0]["agent_id"], "agent-9");
    assert_eq!(sent[0]["conversation_id"], "local-conv-3");
}

#[test]
fn a_failed_start_settles_initialize_with_the_server_error_and_closes() {
    let mut core = SessionCore::new(config(
        Target::ResumeAgent {
            agent_id: "agent-x".into(),
        },
        "",
    ));
    core.begin(3, 0);
    core.on_open(0);
    let sent = writes(&effects(&mut core));
    assert_eq!(sent[0]["conversation_id"], "default");
    let id = sent[0]["request_id"].as_str().unwrap();
    core.on_frame(
        &format!(r#"{{"type":"runtime_start_response","request_id":"{id}","success":false,"runtime":null,"error":"Agent not found"}}"#),
        1,
    );
    let done = effects(&mut core);
    let error = completion(&done, 3).unwrap().unwrap_err();
    assert_eq!(error.message, "Agent not found");
    assert!(done.contains(&Effect::CloseTransport));
    assert!(!core.is_ready());
}

#[test]
fn post_start_steps_run_in_order() {
    let mut core = SessionCore::new(config(
        Target::CreateAgent {
            body: crate::json::Object::parse(r#"{"model":"m/x"}"#)
                .unwrap()
                .into_static(),
            pin_global: true,
            memfs: true,
        },
        r#"{"dreaming":{"stepCount":3},"model":"p/other","reasoningEffort":"high"}"#,
    ));
    core.begin(1, 0);
    core.on_open(0);
    let start = writes(&effects(&mut core)).remove(0);
    assert_eq!(
        start["create_agent"],
        serde_json::json!({"body": {"model": "m/x"}, "pin_global": true})
    );
    core.on_frame(&start_response(start["request_id"].as_str().unwrap()), 1);
    let mut order = Vec::new();
    for (response, _) in [
        ("enable_memfs_response", ()),
        ("set_reflection_settings_response", ()),
        ("update_model_response", ()),
    ] {
        let sent = writes(&effects(&mut core));
        assert_eq!(sent.len(), 1);
        order.push(sent[0]["type"].as_str().unwrap().to_owned());
        if sent[0]["type"] == "set_reflection_settings" {
            assert_eq!(
                sent[0]["settings"],
                serde_json::json!({"trigger": "step-count", "step_count": 3})
            );
            assert_eq!(sent[0]["scope"], "both");
        }
        if sent[0]["type"] == "update_model" {
            assert_eq!(
                sent[0]["payload"],
                serde_json::json!({"model_handle": "p/other", "reasoning_effort": "high"})
            );
        }
        let id = sent[0]["request_id"].as_str().unwrap();
        core.on_frame(
            &format!(r#"{{"type":"{response}","request_id":"{id}","success":true,"model_handle":"p/other"}}"#),
            2,
        );
    }
    assert_eq!(
        order,
        ["enable_memfs", "set_reflection_settings", "update_model"]
    );
    let info = completion(&effects(&mut core), 1).unwrap().unwrap();
    assert!(info.contains(r#""model":"p/other""#));
}

#[test]
fn send_writes_the_input_and_the_stream_ends_the_turn() {
    let mut core = started(r#"{"allowedTools":["Bash"]}"#);
    core.send(r#""hello""#, Some("otid-1"), 10).unwrap();
    let input = writes(&effects(&mut core)).remove(0);
    assert_eq!(input["type"], "input");
    assert_eq!(
        input["runtime"],
        serde_json::from_str::<serde_json::Value>(RUNTIME).unwrap()
    );
    let payload = &input["payload"];
    assert_eq!(payload["kind"], "create_message");
    assert_eq!(
        payload["messages"][0],
        serde_json::json!({"role": "user", "content": "hello", "client_message_id": "otid-1", "otid": "otid-1"})
    );
    assert_eq!(
        payload["client_tool_allowlist"],
        serde_json::json!(["Bash"])
    );
    assert_eq!(payload["exclude_interactive_tools"], true);
    assert!(core.has_in_flight_turn());
    let frames = [
        r#"{"type":"stream_delta","delta":{"id":"m1","message_type":"assistant_message","content":[{"type":"text","text":"Hi"}],"run_id":"run-1","seq_id":1},"runtime":RT}"#,
        r#"{"type":"stream_delta","delta":{"message_type":"stop_reason","stop_reason":"end_turn","run_id":"run-1","seq_id":2},"runtime":RT}"#,
        r#"{"type":"turn_finished","turn_id":"t","stop_reason":"end_turn","run_id":"run-1","runtime":RT}"#,
    ];
    for frame in frames {
        core.on_frame(&frame.replace("RT", RUNTIME), 20);
    }
    if let Some(deadline) = core.next_deadline() {
        core.on_tick(deadline);
    }
    let messages: Vec<serde_json::Value> = std::iter::from_fn(|| core.pop_message())
        .map(|m| serde_json::from_str(&m).unwrap())
        .collect();
    assert_eq!(messages[0]["type"], "assistant");
    let result = messages.last().unwrap();
    assert_eq!(result["type"], "result");
    assert_eq!(result["success"], true);
    assert_eq!(result["result"], "Hi");
    assert!(!core.has_in_flight_turn());
}

#[test]
fn send_validates_its_arguments() {
    let mut core = started("");
    assert_eq!(
        core.send(r#""x""#, Some("  "), 0).unwrap_err().message,
        "send() otid must be a non-empty string"
    );
    assert!(core.send("42", None, 0).is_err());
    assert!(core
        .send(r#"[{"type":"text","text":"a"}]"#, None, 0)
        .is_ok());
    let input = writes(&effects(&mut core)).remove(0);
    assert!(input["payload"]["messages"][0]["client_message_id"]
        .as_str()
        .unwrap()
        .starts_with("sdk-message-0-"));
    assert!(input["payload"]["messages"][0].get("otid").is_none());
}

#[test]
fn approvals_ask_the_callback_once_and_replays_resend_the_decision() {
    let mut core = started(r#"{"hasCanUseTool":true}"#);
    let request = format!(
        r#"{{"type":"control_request","request_id":"perm-call_1","request":{{"subtype":"can_use_tool","tool_name":"Bash","input":{{"command":"touch x"}},"tool_call_id":"call_1","permission_suggestions":[{{"id":"s","text":"t"}}],"blocked_path":null}},"runtime":{RUNTIME}}}"#
    );
    core.on_frame(&request, 1);
    let asked = effects(&mut core);
    let Some(Effect::AskApproval {
        handle,
        tool_name,
        input,
        context,
    }) = asked.first().cloned()
    else {
        panic!("expected an approval request, got {asked:?}");
    };
    assert_eq!(tool_name, "Bash");
    assert_eq!(input, r#"{"command":"touch x"}"#);
    assert_eq!(
        context,
        r#"{"requestId":"perm-call_1","toolCallId":"call_1","permissionSuggestions":[{"id":"s","text":"t"}],"blockedPath":null}"#
    );
    core.on_frame(&request, 2);
    assert!(
        effects(&mut core).is_empty(),
        "a replay while the callback runs is ignored"
    );
    core.answer_approval(handle, r#"{"behavior":"allow"}"#);
    let reply = writes(&effects(&mut core)).remove(0);
    assert_eq!(reply["type"], "input");
    assert_eq!(
        reply["payload"],
        serde_json::json!({"kind": "approval_response", "request_id": "perm-call_1", "decision": {"behavior": "allow", "updated_input": null, "selected_permission_suggestion_ids": []}})
    );
    core.on_frame(&request, 3);
    assert_eq!(
        writes(&effects(&mut core)).remove(0)["payload"],
        reply["payload"],
        "re-sent verbatim"
    );
}

#[test]
fn an_agent_free_query_creates_its_conversation_without_an_agent() {
    let body = crate::protocol::commands::CreateConversationBody {
        model: Some("p/m".into()),
        system: Some("be brief".into()),
        ..Default::default()
    };
    let mut core = SessionCore::new(config(
        Target::AgentFree {
            body: Some(body),
            conversation_id: None,
            disable_memory_guard: false,
        },
        "",
    ));
    core.begin(1, 0);
    core.on_open(0);
    let start = writes(&effects(&mut core)).remove(0);
    assert_eq!(start["type"], "runtime_start");
    assert!(start.get("agent_id").is_none());
    assert!(start.get("execution_settings").is_none());
    assert_eq!(
        start["create_conversation"],
        serde_json::json!({"body": {"model": "p/m", "system": "be brief"}})
    );
    let id = start["request_id"].as_str().unwrap();
    core.on_frame(
        &format!(r#"{{"type":"runtime_start_response","request_id":"{id}","success":true,"runtime":{{"agent_id":null,"conversation_id":"conv-free"}}}}"#),
        1,
    );
    let info: serde_json::Value =
        serde_json::from_str(&completion(&effects(&mut core), 1).unwrap().unwrap()).unwrap();
    assert_eq!(info["agentId"], serde_json::Value::Null);
    assert_eq!(info["sessionId"], "conv-free");
}

#[test]
fn a_query_without_the_memory_guard_says_so_in_each_start() {
    for conversation_id in [None, Some("conv-free".to_owned())] {
        let body =
            conversation_id
                .is_none()
                .then(|| crate::protocol::commands::CreateConversationBody {
                    model: Some("p/m".into()),
                    system: Some("s".into()),
                    ..Default::default()
                });
        let mut core = SessionCore::new(config(
            Target::AgentFree {
                body,
                conversation_id: conversation_id.clone(),
                disable_memory_guard: true,
            },
            "",
        ));
        core.begin(1, 0);
        core.on_open(0);
        let start = writes(&effects(&mut core)).remove(0);
        assert_eq!(
            start["execution_settings"],
            serde_json::json!({"allowed_tools": [], "disallowed_tools": [], "disable_memory_guard": true})
        );
        assert_eq!(
            start["create_conversation"].is_object(),
            conversation_id.is_none()
        );
    }
}

#[test]
fn a_message_batch_is_the_json_array_of_the_messages_popped_one_by_one() {
    let frames = [
        r#"{"type":"stream_delta","delta":{"id":"m1","message_type":"reasoning_message","reasoning":"Think \"hard\"","run_id":"run-1","seq_id":1},"runtime":RT}"#,
        r#"{"type":"stream_delta","delta":{"id":"m2","message_type":"assistant_message","content":[{"type":"text","text":"Hi\n"}],"run_id":"run-1","seq_id":2},"runtime":RT}"#,
        r#"{"type":"stream_delta","delta":{"message_type":"stop_reason","stop_reason":"end_turn","run_id":"run-1","seq_id":3},"runtime":RT}"#,
        r#"{"type":"turn_finished","turn_id":"t","stop_reason":"end_turn","run_id":"run-1","runtime":RT}"#,
    ];
    let run = |core: &mut SessionCore| {
        core.send(r#""hello""#, Some("otid-1"), 10).unwrap();
        for frame in frames {
            core.on_frame(&frame.replace("RT", RUNTIME), 20);
        }
        if let Some(deadline) = core.next_deadline() {
            core.on_tick(deadline);
        }
    };
    let (mut one_by_one, mut batched) = (started(""), started(""));
    run(&mut one_by_one);
    run(&mut batched);
    let popped: Vec<serde_json::Value> = std::iter::from_fn(|| one_by_one.pop_message())
        .map(|m| serde_json::from_str(&m).unwrap())
        .collect();
    let batch: Vec<serde_json::Value> =
        serde_json::from_str(&batched.take_messages_json().unwrap()).unwrap();
    let types: Vec<&str> = popped.iter().map(|m| m["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["reasoning", "assistant", "result"]);
    assert_eq!(batch, popped);
    assert_eq!(
        batched.take_messages_json(),
        None,
        "the batch empties the queue"
    );
}
