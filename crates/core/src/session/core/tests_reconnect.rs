//! Two sockets per session and the reopen (issue 11, `session::reconnect`): the standby's
//! start, content de-duplication across the sockets, promotion when the primary drops, and the
//! reopen after both dropped. Frames are stamped as letta-code 0.32.18 stamps them: each socket
//! with its own `event_seq` and `idempotency_key`.

use super::tests::{completion, effects, just_started, started, writes, RUNTIME};
use super::*;

/// `frame` (with `RT` for the runtime) as one socket receives it, as its `seq`-th broadcast.
pub(super) fn on_socket(frame: &str, seq: u64, socket: &str) -> String {
    let frame = frame.replace("RT", RUNTIME);
    let body = frame.strip_suffix('}').unwrap();
    format!(
        r#"{body},"event_seq":{seq},"emitted_at":"2026-12-02T08:00:00.{seq:03}Z","idempotency_key":"x:{seq}:{socket}-{seq}"}}"#
    )
}

pub(super) const DELTA_1: &str = r#"{"type":"stream_delta","delta":{"id":"m1","message_type":"assistant_message","content":[{"type":"text","text":"Hi"}],"run_id":"run-1","seq_id":1},"runtime":RT}"#;
const DELTA_2: &str = r#"{"type":"stream_delta","delta":{"id":"m1","message_type":"assistant_message","content":[{"type":"text","text":" there"}],"run_id":"run-1","seq_id":2},"runtime":RT}"#;
pub(super) const STOP: &str = r#"{"type":"stream_delta","delta":{"message_type":"stop_reason","stop_reason":"end_turn","run_id":"run-1","seq_id":3},"runtime":RT}"#;
pub(super) const FINISHED: &str = r#"{"type":"turn_finished","turn_id":"t","stop_reason":"end_turn","run_id":"run-1","runtime":RT}"#;
const BUSY: &str = r#"{"type":"update_loop_status","loop_status":{"status":"PROCESSING_API_RESPONSE","active_run_ids":["run-1"]},"runtime":RT}"#;

pub(super) fn links(effects: &[Effect]) -> Vec<LinkEffect> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Link(link) => Some(link.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn signals(effects: &[Effect]) -> Vec<serde_json::Value> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Connection(json) => Some(serde_json::from_str(json).unwrap()),
            _ => None,
        })
        .collect()
}

pub(super) fn standby_start(effects: &[Effect]) -> serde_json::Value {
    links(effects)
        .into_iter()
        .find_map(|l| match l {
            LinkEffect::WriteStandby(text) => Some(serde_json::from_str(&text).unwrap()),
            _ => None,
        })
        .expect("the standby's runtime_start")
}

pub(super) fn start_answer(request_id: &str) -> String {
    format!(
        r#"{{"type":"runtime_start_response","request_id":"{request_id}","success":true,"runtime":{RUNTIME},"agent":{{"id":"agent-1"}},"conversation":{{"id":"conv-1"}}}}"#
    )
}

/// A started session whose standby is ready.
fn with_standby(options: &str) -> SessionCore {
    started(options)
}

pub(super) fn messages(core: &mut SessionCore) -> Vec<serde_json::Value> {
    std::iter::from_fn(|| core.pop_message())
        .map(|m| serde_json::from_str(&m).unwrap())
        .collect()
}

