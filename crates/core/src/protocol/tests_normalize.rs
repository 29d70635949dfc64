//! Normalization of every `message_type` (spec §3.6, transcript.md §10.1).

use super::delta::StreamDelta;
use super::normalize::{normalize_delta, tool_input_from_arguments, UuidCounter};
use super::sdk_message::SdkMessage;
use serde_json::{json, Value};

fn norm_with(delta: &Value, uuids: &mut UuidCounter) -> Option<Value> {
    let text = delta.to_string();
    let delta = StreamDelta::parse(&text).expect("object delta");
    normalize_delta(&delta, "app-server", uuids)
        .map(|m| serde_json::from_str(&m.to_json()).unwrap())
}

fn norm(delta: Value) -> Option<Value> {
    norm_with(&delta, &mut UuidCounter::default())
}

#[test]
fn assistant_text_forms_and_identity() {
    let m = norm(json!({"message_type":"assistant_message","id":"m1","otid":"o1","seq_id":4,
        "run_id":"r1","content":[{"type":"text","text":"a"},"b",{"text":5},{"x":1},["c"],{"text":"d"}]}))
    .unwrap();
    assert_eq!(
        m,
        json!({"type":"assistant","content":"abd","uuid":"m1","otid":"o1","seqId":4,"runId":"r1"})
    );
    let m = norm(json!({"message_type":"assistant_message","content":{"text":"obj"},"otid":null}))
        .unwrap();
    assert_eq!(
        m,
        json!({"type":"assistant","content":"obj","uuid":"app-server-1","otid":null})
    );
    // otid of another kind and a non-number seq id are left out.
    let m = norm(json!({"message_type":"assistant_message","content":"s","otid":3,"seq_id":"4"}))
        .unwrap();
    assert!(m.get("otid").is_none() && m.get("seqId").is_none() && m.get("runId").is_none());
    for empty in [
        json!(""),
        json!([]),
        json!([{"type":"image"}]),
        json!(null),
        json!(7),
        json!({}),
    ] {
        assert_eq!(
            norm(json!({"message_type":"assistant_message","content":empty})),
            None
        );
    }
    assert_eq!(norm(json!({"message_type":"assistant_message"})), None);
}

#[test]
fn reasoning_prefers_the_reasoning_string() {
    let m =
        norm(json!({"message_type":"reasoning_message","reasoning":"r","content":"c"})).unwrap();
    assert_eq!(m["content"], "r");
    let m =
        norm(json!({"message_type":"reasoning_message","reasoning":5,"content":[{"text":"c"}]}))
            .unwrap();
    assert_eq!(m["content"], "c");
    assert_eq!(m["type"], "reasoning");
    assert_eq!(
        norm(json!({"message_type":"reasoning_message","reasoning":"","content":"c"})),
        None
    );
}

#[test]
fn synthetic_uuids_count_per_coordinator_and_only_for_messages() {
    let mut uuids = UuidCounter::default();
    assert_eq!(
        norm_with(&json!({"message_type":"stop_reason"}), &mut uuids),
        None
    );
    let a = norm_with(&json!({"message_type":"usage_statistics"}), &mut uuids).unwrap();
    let b = norm_with(
        &json!({"message_type":"assistant_message","content":"x"}),
        &mut uuids,
    )
    .unwrap();
    assert_eq!(a["uuid"], "app-server-1");
    assert_eq!(b["uuid"], "app-server-2");
}

#[test]
fn tool_call_argument_forms() {
    let call = |tool_call: Value| {
        norm(
            json!({"message_type":"tool_call_message","id":"m","run_id":"r","tool_call":tool_call}),
        )
        .unwrap()
    };
    let m = call(json!({"tool_call_id":"t1","name":"Bash","arguments":{"a":[1, 2]}}));
    assert_eq!(
        m,
        json!({"type":"tool_call","toolCallId":"t1","toolName":"Bash","toolInput":{"a":[1,2]},
            "uuid":"m","runId":"r"})
    );
    let m = call(json!({"tool_call_id":"t1","arguments":"{\"x\": 1}"}));
    assert_eq!(m["toolInput"], json!({"x":1}));
    assert_eq!(m["rawArguments"], "{\"x\": 1}");
    assert_eq!(m["toolName"], "?");
    let m = call(json!({"tool_call_id":"t1","arguments":"{\"x\":"}));
    assert_eq!(m["toolInput"], json!({"raw":"{\"x\":"}));
    assert_eq!(m["rawArguments"], "{\"x\":");
    let m = call(json!({"tool_call_id":"t1","arguments":"[1]"}));
    assert_eq!(m["toolInput"], json!({"raw":"[1]"}));
    for empty in [json!(""), json!(null), json!(5), json!([1])] {
        let m = call(json!({"tool_call_id":"t1","arguments":empty}));
        assert_eq!(m["toolInput"], json!({}));
        assert!(m.get("rawArguments").is_none());
    }
    let m = call(json!({"tool_call_id":"t1"}));
    assert_eq!(m["toolInput"], json!({}));
}

