//! Frame parsing, malformed input, the runtime filter, and command serialization.

use super::commands::*;
use super::frames::{parse_frame, FrameBody, FrameKind};
use super::runtime::Runtime;
use crate::json::Value;
use serde_json::json;

fn rt() -> Runtime {
    Runtime::new("agent-1", "conv-1")
}

#[test]
fn malformed_frames_are_dropped_without_panicking() {
    for text in [
        "",
        "not json",
        "[]",
        "[{\"type\":\"stream_delta\"}]",
        "\"stream_delta\"",
        "42",
        "null",
        "{",
        "{\"type\":\"stream_delta\",}",
        "{\"type\":\"stream_delta\"} trailing",
        "{\"type\":\"turn_finished\",\"type\":\"turn_finished\"}",
    ] {
        assert!(parse_frame(text).is_none(), "{text:?}");
    }
    // Objects without a usable type are kept as `Other` with an empty type.
    let frame = parse_frame(r#"{"type":5,"request_id":"r"}"#).unwrap();
    assert_eq!(
        (frame.frame_type.as_ref(), frame.kind),
        ("", FrameKind::Other)
    );
    assert_eq!(frame.request_id.as_deref(), Some("r"));
}

#[test]
fn unusable_payloads_of_known_types_are_invalid() {
    for text in [
        r#"{"type":"stream_delta"}"#,
        r#"{"type":"stream_delta","delta":[{"message_type":"assistant_message"}]}"#,
        r#"{"type":"stream_delta","delta":"x"}"#,
        r#"{"type":"stream_delta","delta":null}"#,
        r#"{"type":"update_loop_status","loop_status":{"active_run_ids":["r"]}}"#,
        r#"{"type":"update_loop_status","loop_status":[]}"#,
        r#"{"type":"turn_finished","run_id":"r"}"#,
        r#"{"type":"turn_finished","run_id":"r","stop_reason":null}"#,
        r#"{"type":"control_request","request_id":"p"}"#,
    ] {
        let frame = parse_frame(text).expect(text);
        assert!(matches!(frame.body, FrameBody::Invalid), "{text}");
    }
}

#[test]
fn fields_of_unexpected_kinds_do_not_fail_the_frame() {
    let text = r#"{"type":"stream_delta","request_id":{"x":1},"runtime":{"agent_id":"agent-1",
        "conversation_id":"conv-1","extra":[1,{"a":"}"}]},"delta":{"message_type":"assistant_message",
        "id":17,"run_id":["r"],"seq_id":"1","otid":{"o":1},"content":"hi","tool_calls":"nope"}}"#;
    let frame = parse_frame(text).unwrap();
    assert!(frame.scope.matches(&rt()));
    assert_eq!(frame.request_id, None);
    let FrameBody::StreamDelta(delta) = &frame.body else {
        panic!("stream delta");
    };
    assert_eq!(delta.message_type(), Some("assistant_message"));
    assert_eq!(delta.run_id(), None);
    assert!(delta.fields().id.as_str().is_none());
}

