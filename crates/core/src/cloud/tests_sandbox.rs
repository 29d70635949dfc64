//! The managed sandbox lifecycle (spec §4.5), driven with a virtual clock.

use super::*;
use crate::cloud::http::test_support::builder;
use crate::cloud::http::{Body, Method};

fn options(terminate_on_close: bool) -> SandboxOptions {
    SandboxOptions {
        ready_timeout_ms: 5_000,
        ready_poll_interval_ms: 1_000,
        refresh_interval_ms: 60_000,
        terminate_on_close,
        ..SandboxOptions::default()
    }
}

/// The one request of `effects` (besides any `Refreshed` report), with its call.
fn sent(effects: &[Effect]) -> (Call, HttpRequest) {
    let effects: Vec<_> = effects
        .iter()
        .filter(|e| !matches!(e, Effect::Refreshed(_)))
        .cloned()
        .collect();
    match effects.as_slice() {
        [Effect::Send { call, request }] => (*call, request.clone()),
        other => panic!("expected one request, got {other:?}"),
    }
}

fn ok(body: &str) -> Reply<'_> {
    Ok(HttpResponse::new(200, body))
}

const CREATED_CONV: &str = r#"{"sandboxId":"sbx-1","deviceId":"dev-1","connectionName":"sandbox-1","conversationId":"conv-1"}"#;
const CREATED_LEGACY: &str =
    r#"{"sandboxId":"sbx-1","deviceId":"dev-1","connectionName":"sandbox-1"}"#;
const REFRESHED: &str = r#"{"success":true,"sandboxId":"sbx-1","ttlMinutes":5}"#;
const ONLINE: &str = r#"{"id":"e","deviceId":"dev-1","connectionId":"conn-1","connectionName":"sandbox-1","organizationId":"o","podId":null,"connectedAt":1,"lastHeartbeat":1,"lastSeenAt":1,"firstSeenAt":1}"#;
const OFFLINE: &str = r#"{"id":"e","deviceId":"dev-1","connectionId":null,"connectionName":"sandbox-1","organizationId":"o","podId":null,"connectedAt":null,"lastHeartbeat":null,"lastSeenAt":1,"firstSeenAt":1}"#;