#[test]
fn tool_call_sources_and_ids() {
    // OpenAI nested form inside a tool_calls array: id and function.name/arguments.
    let m = norm(
        json!({"message_type":"approval_request_message","tool_calls":[
        {"id":"c1","function":{"name":"Read","arguments":"{\"p\":1}"}},{"id":"c2"}]}),
    )
    .unwrap();
    assert_eq!(m["toolCallId"], "c1");
    assert_eq!(m["toolName"], "Read");
    assert_eq!(m["toolInput"], json!({"p":1}));
    // tool_calls as an object wins over tool_call.
    let m = norm(
        json!({"message_type":"tool_call_message","tool_calls":{"tool_call_id":"o"},
        "tool_call":{"tool_call_id":"ignored"}}),
    )
    .unwrap();
    assert_eq!(m["toolCallId"], "o");
    // Top-level name beats function.name; explicit arguments beat function.arguments.
    let m = norm(
        json!({"message_type":"tool_call_message","tool_call":{"tool_call_id":"t",
        "name":"A","arguments":{"k":1},"function":{"name":"B","arguments":"{}"}}}),
    )
    .unwrap();
    assert_eq!(
        (m["toolName"].clone(), m["toolInput"].clone()),
        (json!("A"), json!({"k":1}))
    );
    // No tool call object at all (or an empty array): nothing.
    assert_eq!(norm(json!({"message_type":"tool_call_message"})), None);
    assert_eq!(
        norm(json!({"message_type":"tool_call_message","tool_calls":[]})),
        None
    );
    assert_eq!(
        norm(json!({"message_type":"tool_call_message","tool_calls":["x"],"tool_call":{"id":"t"}})),
        None
    );
}

#[test]
fn tool_call_without_id_is_a_protocol_error() {
    let m = norm(
        json!({"message_type":"approval_request_message","id":"msg-9","run_id":"r",
        "tool_call":{"name":"Bash","tool_call_id":7}}),
    )
    .unwrap();
    let detail = "Missing tool_call_id in approval_request_message (uuid=msg-9)";
    assert_eq!(
        m,
        json!({"type":"error","message":detail,"errorCode":"protocol_error","recoverable":false,
            "errorDetail":detail,"stopReason":"protocol_error","runId":"r"})
    );
    let m = norm(json!({"message_type":"tool_call_message","tool_call":{}})).unwrap();
    assert_eq!(
        m["message"],
        "Missing tool_call_id in tool_call_message (uuid=app-server-1)"
    );
}

#[test]
fn tool_return_content_and_status_rules() {
    let m = norm(json!({"message_type":"tool_return_message","id":"synthetic-1","run_id":"r",
        "status":"success","tool_call_id":"c","tool_return":"hello",
        "tool_returns":[{"tool_call_id":"c","status":"error","tool_return":"x","stdout":["hello"]}]}))
    .unwrap();
    assert_eq!(
        m,
        json!({"type":"tool_result","toolCallId":"c","content":"hello","isError":false,
            "uuid":"synthetic-1","runId":"r"})
    );
    // Fallbacks into tool_returns[0]: id, tool_return, then content; status.
    let m = norm(json!({"message_type":"tool_return_message",
        "tool_returns":[{"tool_call_id":"c2","status":"error","content":[{"text":"boom"}]}]}))
    .unwrap();
    assert_eq!(
        (m["toolCallId"].clone(), m["content"].clone()),
        (json!("c2"), json!("boom"))
    );
    assert_eq!(m["isError"], true);
    // A present non-text tool_return does not fall through (`??` semantics): empty content.
    let m = norm(
        json!({"message_type":"tool_return_message","tool_call_id":"c","tool_return":5,
        "tool_returns":[{"tool_return":"unused"}]}),
    )
    .unwrap();
    assert_eq!(m["content"], "");
    // Without tool_returns the delta's own content is used.
    let m = norm(json!({"message_type":"tool_return_message","tool_call_id":"c","content":"own"}))
        .unwrap();
    assert_eq!(m["content"], "own");
    // No id anywhere: dropped.
    assert_eq!(
        norm(json!({"message_type":"tool_return_message","tool_return":"x"})),
        None
    );
    assert_eq!(
        norm(json!({"message_type":"tool_return_message","tool_returns":[{"tool_return":"x"}]})),
        None
    );
}