pub(super) fn texts(messages: &[serde_json::Value]) -> Vec<String> {
    messages
        .iter()
        .filter(|m| m["type"] == "assistant")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

pub(super) fn results(messages: &[serde_json::Value]) -> Vec<&serde_json::Value> {
    messages.iter().filter(|m| m["type"] == "result").collect()
}

#[test]
fn the_standby_joins_the_conversation_without_changing_it() {
    let mut core =
        just_started(r#"{"permissionMode":"unrestricted","cwd":"/w","skillSources":["a"]}"#);
    let opened = links(&effects(&mut core));
    assert!(opened.is_empty(), "effects were drained by started()");
    // `started` drained the OpenStandby; the core waits for the socket.
    core.on_standby_open(2);
    let start = standby_start(&effects(&mut core));
    assert_eq!(start["type"], "runtime_start");
    assert_eq!(start["agent_id"], "agent-1");
    assert_eq!(start["conversation_id"], "conv-1");
    assert_eq!(start["preserve_skill_sources"], true);
    assert_eq!(start["force_device_status"], false);
    assert_eq!(start["recover_approvals"], false);
    for absent in [
        "mode",
        "cwd",
        "skill_sources",
        "external_tools",
        "create_conversation",
        "create_agent",
    ] {
        assert!(start.get(absent).is_none(), "{absent} must not be sent");
    }
}

#[test]
fn without_a_policy_no_standby_opens() {
    let mut core = SessionCore::new(super::tests::config(
        Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        r#"{"reconnect":false}"#,
    ));
    core.begin(1, 0);
    core.on_open(0);
    let id = writes(&effects(&mut core))[0]["request_id"]
        .as_str()
        .unwrap()
        .to_owned();
    core.on_frame(&start_answer(&id), 1);
    assert!(links(&effects(&mut core)).is_empty());
}

#[test]
fn each_stream_frame_counts_once_whichever_socket_brings_it_first() {
    let mut core = with_standby("");
    core.send(r#""hello""#, None, 10).unwrap();
    effects(&mut core);
    core.on_frame(&on_socket(BUSY, 1, "a"), 11);
    core.on_standby_frame(&on_socket(BUSY, 1, "b"), 11);
    core.on_standby_frame(&on_socket(DELTA_1, 2, "b"), 12);
    core.on_frame(&on_socket(DELTA_1, 2, "a"), 12);
    core.on_frame(&on_socket(DELTA_2, 3, "a"), 13);
    core.on_standby_frame(&on_socket(DELTA_2, 3, "b"), 13);
    core.on_standby_frame(&on_socket(STOP, 4, "b"), 14);
    core.on_frame(&on_socket(STOP, 4, "a"), 14);
    core.on_frame(&on_socket(FINISHED, 5, "a"), 15);
    core.on_standby_frame(&on_socket(FINISHED, 5, "b"), 15);
    while let Some(deadline) = core.next_deadline() {
        core.on_tick(deadline);
    }
    let all = messages(&mut core);
    assert_eq!(texts(&all), ["Hi", " there"]);
    assert_eq!(results(&all).len(), 1);
    assert_eq!(results(&all)[0]["success"], true);
}

#[test]
fn the_standby_contributes_no_status_control_request_or_response() {
    let mut core = with_standby(r#"{"hasCanUseTool":true}"#);
    let request = format!(
        r#"{{"type":"control_request","request_id":"perm-call_1","request":{{"subtype":"can_use_tool","tool_name":"Bash","input":{{"command":"touch x"}},"tool_call_id":"call_1"}},"runtime":{RUNTIME}}}"#
    );
    core.on_standby_frame(&on_socket(&request, 4, "b"), 5);
    core.on_standby_frame(&on_socket(BUSY, 5, "b"), 5);
    assert!(effects(&mut core).is_empty());
    assert!(messages(&mut core).is_empty());
}

#[test]
fn a_dropped_primary_hands_the_turn_to_the_standby() {
    let mut core = with_standby(r#"{"hasCanUseTool":true}"#);
    core.send(r#""hello""#, Some("otid-1"), 10).unwrap();
    let input = writes(&effects(&mut core)).remove(0);
    core.on_frame(&on_socket(DELTA_1, 1, "a"), 11);
    // The primary drops before the server's `input_accepted` reached us.
    core.on_transport_closed(12);
    let promoted = effects(&mut core);
    assert_eq!(
        links(&promoted),
        [LinkEffect::PromoteStandby, LinkEffect::OpenStandby]
    );
    let sent = writes(&promoted);
    assert_eq!(sent[0], input, "the unacknowledged input again, verbatim");
    assert_eq!(sent[1]["type"], "sync");
    assert_eq!(sent[1]["recover_approvals"], true);
    assert_eq!(
        signals(&promoted),
        [serde_json::json!({"type": "reconnecting", "live": true})]
    );
    assert!(core.is_ready() && !core.is_closed());
    // The old standby is the primary now: its frames count (what it repeats is dropped).
    core.on_frame(
        &format!(
            r#"{{"type":"input_accepted","request_id":"{}","accepted":true,"disposition":"started"}}"#,
            input["request_id"].as_str().unwrap()
        ),
        13,
    );
    core.on_frame(&on_socket(DELTA_1, 7, "b"), 13);
    core.on_frame(&on_socket(DELTA_2, 8, "b"), 14);
    core.on_frame(&on_socket(STOP, 9, "b"), 14);
    core.on_frame(&on_socket(FINISHED, 10, "b"), 15);
    while let Some(deadline) = core.next_deadline() {
        if deadline > 10_000 {
            break;
        }
        core.on_tick(deadline);
    }
    let all = messages(&mut core);
    assert_eq!(texts(&all), ["Hi", " there"]);
    assert_eq!(results(&all).len(), 1);
    assert_eq!(results(&all)[0]["success"], true);
    // The replacement standby comes up: the app hears `reconnected`.
    core.on_standby_open(20);
    let start = standby_start(&effects(&mut core));
    core.on_standby_frame(&start_answer(start["request_id"].as_str().unwrap()), 21);
    assert_eq!(
        signals(&effects(&mut core)),
        [serde_json::json!({"type": "reconnected"})]
    );
}

#[test]
fn an_approval_sent_again_after_a_promotion_asks_once_and_answers_again() {
    let mut core = with_standby(r#"{"hasCanUseTool":true}"#);
    let request = format!(
        r#"{{"type":"control_request","request_id":"perm-call_1","request":{{"subtype":"can_use_tool","tool_name":"Bash","input":{{"command":"touch x"}},"tool_call_id":"call_1"}},"runtime":{RUNTIME}}}"#
    );
    core.on_frame(&on_socket(&request, 3, "a"), 5);
    let Some(Effect::AskApproval { handle, .. }) = effects(&mut core).first().cloned() else {
        panic!("expected an approval request");
    };
    core.answer_approval(handle, r#"{"behavior":"allow"}"#);
    let answer = writes(&effects(&mut core)).remove(0);
    // The answer was lost with the primary; the server asks the survivor again.
    core.on_transport_closed(6);
    effects(&mut core);
    core.on_frame(&on_socket(&request, 9, "b"), 7);
    let again = effects(&mut core);
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, Effect::AskApproval { .. })),
        "canUseTool is asked once per call"
    );
    assert_eq!(writes(&again), [answer]);
}

/// Fires the due reopen attempt: the driver is asked to open the primary again.
pub(super) fn reopen_due(core: &mut SessionCore) -> u64 {
    let at = core.next_deadline().expect("a reopen attempt is scheduled");
    core.on_tick(at);
    assert!(links(&effects(core)).contains(&LinkEffect::ReopenPrimary));
    at
}

#[test]
fn losing_both_sockets_ends_the_turn_once_and_the_session_reopens_by_itself() {
    let mut core = with_standby("");
    core.send(r#""hello""#, None, 10).unwrap();
    let input = writes(&effects(&mut core)).remove(0);
    core.on_frame(
        &format!(
            r#"{{"type":"input_accepted","request_id":"{}","accepted":true,"disposition":"started"}}"#,
            input["request_id"].as_str().unwrap()
        ),
        11,
    );
    core.on_frame(&on_socket(DELTA_1, 1, "a"), 12);
    core.on_standby_closed(13);
    let degraded = effects(&mut core);
    assert_eq!(
        signals(&degraded),
        [serde_json::json!({"type": "reconnecting", "live": true})]
    );
    core.on_transport_closed(14);
    let lost = effects(&mut core);
    assert_eq!(
        signals(&lost),
        [serde_json::json!({"type": "reconnecting", "live": false})]
    );
    let all = messages(&mut core);
    assert_eq!(results(&all).len(), 1);
    assert_eq!(results(&all)[0]["stopReason"], "stream_closed");
    assert_eq!(results(&all)[0]["recoverable"], true);
    assert!(!core.is_closed() && core.is_idle_disconnected());
    assert!(
        core.send(r#""again""#, None, 15).is_err(),
        "not before the reopen"
    );
    // A call meanwhile waits for the reopen, which comes after the backoff without it.
    core.begin(2, 16);
    assert!(links(&effects(&mut core)).is_empty(), "no second socket");
    let at = reopen_due(&mut core);
    core.on_open(at);
    let start = writes(&effects(&mut core)).remove(0);
    assert_eq!(start["type"], "runtime_start");
    assert_eq!(start["conversation_id"], "conv-1");
    assert!(start.get("create_conversation").is_none());
    core.on_frame(&start_answer(start["request_id"].as_str().unwrap()), at + 1);
    let reopened = effects(&mut core);
    assert!(completion(&reopened, 2).unwrap().is_ok());
    let sent = writes(&reopened);
    assert!(
        !sent.iter().any(|w| w["type"] == "input"),
        "acknowledged input is never sent again"
    );
    assert_eq!(
        signals(&reopened),
        [serde_json::json!({"type": "reconnected"})]
    );
    assert!(links(&reopened).contains(&LinkEffect::OpenStandby));
    assert!(!core.is_idle_disconnected());
}

#[test]
fn input_the_server_never_acknowledged_is_sent_once_after_the_reopen() {
    let mut core = started(r#"{"reconnect":{"maxAttempts":3,"backoffMs":10}}"#);
    core.send(r#""hello""#, Some("otid-9"), 10).unwrap();
    let input = writes(&effects(&mut core)).remove(0);
    // Both sockets go before the server acknowledged the input.
    core.on_standby_closed(11);
    core.on_transport_closed(11);
    effects(&mut core);
    assert!(
        !messages(&mut core).iter().any(|m| m["type"] == "result"),
        "the turn is not over: its input was never accepted"
    );
    let at = reopen_due(&mut core);
    core.on_open(at);
    let start = writes(&effects(&mut core)).remove(0);
    core.on_frame(&start_answer(start["request_id"].as_str().unwrap()), at + 1);
    let sent = writes(&effects(&mut core));
    assert_eq!(
        sent.iter()
            .filter(|w| w["type"] == "input")
            .collect::<Vec<_>>(),
        [&input]
    );
    core.on_frame(&on_socket(DELTA_1, 1, "c"), at + 2);
    core.on_frame(&on_socket(STOP, 2, "c"), at + 3);
    core.on_frame(&on_socket(FINISHED, 3, "c"), at + 4);
    while let Some(deadline) = core.next_deadline() {
        if deadline > 10_000 {
            break;
        }
        core.on_tick(deadline);
    }
    let all = messages(&mut core);
    assert_eq!(texts(&all), ["Hi"]);
    assert_eq!(results(&all).len(), 1);
    assert_eq!(results(&all)[0]["success"], true);
}

#[test]
fn a_reopen_that_keeps_failing_retries_then_fails_the_waiting_call_and_the_next_call_tries_again() {
    let mut core = started(r#"{"reconnect":{"maxAttempts":2,"backoffMs":10}}"#);
    core.on_standby_closed(5);
    core.on_transport_closed(10);
    effects(&mut core);
    core.begin(2, 11);
    // Two attempts: the first fails and the call waits, the second fails and the call fails.
    {
        let at = reopen_due(&mut core);
        // An error and then a close report the same failed attempt: one retry.
        core.on_transport_error("refused", at);
        core.on_transport_closed(at);
        assert!(
            completion(&effects(&mut core), 2).is_none(),
            "the call waits while attempts remain"
        );
    }
    let at = reopen_due(&mut core);
    core.on_transport_error("refused", at);
    let failed = effects(&mut core);
    let error = completion(&failed, 2).unwrap().unwrap_err();
    assert!(error
        .message
        .starts_with("App-server WebSocket failed to reopen"));
    assert_eq!(core.next_deadline(), None, "no more attempts by itself");
    assert!(core.is_idle_disconnected() && !core.is_closed());
    // A later call starts over at once and can succeed.
    core.begin(3, 30);
    assert!(links(&effects(&mut core)).contains(&LinkEffect::ReopenPrimary));
    core.on_open(31);
    let start = writes(&effects(&mut core)).remove(0);
    core.on_frame(&start_answer(start["request_id"].as_str().unwrap()), 32);
    assert!(completion(&effects(&mut core), 3).unwrap().is_ok());
    assert!(core.is_ready());
}

#[test]
fn a_standby_that_keeps_failing_is_retried_with_backoff_then_given_up() {
    let mut core = started(r#"{"reconnect":{"maxAttempts":2,"backoffMs":100}}"#);
    let mut now = 10;
    for _ in 0..2 {
        core.on_standby_closed(now);
        effects(&mut core);
        now = core.next_deadline().expect("a standby retry");
        core.on_tick(now);
        assert_eq!(links(&effects(&mut core)), [LinkEffect::OpenStandby]);
    }
    core.on_standby_closed(now);
    assert_eq!(core.next_deadline(), None, "given up");
    assert!(core.is_ready(), "the session goes on on its primary");
}

#[test]
fn closing_the_session_closes_the_standby() {
    let mut core = with_standby("");
    core.close(5);
    let closed = effects(&mut core);
    assert!(links(&closed).contains(&LinkEffect::CloseStandby));
    assert!(closed.contains(&Effect::CloseTransport));
}