/// Create → refresh → online, for a conversation-scoped sandbox.
fn online(terminate: bool) -> SandboxLifecycle {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "conv-1", options(terminate));
    let (call, create) = sent(&life.start());
    assert_eq!(
        (call, create.method, create.url.as_str()),
        (
            Call::Create,
            Method::Post,
            "https://api.letta.com/v1/agents/agent-1/sandboxes"
        )
    );
    assert_eq!(
        create.body,
        Body::Json(r#"{"conversationId":"conv-1"}"#.into())
    );
    let (call, refresh) = sent(&life.on_reply(Call::Create, ok(CREATED_CONV), 0));
    assert_eq!(
        (call, refresh.url.as_str()),
        (
            Call::Refresh,
            "https://api.letta.com/v1/sandboxes/sbx-1/refresh"
        )
    );
    assert_eq!(refresh.body, Body::Json(r#"{"ttlMinutes":5}"#.into()));
    let (call, poll) = sent(&life.on_reply(Call::Refresh, ok(REFRESHED), 0));
    assert_eq!(
        (call, poll.url.as_str()),
        (Call::Poll, "https://api.letta.com/v1/environments/dev-1")
    );
    assert_eq!(
        life.on_reply(Call::Poll, ok(ONLINE), 10),
        vec![Effect::Online {
            connection_id: "conn-1".into()
        }]
    );
    assert_eq!(life.sandbox().map(|s| s.scope), Some(Scope::Conversation));
    life
}

#[test]
fn the_echo_makes_the_sandbox_conversation_scoped() {
    let life = online(false);
    assert_eq!(
        life.deadline(),
        Some(60_010),
        "the refresh timer starts once online"
    );
}

#[test]
fn a_legacy_server_gives_an_agent_scoped_sandbox() {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "default", options(true));
    let (_, create) = sent(&life.start());
    assert_eq!(
        create.body,
        Body::Json("{}".into()),
        "no conversationId for the default conversation"
    );
    let (_, refresh) = sent(&life.on_reply(Call::Create, ok(CREATED_LEGACY), 0));
    assert_eq!(
        refresh.url,
        "https://api.letta.com/v1/agents/agent-1/sandboxes/refresh"
    );
    sent(&life.on_reply(Call::Refresh, ok(REFRESHED), 0));
    life.on_reply(Call::Poll, ok(ONLINE), 0);
    assert_eq!(life.sandbox().map(|s| s.scope), Some(Scope::Agent));
    // close with terminateOnClose: refresh (ownership), then DELETE by agent.
    let (call, check) = sent(&life.close());
    assert_eq!(
        (call, check.url.as_str()),
        (
            Call::Refresh,
            "https://api.letta.com/v1/agents/agent-1/sandboxes/refresh"
        )
    );
    let (call, delete) = sent(&life.on_reply(Call::Refresh, ok(REFRESHED), 5));
    assert_eq!(
        (call, delete.method, delete.url.as_str()),
        (
            Call::Terminate,
            Method::Delete,
            "https://api.letta.com/v1/agents/agent-1/sandboxes"
        )
    );
    assert_eq!(
        life.on_reply(Call::Terminate, Ok(HttpResponse::new(404, "")), 6),
        vec![Effect::Closed],
        "404 ignored"
    );
}

#[test]
fn a_mismatched_echo_fails() {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "conv-1", options(false));
    life.start();
    let body = r#"{"sandboxId":"s","deviceId":"d","connectionName":"n","conversationId":"conv-2"}"#;
    let effects = life.on_reply(Call::Create, ok(body), 0);
    let [Effect::AcquireFailed(error)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(
        error.message,
        "Cloud managed sandbox response conversation mismatch: expected conv-1, got conv-2."
    );
    let mut default = SandboxLifecycle::new(builder(), "agent-1", "default", options(false));
    default.start();
    let effects = default.on_reply(Call::Create, ok(body), 0);
    let [Effect::AcquireFailed(error)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(
        error.message,
        "Cloud managed sandbox response conversation mismatch: expected none, got conv-2."
    );
    let mut missing = SandboxLifecycle::new(builder(), "agent-1", "conv-1", options(false));
    missing.start();
    assert!(matches!(
        missing
            .on_reply(Call::Create, ok(r#"{"sandboxId":"s"}"#), 0)
            .as_slice(),
        [Effect::AcquireFailed(_)]
    ));
}

#[test]
fn polling_retries_offline_and_not_found_until_the_timeout() {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "conv-1", options(false));
    life.start();
    life.on_reply(Call::Create, ok(CREATED_CONV), 0);
    life.on_reply(Call::Refresh, ok(REFRESHED), 100);
    assert!(
        life.on_reply(Call::Poll, ok(OFFLINE), 200).is_empty(),
        "offline: wait"
    );
    assert_eq!(life.deadline(), Some(1_200));
    assert!(life.on_wake(1_199).is_empty());
    let (call, _) = sent(&life.on_wake(1_200));
    assert_eq!(call, Call::Poll);
    let not_found = Ok(HttpResponse::new(
        404,
        r#"{"detail":"Environment Not Found"}"#,
    ));
    assert!(
        life.on_reply(Call::Poll, not_found, 1_300).is_empty(),
        "not found: wait"
    );
    sent(&life.on_wake(2_300));
    assert!(life
        .on_reply(
            Call::Poll,
            Err(CloudError::connection("fetch failed (404)")),
            4_900
        )
        .is_empty());
    assert_eq!(
        life.deadline(),
        Some(5_100),
        "the last poll is at the deadline"
    );
    sent(&life.on_wake(5_100));
    let effects = life.on_reply(Call::Poll, ok(OFFLINE), 5_100);
    let [Effect::AcquireFailed(error)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(error.message, "Cloud managed sandbox sbx-1 did not come online within 5000ms: Remote environment is offline: sandbox-1");
}

#[test]
fn other_poll_errors_fail_at_once() {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "conv-1", options(false));
    life.start();
    life.on_reply(Call::Create, ok(CREATED_CONV), 0);
    life.on_reply(Call::Refresh, ok(REFRESHED), 0);
    let effects = life.on_reply(
        Call::Poll,
        Ok(HttpResponse::new(500, r#"{"error":"boom"}"#)),
        10,
    );
    let [Effect::AcquireFailed(error)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(error.message, r#"500 {"error":"boom"}"#);
}

#[test]
fn refreshes_are_single_flight_and_the_timer_rearms() {
    let mut life = online(false);
    let (call, _) = sent(&life.before_turn());
    assert_eq!(call, Call::Refresh);
    assert!(life.before_turn().is_empty(), "joins the refresh in flight");
    assert!(
        life.on_wake(60_010).is_empty(),
        "the timer does not start a second one"
    );
    assert_eq!(
        life.on_reply(Call::Refresh, ok(REFRESHED), 70_000),
        vec![Effect::Refreshed(Ok(()))]
    );
    assert_eq!(life.deadline(), Some(130_000));
    let (call, _) = sent(&life.on_wake(130_000));
    assert_eq!(call, Call::Refresh);
    assert_eq!(life.deadline(), None, "no timer while a refresh is out");
}

#[test]
fn a_404_refresh_is_the_typed_expiry_and_stops_the_timer() {
    let mut life = online(false);
    sent(&life.before_turn());
    let effects = life.on_reply(
        Call::Refresh,
        Ok(HttpResponse::new(404, r#"{"message":"gone"}"#)),
        1_000,
    );
    let [Effect::Refreshed(Err(error))] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(
        (error.name(), error.code()),
        ("CloudManagedSandboxExpiredError", "managed_sandbox_expired")
    );
    assert_eq!(error.sandbox, Some(("sbx-1".into(), "conv-1".into())));
    assert_eq!(life.deadline(), None);
    let again = life.before_turn();
    assert!(
        matches!(again.as_slice(), [Effect::Refreshed(Err(e))] if e.code() == "managed_sandbox_expired"),
        "no request, same error"
    );
    assert!(
        matches!(life.reacquire().as_slice(), [Effect::AcquireFailed(e)] if e.code() == "managed_sandbox_expired")
    );
}

#[test]
fn other_refresh_errors_keep_the_timer() {
    let mut life = online(false);
    sent(&life.before_turn());
    let effects = life.on_reply(Call::Refresh, Ok(HttpResponse::new(503, "busy")), 1_000);
    assert_eq!(
        effects,
        vec![Effect::Refreshed(Err(CloudError::api(503, "503 busy")))]
    );
    assert_eq!(life.deadline(), Some(61_000));
}

#[test]
fn an_agent_scoped_refresh_of_another_sandbox_stops_the_timer() {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "default", options(false));
    life.start();
    life.on_reply(Call::Create, ok(CREATED_LEGACY), 0);
    life.on_reply(Call::Refresh, ok(REFRESHED), 0);
    life.on_reply(Call::Poll, ok(ONLINE), 0);
    sent(&life.before_turn());
    let effects = life.on_reply(
        Call::Refresh,
        ok(r#"{"success":true,"sandboxId":"sbx-other"}"#),
        10,
    );
    let [Effect::Refreshed(Err(error))] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(error.message.contains("sbx-other"));
    assert_eq!(life.deadline(), None);
}

#[test]
fn close_waits_for_an_in_flight_refresh_then_terminates_if_asked() {
    let mut life = online(true);
    sent(&life.before_turn());
    assert!(life.close().is_empty(), "waits for the refresh");
    assert!(life.close().is_empty(), "idempotent");
    let effects = life.on_reply(Call::Refresh, ok(REFRESHED), 10);
    assert_eq!(
        effects[0],
        Effect::Refreshed(Ok(())),
        "the joined before_turn gets its answer"
    );
    let (call, terminate) = sent(&effects);
    assert_eq!(
        (call, terminate.url.as_str()),
        (
            Call::Terminate,
            "https://api.letta.com/v1/sandboxes/sbx-1/terminate"
        )
    );
    assert_eq!(terminate.body, Body::Json("{}".into()));
    assert_eq!(
        life.on_reply(Call::Terminate, Err(CloudError::connection("down")), 20),
        vec![Effect::Closed],
        "errors swallowed"
    );
    assert_eq!(life.deadline(), None);
}

#[test]
fn close_without_terminate_on_close_sends_nothing() {
    let mut life = online(false);
    assert_eq!(life.close(), vec![Effect::Closed]);
    assert!(life.on_wake(1_000_000).is_empty());
}

#[test]
fn reacquire_refreshes_then_waits_for_online() {
    let mut life = online(false);
    let (call, _) = sent(&life.reacquire());
    assert_eq!(call, Call::Refresh);
    let (call, _) = sent(&life.on_reply(Call::Refresh, ok(REFRESHED), 100));
    assert_eq!(call, Call::Poll);
    assert_eq!(
        life.on_reply(Call::Poll, ok(ONLINE), 200),
        vec![Effect::Online {
            connection_id: "conn-1".into()
        }]
    );
    assert_eq!(life.deadline(), Some(60_200));
}

#[test]
fn before_turn_needs_a_sandbox_and_joining_an_acquisition_refresh_gets_an_answer() {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "conv-1", options(false));
    assert!(
        matches!(life.before_turn().as_slice(), [Effect::Refreshed(Err(_))]),
        "nothing created yet"
    );
    let mut life = online(false);
    sent(&life.reacquire());
    assert!(life.before_turn().is_empty(), "joins the reacquire refresh");
    let effects = life.on_reply(Call::Refresh, ok(REFRESHED), 5);
    assert_eq!(effects[0], Effect::Refreshed(Ok(())));
    assert_eq!(sent(&effects).0, Call::Poll);
    life.close();
    assert!(
        matches!(life.before_turn().as_slice(), [Effect::Refreshed(Err(_))]),
        "closed"
    );
}

#[test]
fn a_failed_ownership_refresh_on_close_ends_the_close_without_terminating() {
    let mut life = SandboxLifecycle::new(builder(), "agent-1", "default", options(true));
    life.start();
    life.on_reply(Call::Create, ok(CREATED_LEGACY), 0);
    life.on_reply(Call::Refresh, ok(REFRESHED), 0);
    life.on_reply(Call::Poll, ok(ONLINE), 0);
    let (call, _) = sent(&life.close());
    assert_eq!(call, Call::Refresh);
    let effects = life.on_reply(Call::Refresh, Ok(HttpResponse::new(503, "busy")), 1);
    assert_eq!(
        effects.last(),
        Some(&Effect::Closed),
        "no second refresh, no terminate: {effects:?}"
    );
}
