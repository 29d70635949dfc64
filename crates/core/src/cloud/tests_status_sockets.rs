//! The two-socket status sockets (spec §4.6).

use super::*;
use crate::cloud::config::CloudEnv;
use serde_json::json;

fn config(options: serde_json::Value) -> CloudConfig {
    CloudConfig::from_options(
        &crate::cloud::http::test_support::object(options),
        &CloudEnv::default(),
    )
    .unwrap()
}

fn runtime() -> Runtime {
    Runtime::new("agent-1", "conv-1")
}

fn open_relay() -> StatusSockets {
    let mut relay = StatusSockets::new(runtime(), 1_000);
    assert_eq!(relay.on_open(Channel::Control, 0), vec![]);
    assert_eq!(relay.on_open(Channel::Stream, 10), vec![Output::Opened]);
    relay
}

fn writes(out: &[Output]) -> Vec<(Channel, serde_json::Value)> {
    out.iter()
        .filter_map(|o| match o {
            Output::Write(channel, text) => Some((*channel, serde_json::from_str(text).unwrap())),
            _ => None,
        })
        .collect()
}

fn delivered(out: &[Output]) -> usize {
    out.iter()
        .filter(|o| matches!(o, Output::Deliver(_)))
        .count()
}

#[test]
fn header_mode_urls_and_headers() {
    let c = config(
        json!({"apiKey": "sk-secret", "apiBaseUrl": "https://api.letta.com/", "headers": {"authorization": "Bearer other", "x-project-id": "p"}}),
    );
    let e = endpoints(&c, "conn-1", &runtime()).unwrap();
    assert_eq!(e.control, "wss://api.letta.com/v1/environments/conn-1/status/ws?agentId=agent-1&conversationId=conv-1&channel=control");
    assert_eq!(e.stream, "wss://api.letta.com/v1/environments/conn-1/status/ws?agentId=agent-1&conversationId=conv-1&channel=stream");
    assert_eq!(
        e.headers,
        Some(vec![
            ("x-project-id".into(), "p".into()),
            ("Authorization".into(), "Bearer sk-secret".into())
        ]),
        "the caller's authorization is replaced by the API key"
    );
    assert!(!e.control.contains("sk-secret") && !e.stream.contains("sk-secret"));
}

#[test]
fn query_mode_puts_the_token_in_both_urls_and_passes_no_options() {
    let c = config(
        json!({"apiKey": "sk-q", "apiBaseUrl": "http://127.0.0.1:9000", "webSocketAuth": "query", "headers": {"x-extra": "1"}}),
    );
    let e = endpoints(&c, "conn-2", &Runtime::agent_free("conv-9")).unwrap();
    assert_eq!(e.control, "ws://127.0.0.1:9000/v1/environments/conn-2/status/ws?conversationId=conv-9&channel=control&token=sk-q");
    assert!(e.stream.ends_with("channel=stream&token=sk-q"));
    assert_eq!(e.headers, None);
}

#[test]
fn other_schemes_are_rejected() {
    let c = config(json!({"apiBaseUrl": "ftp://files.test"}));
    assert_eq!(
        endpoints(&c, "c", &runtime()).unwrap_err().message,
        "Unsupported cloud apiBaseUrl protocol: ftp:"
    );
}

#[test]
fn every_seq_is_acked_on_its_own_socket_and_duplicates_are_delivered_once() {
    let mut relay = open_relay();
    let frame = r#"{"type":"update_queue","seq":4,"idempotency_key":"k-1","queue":[]}"#;
    let first = relay.on_message(Channel::Control, frame.into());
    assert_eq!(
        writes(&first),
        vec![(Channel::Control, json!({"type": "ack", "seq": 4}))]
    );
    assert_eq!(
        first.last(),
        Some(&Output::Deliver(frame.into())),
        "the text passes through unchanged"
    );
    let again = relay.on_message(Channel::Stream, frame.into());
    assert_eq!(
        writes(&again),
        vec![(Channel::Stream, json!({"type": "ack", "seq": 4}))],
        "acked again"
    );
    assert_eq!(delivered(&again), 0);
    let other = relay.on_message(
        Channel::Control,
        r#"{"type":"x","idempotency_key":"k-2"}"#.into(),
    );
    assert_eq!(
        (writes(&other).len(), delivered(&other)),
        (0, 1),
        "no seq, no ack"
    );
}

