//! Issue 36: no single dropped socket ends a turn. Input waits until the standby is subscribed
//! (`reconnect::gate`), and a start that loses its socket runs again on a new one
//! (`reconnect::reopen`).

use super::tests::{completion, config, effects, just_started, writes, writes_on_standby};
use super::tests_reconnect::{
    links, messages, on_socket, reopen_due, results, start_answer, texts, FINISHED, STOP,
};
use super::*;
use crate::session::STANDBY_WAIT_MS;

/// The standby opens and its `runtime_start` is answered.
fn subscribe_standby(core: &mut SessionCore, now: u64) -> Vec<Effect> {
    core.on_standby_open(now);
    let start = writes_on_standby(&effects(core)).remove(0);
    core.on_standby_frame(&start_answer(start["request_id"].as_str().unwrap()), now);
    effects(core)
}

fn types(written: &[serde_json::Value]) -> Vec<String> {
    written
        .iter()
        .map(|w| w["type"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn an_input_waits_for_the_standby_and_nothing_overtakes_it() {
    let mut core = just_started("");
    core.send(r#""hello""#, None, 10).unwrap();
    core.abort(5, 11);
    assert!(
        writes(&effects(&mut core)).is_empty(),
        "neither the input nor the abort before the standby is subscribed"
    );
    let released = subscribe_standby(&mut core, 12);
    assert_eq!(types(&writes(&released)), ["input", "abort_message"]);
}

#[test]
fn an_input_waits_for_the_standby_at_most_the_standby_wait() {
    let mut core = just_started("");
    core.send(r#""hello""#, None, 10).unwrap();
    assert!(writes(&effects(&mut core)).is_empty());
    assert_eq!(core.next_deadline(), Some(10 + STANDBY_WAIT_MS));
    core.on_tick(10 + STANDBY_WAIT_MS);
    assert_eq!(types(&writes(&effects(&mut core))), ["input"]);
    // A standby that comes later changes nothing: the input went once.
    assert!(writes(&subscribe_standby(&mut core, 10 + STANDBY_WAIT_MS + 1)).is_empty());
}

#[test]
fn without_a_policy_input_goes_out_at_once() {
    let mut core = just_started(r#"{"reconnect":false}"#);
    core.send(r#""hello""#, None, 10).unwrap();
    assert_eq!(types(&writes(&effects(&mut core))), ["input"]);
}

#[test]
fn a_standby_that_will_not_come_lets_the_input_go() {
    let mut core = just_started(r#"{"reconnect":{"maxAttempts":1,"backoffMs":10}}"#);
    core.send(r#""hello""#, None, 10).unwrap();
    core.on_standby_closed(11);
    assert!(writes(&effects(&mut core)).is_empty(), "one retry is left");
    let retry = core.next_deadline().unwrap();
    core.on_tick(retry);
    assert_eq!(links(&effects(&mut core)), [LinkEffect::OpenStandby]);
    core.on_standby_closed(retry + 1);
    assert_eq!(types(&writes(&effects(&mut core))), ["input"]);
}

#[test]
fn closing_lets_a_waiting_input_go_first() {
    let mut core = just_started("");
    core.send(r#""hello""#, None, 10).unwrap();
    core.close(11);
    let closing = effects(&mut core);
    assert_eq!(types(&writes(&closing)), ["input"]);
}

#[test]
fn a_start_that_loses_its_socket_before_the_runtime_starts_runs_again() {
    let mut core = SessionCore::new(config(
        Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        r#"{"reconnect":{"backoffMs":10}}"#,
    ));
    core.begin(1, 0);
    core.on_open(0);
    assert_eq!(types(&writes(&effects(&mut core))), ["runtime_start"]);
    core.on_transport_closed(5);
    let lost = effects(&mut core);
    assert!(completion(&lost, 1).is_none(), "initialize() waits");
    assert!(!core.is_closed());
    let at = reopen_due(&mut core);
    core.on_open(at);
    let start = writes(&effects(&mut core)).remove(0);
    assert_eq!(start["type"], "runtime_start");
    assert!(
        start.get("create_conversation").is_some(),
        "no runtime was known: the start begins again"
    );
    core.on_frame(&start_answer(start["request_id"].as_str().unwrap()), at + 1);
    let done = effects(&mut core);
    assert!(completion(&done, 1).unwrap().is_ok());
    assert!(links(&done).contains(&LinkEffect::OpenStandby));
    assert!(core.is_ready());
}

#[test]
fn a_start_that_loses_its_socket_after_the_runtime_started_resumes_it_and_finishes_its_steps() {
    let mut core = SessionCore::new(config(
        Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        r#"{"model":"openai-compatible/fake-model-2","reconnect":{"backoffMs":10}}"#,
    ));
    core.begin(1, 0);
    core.on_open(0);
    let start = writes(&effects(&mut core)).remove(0);
    core.on_frame(&start_answer(start["request_id"].as_str().unwrap()), 1);
    assert_eq!(types(&writes(&effects(&mut core))), ["update_model"]);
    core.on_transport_closed(2);
    assert!(completion(&effects(&mut core), 1).is_none());
    let at = reopen_due(&mut core);
    core.on_open(at);
    let again = writes(&effects(&mut core)).remove(0);
    assert_eq!(again["type"], "runtime_start");
    assert_eq!(
        again["conversation_id"], "conv-1",
        "the conversation it made"
    );
    assert!(again.get("create_conversation").is_none());
    core.on_frame(&start_answer(again["request_id"].as_str().unwrap()), at + 1);
    let model = writes(&effects(&mut core)).remove(0);
    assert_eq!(model["type"], "update_model", "the remaining step runs");
    core.on_frame(
        &format!(
            r#"{{"type":"update_model_response","request_id":"{}","success":true}}"#,
            model["request_id"].as_str().unwrap()
        ),
        at + 2,
    );
    assert!(completion(&effects(&mut core), 1).unwrap().is_ok());
    assert!(core.is_ready());
}

#[test]
fn the_first_connection_failing_to_open_still_fails_at_once() {
    let mut core = SessionCore::new(config(
        Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        "",
    ));
    core.begin(1, 0);
    core.on_transport_error("refused", 1);
    let error = completion(&effects(&mut core), 1).unwrap().unwrap_err();
    assert!(error.message.contains("failed to open"), "{error:?}");
}

#[test]
fn an_input_waiting_when_the_primary_drops_goes_out_once_after_the_reopen() {
    let mut core = just_started(r#"{"reconnect":{"backoffMs":10}}"#);
    core.send(r#""hello""#, Some("otid-1"), 10).unwrap();
    core.on_standby_open(11);
    effects(&mut core);
    // The primary drops while the standby is still starting: both are gone.
    core.on_transport_closed(12);
    effects(&mut core);
    assert!(!messages(&mut core).iter().any(|m| m["type"] == "result"));
    let at = reopen_due(&mut core);
    core.on_open(at);
    let start = writes(&effects(&mut core)).remove(0);
    core.on_frame(&start_answer(start["request_id"].as_str().unwrap()), at + 1);
    assert!(
        !types(&writes(&effects(&mut core))).contains(&"input".to_owned()),
        "the input waits for the new standby"
    );
    let released = subscribe_standby(&mut core, at + 2);
    let inputs: Vec<_> = writes(&released)
        .into_iter()
        .filter(|w| w["type"] == "input")
        .collect();
    assert_eq!(inputs.len(), 1);
    assert_eq!(inputs[0]["payload"]["messages"][0]["otid"], "otid-1");
    core.on_frame(&on_socket(STOP, 1, "c"), at + 3);
    core.on_frame(&on_socket(FINISHED, 2, "c"), at + 4);
    while let Some(deadline) = core.next_deadline() {
        if deadline > 100_000 {
            break;
        }
        core.on_tick(deadline);
    }
    let all = messages(&mut core);
    assert!(texts(&all).is_empty());
    assert_eq!(results(&all).len(), 1);
    assert_eq!(results(&all)[0]["success"], true);
}

#[test]
fn a_start_whose_socket_keeps_dropping_fails_and_closes_after_the_attempts() {
    let mut core = SessionCore::new(config(
        Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        r#"{"reconnect":{"maxAttempts":2,"backoffMs":10}}"#,
    ));
    core.begin(1, 0);
    core.on_open(0);
    core.on_transport_closed(1);
    for _ in 0..2 {
        let at = reopen_due(&mut core);
        core.on_open(at);
        effects(&mut core);
        core.on_transport_closed(at + 1);
    }
    let failed = effects(&mut core);
    assert!(
        completion(&failed, 1).unwrap().is_err(),
        "initialize() fails"
    );
    assert!(failed.contains(&Effect::CloseTransport));
    assert!(core.is_closed() && core.stream_ended());
    assert_eq!(core.next_deadline(), None);
}
