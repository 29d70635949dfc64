//! The Cloud session target (spec §4.6, §3.11): the Cloud `runtime_start`, the un-correlated
//! `sync` after it, idle recovery on the same runtime, and a drop mid-turn.

use super::tests::{completion, config, effects, writes};
use super::*;

const CLOUD_RUNTIME: &str = r#"{"agent_id":"agent-1","conversation_id":"conv-9"}"#;

fn cloud(options: &str, runtime: Runtime) -> SessionCore {
    let mut core = SessionCore::new(config(Target::Management, options));
    // The connector sets the runtime once REST resolved it.
    core.set_cloud_runtime(runtime);
    core
}

fn response(request_id: &str, runtime: &str) -> String {
    format!(
        r#"{{"type":"runtime_start_response","request_id":"{request_id}","success":true,"runtime":{runtime},"agent":{{"id":"agent-1","model":"m-1"}},"conversation":{{"id":"conv-9"}}}}"#
    )
}

/// Opens the transport, answers the `runtime_start`, returns what was written after it.
fn open_and_start(core: &mut SessionCore, call: CallId, runtime: &str) -> Vec<serde_json::Value> {
    core.begin(call, 0);
    core.on_open(0);
    let sent = writes(&effects(core));
    assert_eq!(sent.len(), 1, "only runtime_start before its response");
    let id = sent[0]["request_id"].as_str().unwrap().to_owned();
    core.on_frame(&response(&id, runtime), 1);
    let done = effects(core);
    let mut all = sent;
    all.extend(writes(&done));
    if let Some(result) = completion(&done, call) {
        all.push(serde_json::json!({ "init": result.map_err(|e| e.message) }));
    }
    all
}

#[test]
fn cloud_start_sends_the_cloud_runtime_start_then_an_uncorrelated_sync() {
    let mut core = cloud(
        r#"{"cwd":"/w","skillSources":["bundled"],"stateless":true}"#,
        Runtime::new("agent-1", "conv-9"),
    );
    let sent = open_and_start(&mut core, 1, CLOUD_RUNTIME);
    let start = &sent[0];
    assert_eq!(start["type"], "runtime_start");
    assert_eq!(start["agent_id"], "agent-1");
    assert_eq!(start["conversation_id"], "conv-9");
    assert_eq!(start["recover_approvals"], false);
    assert_eq!(start["force_device_status"], true);
    assert_eq!(start["mode"], "standard");
    assert_eq!(start["cwd"], "/w");
    assert_eq!(start["stateless"], true);
    assert_eq!(start["skill_sources"], serde_json::json!(["bundled"]));
    assert!(start.get("create_conversation").is_none());
    assert!(start.get("create_agent").is_none());
    let sync = &sent[1];
    assert_eq!(
        *sync,
        serde_json::json!({"type": "sync", "runtime": {"agent_id": "agent-1", "conversation_id": "conv-9"},
            "recover_approvals": true, "force_device_status": true})
    );
    let info: serde_json::Value =
        serde_json::from_str(sent[2]["init"]["Ok"].as_str().unwrap()).unwrap();
    assert_eq!(info["sessionId"], "agent-1:conv-9");
    assert!(core.is_ready());
}

#[test]
fn agent_free_cloud_start_has_no_agent_and_model_steps_follow_the_sync() {
    let mut core = cloud(r#"{"model":"openai/gpt-x"}"#, Runtime::agent_free("conv-q"));
    core.begin(1, 0);
    core.on_open(0);
    let sent = writes(&effects(&mut core));
    assert!(sent[0].get("agent_id").is_none());
    assert_eq!(sent[0]["conversation_id"], "conv-q");
    let id = sent[0]["request_id"].as_str().unwrap().to_owned();
    core.on_frame(
        &response(&id, r#"{"agent_id":null,"conversation_id":"conv-q"}"#),
        1,
    );
    let next = writes(&effects(&mut core));
    let types: Vec<&str> = next.iter().map(|f| f["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["sync", "update_model"]);
    assert!(!core.is_ready(), "ready only after update_model answers");
}

#[test]
fn an_idle_drop_reopens_on_the_same_runtime_and_writes_the_input_once() {
    let mut core = cloud("", Runtime::new("agent-1", "conv-9"));
    open_and_start(&mut core, 1, CLOUD_RUNTIME);
    core.on_transport_closed(10);
    assert!(!core.is_closed());
    assert!(core.is_idle_disconnected());
    assert!(core.pop_message().is_none(), "no error for an idle drop");
    assert!(
        core.send(r#""hi""#, None, 11).is_err(),
        "no input before the reopen"
    );
    effects(&mut core);
    let sent = open_and_start(&mut core, 2, CLOUD_RUNTIME);
    let types: Vec<&str> = sent.iter().filter_map(|f| f["type"].as_str()).collect();
    assert_eq!(types, ["runtime_start", "sync"]);
    assert!(sent[2]["init"]["Ok"].is_string());
    assert!(core.is_ready() && !core.is_idle_disconnected());
    core.send(r#""hi""#, None, 20).unwrap();
    let inputs: Vec<serde_json::Value> = writes(&effects(&mut core))
        .into_iter()
        .filter(|f| f["type"] == "input")
        .collect();
    assert_eq!(inputs.len(), 1);
}

#[test]
fn a_recovered_different_runtime_fails_the_reopen() {
    let mut core = cloud("", Runtime::new("agent-1", "conv-9"));
    open_and_start(&mut core, 1, CLOUD_RUNTIME);
    core.on_transport_closed(10);
    let sent = open_and_start(
        &mut core,
        2,
        r#"{"agent_id":"agent-1","conversation_id":"conv-other"}"#,
    );
    assert_eq!(
        sent.last().unwrap()["init"]["Err"],
        "cloud transport recovered a different runtime"
    );
    assert!(!core.is_ready());
}

#[test]
fn a_drop_mid_turn_ends_the_turn_with_stream_closed_and_closes() {
    let mut core = cloud("", Runtime::new("agent-1", "conv-9"));
    open_and_start(&mut core, 1, CLOUD_RUNTIME);
    core.send(r#""hi""#, None, 5).unwrap();
    effects(&mut core);
    core.on_transport_closed(6);
    assert!(core.is_closed() && !core.is_idle_disconnected());
    let types: Vec<String> = std::iter::from_fn(|| core.pop_message())
        .map(|m| serde_json::from_str::<serde_json::Value>(&m).unwrap()["type"].to_string())
        .collect();
    assert_eq!(types, [r#""error""#, r#""result""#]);
}

#[test]
fn a_remote_session_without_reconnect_dropped_while_idle_closes() {
    let mut core = super::tests::started(r#"{"reconnect":false}"#);
    core.on_transport_closed(10);
    assert!(core.is_closed() && !core.is_idle_disconnected());
}