#[test]
fn the_key_window_holds_the_last_thousand() {
    let mut relay = open_relay();
    let frame = |n: usize| format!(r#"{{"type":"x","idempotency_key":"k-{n}"}}"#);
    for n in 0..=IDEMPOTENCY_WINDOW {
        assert_eq!(delivered(&relay.on_message(Channel::Control, frame(n))), 1);
    }
    assert_eq!(
        delivered(&relay.on_message(Channel::Control, frame(1))),
        0,
        "still remembered"
    );
    assert_eq!(
        delivered(&relay.on_message(Channel::Control, frame(0))),
        1,
        "evicted, so new again"
    );
}

#[test]
fn stream_deltas_on_control_are_dropped_but_acked() {
    let mut relay = open_relay();
    let delta = r#"{"type":"stream_delta","seq":1,"idempotency_key":"d-1","delta":{}}"#;
    let on_control = relay.on_message(Channel::Control, delta.into());
    assert_eq!((writes(&on_control).len(), delivered(&on_control)), (1, 0));
    assert_eq!(
        delivered(&relay.on_message(Channel::Stream, delta.into())),
        1,
        "its key was not spent"
    );
}

#[test]
fn an_event_seq_gap_sends_one_sync_on_control() {
    let mut relay = open_relay();
    let frame = |n: u32| format!(r#"{{"type":"x","event_seq":{n}}}"#);
    assert!(writes(&relay.on_message(Channel::Stream, frame(1))).is_empty());
    assert!(writes(&relay.on_message(Channel::Stream, frame(2))).is_empty());
    let gap = relay.on_message(Channel::Stream, frame(5));
    let sync = json!({"type": "sync", "runtime": {"agent_id": "agent-1", "conversation_id": "conv-1"},
                      "recover_approvals": true, "force_device_status": true});
    assert_eq!(writes(&gap), vec![(Channel::Control, sync)]);
    assert_eq!(delivered(&gap), 1);
    assert!(
        writes(&relay.on_message(Channel::Control, frame(3))).is_empty(),
        "older values are no gap"
    );
    assert!(
        writes(&relay.on_message(Channel::Control, frame(6))).is_empty(),
        "the highest (5) is tracked"
    );
}

#[test]
fn malformed_envelope_members_still_pass_through() {
    let mut relay = open_relay();
    let odd = r#"{"type":"x","seq":"7","idempotency_key":3,"event_seq":"9"}"#;
    let out = relay.on_message(Channel::Control, odd.into());
    assert_eq!((writes(&out).len(), delivered(&out)), (0, 1));
    assert!(relay
        .on_message(Channel::Control, "not json".into())
        .is_empty());
    assert!(relay.on_message(Channel::Control, "[1]".into()).is_empty());
}

#[test]
fn pings_go_on_both_sockets_every_interval() {
    let mut relay = open_relay();
    assert_eq!(relay.deadline(), Some(1_010));
    assert!(relay.on_tick(1_009).is_empty());
    let pings = relay.on_tick(1_010);
    assert_eq!(
        writes(&pings),
        vec![
            (Channel::Control, json!({"type": "ping"})),
            (Channel::Stream, json!({"type": "ping"}))
        ]
    );
    assert_eq!(relay.deadline(), Some(2_010));
}

#[test]
fn commands_go_to_control_and_a_close_closes_both_once() {
    let mut relay = StatusSockets::new(runtime(), 1_000);
    assert_eq!(
        relay.send("{}".into()).unwrap_err().message,
        "Cloud status control socket is not open"
    );
    relay.on_open(Channel::Control, 0);
    assert_eq!(
        relay.send("{}".into()),
        Ok(Output::Write(Channel::Control, "{}".into()))
    );
    relay.on_open(Channel::Stream, 0);
    assert_eq!(
        relay.on_close(Channel::Stream),
        vec![Output::Close(Channel::Control), Output::Closed]
    );
    assert!(relay.on_close(Channel::Control).is_empty(), "one close");
    assert!(relay.send("{}".into()).is_err());
    assert_eq!(relay.deadline(), None);
    assert!(relay
        .on_message(Channel::Control, r#"{"seq":1}"#.into())
        .is_empty());
}

#[test]
fn two_open_attempts_then_an_error_naming_the_connection_only() {
    assert_eq!(
        open_failed(1, "conn-1", "ECONNREFUSED"),
        OpenFailure::Reresolve
    );
    let OpenFailure::Fail(error) = open_failed(2, "conn-1", "ECONNREFUSED") else {
        panic!("gives up")
    };
    assert_eq!(
        error.message,
        "Cloud status WebSocket failed to open for connection conn-1: ECONNREFUSED"
    );
    let log: serde_json::Value = serde_json::from_str(&open_failed_log(1, "conn-1", "x")).unwrap();
    assert_eq!(log["event"], "cloud_status_transport_connection_failed");
    assert_eq!(
        sync_frame(&Runtime::agent_free("c")),
        r#"{"type":"sync","runtime":{"agent_id":null,"conversation_id":"c"},"recover_approvals":true,"force_device_status":true}"#
    );
}

#[test]
fn a_recovered_transport_must_keep_the_runtime() {
    assert!(check_recovered_runtime(&runtime(), &runtime()).is_ok());
    let other = Runtime::new("agent-1", "conv-2");
    assert_eq!(
        check_recovered_runtime(&runtime(), &other)
            .unwrap_err()
            .message,
        "cloud transport recovered a different runtime"
    );
}
