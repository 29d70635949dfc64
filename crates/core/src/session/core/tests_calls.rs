//! Session API call tests (timeouts, raw commands, transport loss, device status, tools,
//! malformed frames, management, close).

use super::tests::{completion, config, effects, started, writes, RUNTIME};
use super::*;

#[test]
fn requests_time_out_with_a_typed_error() {
    let mut core = started("");
    core.send_command(
        4,
        r#"{"type":"no_such_command"}"#,
        r#"{"responseType":"no_such_command_response","timeoutMs":500}"#,
        false,
        100,
    );
    let sent = writes(&effects(&mut core)).remove(0);
    let id = sent["request_id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("no_such_command-test-"));
    assert_eq!(core.next_deadline(), Some(600));
    core.on_tick(599);
    assert!(completion(&effects(&mut core), 4).is_none());
    core.on_tick(600);
    let error = completion(&effects(&mut core), 4).unwrap().unwrap_err();
    assert_eq!(error.code(), "timeout");
    assert_eq!(error.name(), "LettaTimeoutError");
    assert_eq!(error.message, format!("Timed out waiting for {id}"));
}

#[test]
fn send_command_keeps_a_caller_request_id_and_matches_the_response_type() {
    let mut core = started("");
    core.send_command(
        2,
        r#"{"type":"list_models","request_id":"mine","force":true}"#,
        r#"{"responseType":"list_models_response"}"#,
        false,
        0,
    );
    assert_eq!(
        writes(&effects(&mut core))[0],
        serde_json::json!({"type": "list_models", "request_id": "mine", "force": true})
    );
    core.on_frame(r#"{"type":"other","request_id":"mine"}"#, 1);
    assert!(
        completion(&effects(&mut core), 2).is_none(),
        "another type echoing the id is ignored"
    );
    core.on_frame(
        r#"{"type":"list_models_response","request_id":"mine","success":true,"entries":[]}"#,
        2,
    );
    assert!(completion(&effects(&mut core), 2)
        .unwrap()
        .unwrap()
        .contains("list_models_response"));
}

#[test]
fn losing_the_transport_mid_turn_ends_the_turn_and_closes_the_session() {
    let mut core = started(r#"{"reconnect":false}"#);
    core.send(r#""hi""#, None, 0).unwrap();
    core.list_models(9, 0);
    effects(&mut core);
    core.on_transport_closed(50);
    let done = effects(&mut core);
    assert_eq!(
        completion(&done, 9).unwrap().unwrap_err().message,
        "App-server socket closed"
    );
    let messages: Vec<serde_json::Value> = std::iter::from_fn(|| core.pop_message())
        .map(|m| serde_json::from_str(&m).unwrap())
        .collect();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["type"], "error");
    assert_eq!(messages[0]["errorCode"], "stream_closed");
    assert_eq!(messages[1]["type"], "result");
    assert_eq!(messages[1]["stopReason"], "stream_closed");
    assert_eq!(messages[1]["recoverable"], true);
    assert!(core.stream_ended());
    assert_eq!(
        core.send(r#""again""#, None, 60).unwrap_err().message,
        "Session is closed"
    );
}

#[test]
fn device_status_frames_are_skipped_unless_someone_listens() {
    let mut core = started("");
    let status = format!(
        r#"{{"type":"update_device_status","device_status":{{"is_online":true,"is_processing":false,"current_permission_mode":"standard","current_working_directory":"/w"}},"runtime":{RUNTIME}}}"#
    );
    core.on_frame(&status, 1);
    assert!(effects(&mut core).is_empty());
    core.set_device_status_listening(true);
    core.on_frame(&status, 2);
    let Some(Effect::DeviceStatus(json)) = effects(&mut core).pop() else {
        panic!("expected a device status")
    };
    assert!(json.contains(r#""isOnline":true"#));
    assert!(json.contains(r#""workingDirectory":"/w""#));
}

#[test]
fn get_device_status_needs_the_sync_and_a_fresh_status() {
    let mut core = started("");
    core.get_device_status(5, r#"{"timeoutMs":1000}"#, 0);
    let sync = writes(&effects(&mut core)).remove(0);
    assert_eq!(sync["type"], "sync");
    assert_eq!(sync["force_device_status"], true);
    let id = sync["request_id"].as_str().unwrap().to_owned();
    core.on_frame(
        &format!(r#"{{"type":"sync_response","request_id":"{id}","success":true}}"#),
        1,
    );
    assert!(
        completion(&effects(&mut core), 5).is_none(),
        "no status yet"
    );
    core.on_frame(
        &format!(r#"{{"type":"update_device_status","device_status":{{"is_online":true,"is_processing":true,"current_working_directory":null}},"runtime":{RUNTIME}}}"#),
        2,
    );
    let status = completion(&effects(&mut core), 5).unwrap().unwrap();
    assert!(status.contains(r#""isProcessing":true"#));

    core.get_device_status(6, "{}", 10);
    effects(&mut core);
    core.on_tick(30_010);
    let error = completion(&effects(&mut core), 6).unwrap().unwrap_err();
    assert_eq!(
        error.message,
        "Timed out waiting for app-server device status"
    );
    core.on_tick(40_000);
    assert!(completion(&effects(&mut core), 6).is_none(), "settled once");
}

#[test]
fn sdk_hosted_tools_run_in_the_caller_and_unknown_ones_are_refused() {
    let mut core = started(
        r#"{"tools":[{"name":"lookup","description":"d","parameters":{"type":"object"}}]}"#,
    );
    core.on_frame(
        &format!(r#"{{"type":"external_tool_call_request","request_id":"x-1","tool_call_id":"c1","tool_name":"nope","input":{{}},"runtime":{RUNTIME}}}"#),
        1,
    );
    assert_eq!(
        writes(&effects(&mut core))[0],
        serde_json::json!({"type": "external_tool_call_response", "request_id": "x-1", "error": "Unknown external tool: nope"})
    );
    core.on_frame(
        &format!(r#"{{"type":"external_tool_call_request","request_id":"x-2","tool_call_id":"c2","tool_name":"lookup","input":{{"q":1}},"runtime":{RUNTIME}}}"#),
        2,
    );
    let Some(Effect::RunTool {
        handle,
        tool_call_id,
        input,
        ..
    }) = effects(&mut core).pop()
    else {
        panic!()
    };
    assert_eq!(
        (tool_call_id.as_str(), input.as_str()),
        ("c2", r#"{"q":1}"#)
    );
    core.finish_tool(
        handle,
        r#"{"result":{"content":[{"type":"text","text":"42","extra":1}],"isError":true}}"#,
    );
    assert_eq!(
        writes(&effects(&mut core))[0],
        serde_json::json!({"type": "external_tool_call_response", "request_id": "x-2", "result": {"content": [{"type": "text", "text": "42"}], "is_error": true}})
    );
}

#[test]
fn malformed_frames_are_dropped_without_harm() {
    let mut core = started("");
    for frame in [
        "",
        "nope",
        "[]",
        "42",
        "null",
        r#"{"type":"stream_delta","delta":[]}"#,
        r#"{"type":5}"#,
        "{\"type\":\"stream_delta\"",
        r#"{"type":"control_request","request":"x"}"#,
    ] {
        core.on_frame(frame, 1);
    }
    assert!(effects(&mut core).is_empty());
    assert!(core.pop_message().is_none());
    assert!(core.is_ready());
}

#[test]
fn a_management_connection_is_ready_on_open_and_checks_success() {
    let mut core = SessionCore::new(config(Target::Management, ""));
    core.begin(1, 0);
    core.on_open(0);
    assert!(completion(&effects(&mut core), 1).unwrap().is_ok());
    core.management(2, "agent_list", r#"{"query":{"limit":5}}"#, 0);
    let sent = writes(&effects(&mut core)).remove(0);
    assert_eq!(sent["type"], "agent_list");
    assert_eq!(sent["query"], serde_json::json!({"limit": 5}));
    let id = sent["request_id"].as_str().unwrap();
    core.on_frame(
        &format!(r#"{{"type":"agent_list_response","request_id":"{id}","success":false}}"#),
        1,
    );
    assert_eq!(
        completion(&effects(&mut core), 2)
            .unwrap()
            .unwrap_err()
            .message,
        "Failed to list agents"
    );
}

#[test]
fn close_rejects_pending_calls_and_is_idempotent() {
    let mut core = started("");
    core.list_messages(3, "{}", 0);
    effects(&mut core);
    core.close(1);
    let done = effects(&mut core);
    assert_eq!(
        completion(&done, 3).unwrap().unwrap_err().message,
        "App-server client closed"
    );
    assert!(done.contains(&Effect::CloseTransport));
    core.close(2);
    assert!(effects(&mut core).is_empty());
    assert!(core.stream_ended());
}

#[test]
fn an_input_carries_the_response_format_it_is_given() {
    let mut core = started("");
    core.send(r#""plain""#, None, 1).unwrap();
    let plain = writes(&effects(&mut core)).remove(0);
    assert!(plain["payload"].get("response_format").is_none());
    let format = r#"{"type":"json_schema","json_schema":{"name":"response_schema","schema":{"type":"object"},"strict":true}}"#;
    core.send_input(r#""structured""#, None, Some(format), 2)
        .unwrap();
    let structured = writes(&effects(&mut core)).remove(0);
    assert_eq!(
        structured["payload"]["response_format"],
        serde_json::from_str::<serde_json::Value>(format).unwrap()
    );
    assert_eq!(
        structured["payload"]["messages"][0]["content"],
        "structured"
    );
    core.send_input(r#""bad format""#, None, Some("{not json"), 3)
        .unwrap();
    let bad = writes(&effects(&mut core)).remove(0);
    assert!(bad["payload"].get("response_format").is_none());
}

#[test]
fn respond_to_approval_answers_by_tool_call_and_the_late_callback_sends_nothing() {
    let mut core = started(r#"{"hasCanUseTool":true}"#);
    let request = format!(
        r#"{{"type":"control_request","request_id":"perm-call_9","request":{{"subtype":"can_use_tool","tool_name":"Bash","input":{{"command":"touch x"}},"tool_call_id":"call_9"}},"runtime":{RUNTIME}}}"#
    );
    core.on_frame(&request, 5);
    let Some(Effect::AskApproval { handle, .. }) = effects(&mut core).first().cloned() else {
        panic!("canUseTool is asked");
    };
    core.respond_to_approval("call_9", r#"{"behavior":"deny","message":"not now"}"#)
        .unwrap();
    let sent = writes(&effects(&mut core));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["payload"]["kind"], "approval_response");
    assert_eq!(sent[0]["payload"]["request_id"], "perm-call_9");
    assert_eq!(sent[0]["payload"]["decision"]["behavior"], "deny");
    core.answer_approval(handle, r#"{"behavior":"allow"}"#);
    assert!(writes(&effects(&mut core)).is_empty(), "answered once");
    // An approval this session was never asked (recovered after a reload) is answered too.
    core.respond_to_approval("call_10", r#"{"behavior":"allow"}"#)
        .unwrap();
    assert_eq!(
        writes(&effects(&mut core))[0]["payload"]["request_id"],
        "perm-call_10"
    );
    assert!(core.respond_to_approval(" ", "{}").is_err());
}