#[test]
fn runtime_filter_follows_same_runtime() {
    let matches = |text: &str, runtime: &Runtime| parse_frame(text).unwrap().scope.matches(runtime);
    let base = r#"{"type":"update_queue","queue":[]"#;
    let with = |extra: &str| format!("{base}{extra}}}");
    assert!(matches(&with(""), &rt()));
    assert!(matches(
        &with(r#","runtime":{"agent_id":"agent-1","conversation_id":"conv-1"}"#),
        &rt()
    ));
    assert!(!matches(
        &with(r#","runtime":{"agent_id":"agent-2","conversation_id":"conv-1"}"#),
        &rt()
    ));
    assert!(!matches(
        &with(r#","runtime":{"conversation_id":"conv-1"}"#),
        &rt()
    ));
    assert!(!matches(&with(r#","runtime":"conv-1""#), &rt()));
    // A falsy runtime falls back to the top-level ids; empty ids are ignored.
    assert!(matches(
        &with(r#","runtime":null,"agent_id":"agent-1""#),
        &rt()
    ));
    for falsy in ["false", "0", "-0", "0.0", "\"\""] {
        let text = with(&format!(r#","runtime":{falsy},"agent_id":"agent-1""#));
        assert!(matches(&text, &rt()), "{text}");
    }
    for truthy in ["true", "1", "\"x\"", "[]"] {
        let text = with(&format!(r#","runtime":{truthy}"#));
        assert!(!matches(&text, &rt()), "{text}");
    }
    assert!(!matches(&with(r#","agentId":"agent-2""#), &rt()));
    assert!(!matches(&with(r#","conversationId":"conv-2""#), &rt()));
    assert!(matches(
        &with(r#","conversation_id":"","agent_id":"""#),
        &rt()
    ));
    // Agent-free sessions match `agent_id: null`.
    let free = Runtime::agent_free("conv-1");
    assert!(matches(
        &with(r#","runtime":{"agent_id":null,"conversation_id":"conv-1"}"#),
        &free
    ));
    assert!(!matches(
        &with(r#","runtime":{"agent_id":"a","conversation_id":"conv-1"}"#),
        &free
    ));
}

#[test]
fn queue_and_loop_status_projections() {
    let frame = parse_frame(
        r#"{"type":"update_queue","queue":[{"id":"q-1","client_message_id":"c","kind":"message",
        "source":"user","content":[{"type":"text","text":"hi"}],"enqueued_at":"t"},{"id":2},"x",
        {"id":"q-2","content":null}],"removed":[{"client_message_id":"c0","disposition":"dequeued"}]}"#,
    )
    .unwrap();
    let FrameBody::QueueUpdate(queue) = &frame.body else {
        panic!("queue");
    };
    assert_eq!(queue.removed.len(), 1);
    assert_eq!(queue.removed[0].disposition.as_deref(), Some("dequeued"));
    let json: serde_json::Value = serde_json::from_str(&queue.to_message().to_json()).unwrap();
    assert_eq!(
        json,
        json!({"type":"queue_update","queue":[
            {"id":"q-1","clientMessageId":"c","kind":"message","source":"user",
             "content":[{"type":"text","text":"hi"}],"enqueuedAt":"t"},
            {"id":"q-2","clientMessageId":"","kind":"message","source":"user","content":null,
             "enqueuedAt":""}]})
    );
    let frame = parse_frame(r#"{"type":"update_queue","queue":{"id":"x"}}"#).unwrap();
    let FrameBody::QueueUpdate(queue) = &frame.body else {
        panic!("queue");
    };
    assert!(queue.queue.is_empty());

    let frame = parse_frame(
        r#"{"type":"update_loop_status","loop_status":{"status":"WAITING_ON_INPUT",
        "active_run_ids":["r1",2,null,"r2"],"executing_tool_call_ids":[]}}"#,
    )
    .unwrap();
    let FrameBody::LoopStatus(status) = &frame.body else {
        panic!("loop status");
    };
    assert_eq!(
        status.to_message().to_json(),
        r#"{"type":"loop_status","status":"WAITING_ON_INPUT","activeRunIds":["r1","r2"]}"#
    );
}

#[test]
fn turn_finished_control_request_and_responses() {
    let frame = parse_frame(
        r#"{"type":"turn_finished","turn_id":"t","stop_reason":"end_turn","run_id":"r",
        "error":{"x":1},"usage":{"total_tokens":3}}"#,
    )
    .unwrap();
    let FrameBody::TurnFinished(finished) = &frame.body else {
        panic!("turn_finished");
    };
    assert_eq!(finished.run_id.as_deref(), Some("r"));
    assert_eq!(finished.error, None);

    let frame = parse_frame(
        r#"{"type":"control_request","request_id":"perm-c1","request":{"subtype":"can_use_tool",
        "tool_name":"Bash","input":[1],"tool_call_id":"c1","permission_suggestions":[{"id":"s",
        "text":"t"}],"blocked_path":null},"agent_id":"agent-1","conversation_id":"conv-1"}"#,
    )
    .unwrap();
    assert_eq!(frame.request_id.as_deref(), Some("perm-c1"));
    assert_eq!(frame.scope.runtime(), Some(rt()));
    let FrameBody::ControlRequest(request) = &frame.body else {
        panic!("control_request");
    };
    assert_eq!(request.subtype.as_deref(), Some("can_use_tool"));
    assert!(request.input.is_none(), "non-object input is dropped");
    assert!(matches!(request.blocked_path, Value::Null));

    let frame =
        parse_frame(r#"{"type":"sync_response","request_id":"s1","success":false,"error":"no"}"#)
            .unwrap();
    assert_eq!(frame.kind, FrameKind::Response);
    let FrameBody::Response(response) = &frame.body else {
        panic!("response");
    };
    assert_eq!(
        (response.success, response.error.as_deref()),
        (Some(false), Some("no"))
    );

    let frame =
        parse_frame(r#"{"type":"input_accepted","accepted":true,"disposition":"queued"}"#).unwrap();
    assert!(matches!(frame.body, FrameBody::InputAccepted(ref a) if a.accepted == Some(true)));
}

#[test]
fn commands_serialize_like_the_reference() {
    let mut start = RuntimeStart::new("runtime-start-1", "standard");
    start.agent_id = Some("agent-1".into());
    start.create_conversation = Some(CreateConversation::default());
    start.skill_sources = Some(vec![]);
    assert_eq!(
        Command::RuntimeStart(start).to_json(),
        r#"{"type":"runtime_start","request_id":"runtime-start-1","client_info":{"name":"@letta-ai/letta-agent-sdk","title":"Letta Agent SDK"},"recover_approvals":false,"force_device_status":true,"mode":"standard","skill_sources":[],"agent_id":"agent-1","create_conversation":{"body":{}}}"#
    );
    let input = Command::Input(Input {
        request_id: None,
        runtime: rt(),
        payload: InputPayload::CreateMessage(CreateMessage {
            messages: vec![UserMessage {
                role: "user",
                content: Value::String("hi".into()),
                client_message_id: "otid-1".into(),
                otid: Some("otid-1".into()),
            }],
            client_tool_allowlist: None,
            client_toolset: None,
            response_format: None,
            exclude_interactive_tools: true,
        }),
    });
    assert_eq!(
        input.to_json(),
        r#"{"type":"input","runtime":{"agent_id":"agent-1","conversation_id":"conv-1"},"payload":{"kind":"create_message","messages":[{"role":"user","content":"hi","client_message_id":"otid-1","otid":"otid-1"}],"exclude_interactive_tools":true}}"#
    );
    let allow = Command::Input(Input {
        request_id: None,
        runtime: Runtime::agent_free("c"),
        payload: InputPayload::ApprovalResponse(ApprovalResponse {
            request_id: "perm-1".into(),
            decision: ApprovalDecision::Allow {
                message: None,
                updated_input: None,
                selected_permission_suggestion_ids: vec![],
            },
        }),
    });
    assert_eq!(
        allow.to_json(),
        r#"{"type":"input","runtime":{"agent_id":null,"conversation_id":"c"},"payload":{"kind":"approval_response","request_id":"perm-1","decision":{"behavior":"allow","updated_input":null,"selected_permission_suggestion_ids":[]}}}"#
    );
    let list = Command::ConversationMessagesList(ConversationMessagesList {
        request_id: "l1".into(),
        conversation_id: "conv-1".into(),
        query: MessagesQuery::default(),
    });
    assert_eq!(
        list.to_json(),
        r#"{"type":"conversation_messages_list","request_id":"l1","conversation_id":"conv-1"}"#
    );
    let response = Command::ExternalToolCallResponse(ExternalToolCallResponse {
        request_id: "x1".into(),
        result: None,
        error: Some("Unknown external tool: nope".into()),
    });
    assert_eq!(
        response.to_json(),
        r#"{"type":"external_tool_call_response","request_id":"x1","error":"Unknown external tool: nope"}"#
    );
    assert_eq!(
        Command::UpdateModel(UpdateModel {
            request_id: "u".into(),
            runtime: rt(),
            payload: ModelPayload::from_model("openai/gpt"),
        })
        .to_json(),
        r#"{"type":"update_model","request_id":"u","runtime":{"agent_id":"agent-1","conversation_id":"conv-1"},"payload":{"model_handle":"openai/gpt"}}"#
    );
}

#[test]
fn stream_event_of_a_parsed_frame_is_the_delta_written_back() {
    use super::normalize::{normalize_delta, UuidCounter};
    let wire =
        r#"{ "id" : "u-1","message_type":"usage_statistics", "n": 1.0e2 ,"x":"\u00e9","f":0.25}"#;
    let text = format!(r#"{{"type":"stream_delta","event_seq":3,"delta":{wire} ,"runtime":null}}"#);
    let frame = parse_frame(&text).unwrap();
    let FrameBody::StreamDelta(parsed) = &frame.body else {
        panic!("stream delta");
    };
    // Members in document order, no whitespace, integral numbers as integers, escapes decoded.
    let delta = r#"{"id":"u-1","message_type":"usage_statistics","n":100,"x":"é","f":0.25}"#;
    assert_eq!(crate::json::to_string(parsed.object()), delta);
    let message = normalize_delta(parsed, "cloud", &mut UuidCounter::default()).unwrap();
    assert_eq!(
        message.to_json(),
        format!(r#"{{"type":"stream_event","event":{delta},"uuid":"u-1"}}"#)
    );
}

#[test]
fn repeated_known_members_reject_the_frame_and_unknown_ones_do_not() {
    assert!(parse_frame(r#"{"type":"update_queue","queue":[],"queue":[]}"#).is_none());
    assert!(parse_frame(r#"{"type":"x","runtime":null,"runtime":null}"#).is_none());
    let frame = parse_frame(r#"{"type":"input_accepted","x":1,"x":2,"accepted":true}"#).unwrap();
    assert!(matches!(frame.body, FrameBody::InputAccepted(ref a) if a.accepted == Some(true)));
    // Inside a body, the last duplicate wins (as `JSON.parse`).
    let frame =
        parse_frame(r#"{"type":"stream_delta","delta":{"run_id":"a","run_id":"b"}}"#).unwrap();
    let FrameBody::StreamDelta(delta) = &frame.body else {
        panic!("stream delta");
    };
    assert_eq!(delta.run_id(), Some("b"));
}

#[test]
fn the_server_runtime_form_and_the_parsed_form_agree() {
    let scope = |runtime: &str| {
        let text = format!(r#"{{"type":"update_queue","queue":[],"runtime":{runtime}}}"#);
        let frame = parse_frame(&text).unwrap();
        (
            frame.scope.matches(&rt()),
            frame.scope.matches(&Runtime::agent_free("conv-1")),
            frame.scope.runtime(),
            frame.scope.conversation_id().map(str::to_owned),
        )
    };
    let server = scope(r#"{"agent_id":"agent-1","conversation_id":"conv-1"}"#);
    assert_eq!(server, (true, false, Some(rt()), Some("conv-1".to_owned())));
    for same in [
        r#"{ "agent_id" : "agent-1", "conversation_id" : "conv-1" }"#,
        r#"{"conversation_id":"conv-1","agent_id":"agent-1"}"#,
        r#"{"agent_id":"agent\u002d1","conversation_id":"conv-1"}"#,
        r#"{"agent_id":"agent-1","conversation_id":"conv-1","x":1}"#,
    ] {
        assert_eq!(scope(same), server, "{same}");
    }
    let free = scope(r#"{"agent_id":null,"conversation_id":"conv-1"}"#);
    assert_eq!(
        free,
        (
            false,
            true,
            Some(Runtime::agent_free("conv-1")),
            Some("conv-1".to_owned())
        )
    );
    assert_eq!(
        scope(r#"{"agent_id":null , "conversation_id":"conv-1"}"#),
        free
    );
    let other = scope(r#"{"agent_id":"agent-1","conversation_id":"conv-2"}"#);
    assert_eq!(
        other,
        (
            false,
            false,
            Some(Runtime::new("agent-1", "conv-2")),
            Some("conv-2".to_owned())
        )
    );
    assert!(!scope(r#"{"conversation_id":"conv-1"}"#).0);
    assert_eq!(
        scope(r#"{"agent_id":"agent-1","conversation_id":5}"#).2,
        None
    );
}

#[test]
fn device_status_is_skipped_only_when_type_comes_first() {
    let skipped = parse_frame(r#"{"type":"update_device_status","device_status":{"x":1}}"#);
    assert!(matches!(skipped.unwrap().body, FrameBody::Skipped));
    // Any other layout is parsed; without a listener the body is then simply unused.
    let parsed = parse_frame(r#"{"device_status":{"x":1},"type":"update_device_status"}"#);
    assert!(matches!(parsed.unwrap().body, FrameBody::DeviceStatus(_)));
    let parsed = parse_frame(r#" {"type":"update_device_status","device_status":[]}"#);
    assert!(matches!(parsed.unwrap().body, FrameBody::Invalid));
}

/// Parses one `stream_delta` frame and returns its normalized SDK message as JSON.
fn normalized_delta_json(text: &str) -> String {
    use super::normalize::{normalize_delta, UuidCounter};
    let frame = parse_frame(text).unwrap();
    let FrameBody::StreamDelta(delta) = &frame.body else {
        panic!("stream delta");
    };
    normalize_delta(delta, "app-server", &mut UuidCounter::default())
        .unwrap()
        .to_json()
}

#[test]
fn integral_numbers_serialize_as_integers() {
    let text = r#"{"type":"stream_delta","delta":{"message_type":"assistant_message","id":"m",
        "content":"x","seq_id":4.0}}"#;
    assert_eq!(
        normalized_delta_json(text),
        r#"{"type":"assistant","content":"x","uuid":"m","seqId":4}"#
    );
    let text = r#"{"type":"stream_delta","delta":{"message_type":"retry","attempt":2.0,
        "max_attempts":3,"delay_ms":1500.0}}"#;
    assert_eq!(
        normalized_delta_json(text),
        r#"{"type":"retry","reason":"error","attempt":2,"maxAttempts":3,"delayMs":1500}"#
    );
}