#[test]
fn error_messages_and_approval_conflicts() {
    let m = norm(json!({"message_type":"error_message","run_id":"r"})).unwrap();
    assert_eq!(
        m,
        json!({"type":"error","message":"app-server turn failed","errorCode":"error",
            "recoverable":false,"errorDetail":"app-server turn failed","stopReason":"error","runId":"r"})
    );
    let m = norm(
        json!({"message_type":"loop_error","detail":"d","message":"m",
        "error_type":"llm_api_error"}),
    )
    .unwrap();
    assert_eq!(
        (m["message"].clone(), m["errorCode"].clone()),
        (json!("d"), json!("llm_api_error"))
    );
    let m = norm(json!({"message_type":"error_message","stop_reason":"weird"})).unwrap();
    assert!(m.get("errorCode").is_none());
    let m = norm(json!({"message_type":"error_message",
        "message":"Cannot send a new message: Waiting for approval on a tool call"}))
    .unwrap();
    assert_eq!(m["errorCode"], "approval_conflict");
    assert_eq!(m["approvalConflict"], true);
    assert_eq!(m["recoverable"], true);
}

#[test]
fn retry_defaults_and_copies() {
    let m = norm(json!({"message_type":"retry"})).unwrap();
    assert_eq!(
        m,
        json!({"type":"retry","reason":"error","attempt":0,"maxAttempts":0,"delayMs":0})
    );
    let m = norm(
        json!({"message_type":"retry","reason":"rate","attempt":2,"max_attempts":3,
        "delay_ms":1.5,"run_id":"r"}),
    )
    .unwrap();
    assert_eq!(
        m,
        json!({"type":"retry","reason":"rate","attempt":2,"maxAttempts":3,"delayMs":1.5,"runId":"r"})
    );
}

#[test]
fn stop_reason_and_ping_yield_nothing_and_the_rest_is_a_stream_event() {
    assert_eq!(
        norm(json!({"message_type":"stop_reason","stop_reason":"end_turn"})),
        None
    );
    assert_eq!(norm(json!({"message_type":"ping"})), None);
    let text =
        r#"{ "message_type" : "usage_statistics","id":"u1", "n":1.50, "deep":{"a":[true,null]} }"#;
    let delta = StreamDelta::parse(text).unwrap();
    let message = normalize_delta(&delta, "cloud", &mut UuidCounter::default()).unwrap();
    let SdkMessage::StreamEvent(event) = &message else {
        panic!("stream_event expected");
    };
    assert_eq!(
        crate::json::to_string(&event.event),
        r#"{"message_type":"usage_statistics","id":"u1","n":1.5,"deep":{"a":[true,null]}}"#,
        "the event is the delta written back, members in order"
    );
    assert_eq!(event.uuid, "u1");
    for kind in [
        "user_message",
        "status",
        "client_tool_start",
        "event_message",
        "slash_command_end",
    ] {
        assert_eq!(
            norm(json!({"message_type":kind})).unwrap()["type"],
            "stream_event"
        );
    }
    assert_eq!(
        norm(json!({"message_type":5})).unwrap()["type"],
        "stream_event"
    );
    assert_eq!(norm(json!({})).unwrap()["event"], json!({}));
}

#[test]
fn tool_input_from_arguments_direct() {
    let (input, raw) = tool_input_from_arguments(None);
    assert_eq!((crate::json::to_string(&input).as_str(), raw), ("{}", None));
    let args = crate::json::parse(r#"" {\"a\":1} ""#).unwrap();
    let (input, raw) = tool_input_from_arguments(Some(&args));
    assert_eq!(crate::json::to_string(&input), r#"{"a":1}"#);
    assert_eq!(raw.as_deref(), Some(r#" {"a":1} "#));
}
