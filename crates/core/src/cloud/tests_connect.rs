//! One Cloud session's connection (spec §4.3–§4.6), driven by hand: requests answered, socket
//! opens reported, the clock moved.

use super::*;
use crate::cloud::config::CloudEnv;
use crate::cloud::http::{HttpResponse, Method};
use serde_json::json;

const ONLINE: &str = r#"{"id":"e","deviceId":"dev-1","connectionId":"conn-1","connectionName":"sandbox-1","organizationId":"o","podId":null,"connectedAt":1,"lastHeartbeat":1,"lastSeenAt":1,"firstSeenAt":1}"#;
const OFFLINE: &str = r#"{"id":"e","deviceId":"dev-1","connectionId":null,"connectionName":"sandbox-1","organizationId":"o","podId":null,"connectedAt":null,"lastHeartbeat":null,"lastSeenAt":1,"firstSeenAt":1}"#;
const CREATED: &str = r#"{"sandboxId":"sbx-1","deviceId":"dev-1","connectionName":"sandbox-1","conversationId":"conv-1"}"#;
const REFRESHED: &str = r#"{"success":true,"sandboxId":"sbx-1","ttlMinutes":5}"#;

/// The client's API key: in the sockets' headers, never in a URL.
const API_KEY: &str = "sk-test-connect-secret";

/// A session's connection: `session` is the `cloud` part of the wrapper's session config.
fn connection(target: serde_json::Value, cloud: serde_json::Value) -> CloudConnect {
    let options = json!({"apiKey": API_KEY}).to_string();
    let config = CloudConfig::from_json(&options, &CloudEnv::default()).unwrap();
    let session = json!({"target": target, "cloud": cloud}).to_string();
    let plan = SessionPlan::parse(&config, &session).unwrap();
    CloudConnect::new(config, plan)
}

fn new_conversation() -> serde_json::Value {
    json!({"kind": "newConversation", "agentId": "agent-1"})
}

fn effects(machine: &mut CloudConnect) -> Vec<ConnectEffect> {
    std::iter::from_fn(|| machine.pop_effect()).collect()
}

/// The one request among `effects`: its id, method and URL.
fn fetched(effects: &[ConnectEffect]) -> (u32, Method, String) {
    let fetches: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            ConnectEffect::Fetch { id, request } => {
                Some((*id, request.method, request.url.clone()))
            }
            _ => None,
        })
        .collect();
    match fetches.as_slice() {
        [one] => one.clone(),
        other => panic!("expected one request, got {other:?} in {effects:?}"),
    }
}

fn urls(effects: &[ConnectEffect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            ConnectEffect::Fetch { request, .. } => Some(request.url.clone()),
            _ => None,
        })
        .collect()
}

fn ok(body: &str) -> Reply<'_> {
    Ok(HttpResponse::new(200, body))
}

/// Answers the one request of `effects` with `body` and returns what follows.
fn answer(machine: &mut CloudConnect, effects: &[ConnectEffect], body: &str) -> Vec<ConnectEffect> {
    let (id, _, _) = fetched(effects);
    machine.on_reply(id, ok(body), 0);
    self::effects(machine)
}

fn opened_on(effects: &[ConnectEffect]) -> Option<&StatusEndpoints> {
    effects.iter().find_map(|e| match e {
        ConnectEffect::Open { endpoints, .. } => Some(endpoints),
        _ => None,
    })
}

fn failure(effects: &[ConnectEffect]) -> Option<(CallId, &CloudError)> {
    effects.iter().find_map(|e| match e {
        ConnectEffect::Failed { call, error } => Some((*call, error)),
        _ => None,
    })
}

fn settled(effects: &[ConnectEffect]) -> Vec<(CallId, CloudResult<Option<String>>)> {
    effects
        .iter()
        .filter_map(|e| match e {
            ConnectEffect::Settle { call, result } => Some((*call, result.clone())),
            _ => None,
        })
        .collect()
}

/// A session on `cloud`'s explicit computer, its new conversation created: what follows.
fn on_computer(call: CallId, cloud: serde_json::Value) -> (CloudConnect, Vec<ConnectEffect>) {
    let mut machine = connection(new_conversation(), cloud);
    machine.connect(call, 0);
    let out = effects(&mut machine);
    let out = answer(&mut machine, &out, r#"{"id":"conv-1"}"#);
    (machine, out)
}

/// A managed sandbox session, connected: create conversation → create sandbox → refresh → online.
fn sandbox_connected(cloud: serde_json::Value) -> CloudConnect {
    let mut machine = connection(new_conversation(), cloud);
    machine.connect(1, 0);
    let out = effects(&mut machine);
    let out = answer(&mut machine, &out, r#"{"id":"conv-1"}"#);
    assert!(out.contains(&ConnectEffect::Runtime(Runtime::new("agent-1", "conv-1"))));
    assert_eq!(
        fetched(&out).2,
        "https://api.letta.com/v1/agents/agent-1/sandboxes"
    );
    let out = answer(&mut machine, &out, CREATED);
    let out = answer(&mut machine, &out, REFRESHED);
    assert_eq!(
        fetched(&out).2,
        "https://api.letta.com/v1/environments/dev-1"
    );
    let out = answer(&mut machine, &out, ONLINE);
    assert!(opened_on(&out).is_some_and(|e| e.control.contains("conn-1")));
    assert!(machine.on_opened());
    machine
}

#[test]
fn a_computer_by_connection_id_opens_after_the_new_conversation() {
    let mut machine = connection(
        new_conversation(),
        json!({"computer": {"connectionId": "conn-9"}}),
    );
    machine.connect(1, 0);
    let out = effects(&mut machine);
    let (_, method, url) = fetched(&out);
    assert_eq!(method, Method::Post);
    assert!(
        url.starts_with("https://api.letta.com/v1/conversations"),
        "{url}"
    );
    let out = answer(&mut machine, &out, r#"{"id":"conv-1"}"#);
    assert_eq!(
        out[0],
        ConnectEffect::Runtime(Runtime::new("agent-1", "conv-1"))
    );
    let endpoints = opened_on(&out).expect("the sockets open");
    assert!(endpoints.control.contains("conn-9") && endpoints.stream.contains("conn-9"));
    assert!(
        !endpoints.control.contains(API_KEY) && !endpoints.stream.contains(API_KEY),
        "no key in a URL in header mode"
    );
    let headers = endpoints.headers.as_deref().expect("header mode");
    assert!(headers.iter().any(|(_, value)| value.contains(API_KEY)));
    assert!(machine.on_opened());
    // Nothing left to do: no effect, no timer.
    assert!(effects(&mut machine).is_empty());
    assert_eq!(machine.deadline(), None);
}

#[test]
fn a_device_is_looked_up_and_an_offline_one_fails_the_connect() {
    let (mut machine, out) = on_computer(7, json!({"computer": {"deviceId": "dev-1"}}));
    assert_eq!(
        fetched(&out).2,
        "https://api.letta.com/v1/environments/dev-1"
    );
    let out = answer(&mut machine, &out, OFFLINE);
    let (call, error) = failure(&out).expect("the connect fails");
    assert_eq!(call, 7);
    assert_eq!(error.message, "Remote environment is offline: dev-1");
    assert!(opened_on(&out).is_none());
}

#[test]
fn a_failed_open_re_resolves_once_then_fails_with_the_last_detail() {
    let (mut machine, out) = on_computer(1, json!({"computer": {"deviceId": "dev-1"}}));
    let out = answer(&mut machine, &out, ONLINE);
    assert!(opened_on(&out).is_some());
    machine.on_open_failed("refused");
    let out = effects(&mut machine);
    assert!(matches!(&out[0], ConnectEffect::Warn(line) if line.contains("conn-1")));
    // The computer is looked up again before the second attempt.
    assert_eq!(
        fetched(&out).2,
        "https://api.letta.com/v1/environments/dev-1"
    );
    let out = answer(&mut machine, &out, ONLINE);
    assert!(opened_on(&out).is_some());
    machine.on_open_failed("refused again");
    let out = effects(&mut machine);
    let (_, error) = failure(&out).expect("the second failure ends the connect");
    assert_eq!(
        error.message,
        "Cloud status WebSocket failed to open for connection conn-1: refused again"
    );
    assert_eq!(OPEN_ATTEMPTS, 2);
}

#[test]
fn an_agent_free_conversation_opens_without_a_request() {
    let mut machine = connection(
        json!({"kind": "agentFree", "conversationId": "conv-2"}),
        json!({"action": "query", "computer": {"connectionId": "conn-1"}}),
    );
    machine.connect(1, 0);
    let out = effects(&mut machine);
    assert_eq!(
        out[0],
        ConnectEffect::Runtime(Runtime::agent_free("conv-2"))
    );
    assert!(opened_on(&out).is_some());
    assert!(urls(&out).is_empty());
}

#[test]
fn a_managed_sandbox_is_refreshed_before_a_turn_and_gives_its_id_to_a_transfer() {
    let mut machine = sandbox_connected(json!({"sandbox": {}}));
    machine.before_turn(2);
    machine.transfer(3);
    let out = effects(&mut machine);
    // One refresh answers both callers.
    assert_eq!(
        fetched(&out).2,
        "https://api.letta.com/v1/sandboxes/sbx-1/refresh"
    );
    let out = answer(&mut machine, &out, REFRESHED);
    assert_eq!(
        settled(&out),
        vec![(2, Ok(None)), (3, Ok(Some("sbx-1".to_owned())))]
    );
    // An expired sandbox (404) fails the next turn with its typed error.
    machine.before_turn(4);
    let out = effects(&mut machine);
    let (id, _, _) = fetched(&out);
    machine.on_reply(id, Ok(HttpResponse::new(404, "{}")), 0);
    let out = effects(&mut machine);
    let settled = settled(&out);
    let [(4, Err(error))] = settled.as_slice() else {
        panic!("the turn fails: {out:?}");
    };
    assert_eq!(error.name(), "CloudManagedSandboxExpiredError");
}

#[test]
fn an_explicit_computer_needs_nothing_before_a_turn_and_has_no_files() {
    let mut machine = connection(
        new_conversation(),
        json!({"computer": {"connectionId": "c"}}),
    );
    machine.before_turn(1);
    machine.transfer(2);
    let out = effects(&mut machine);
    assert!(urls(&out).is_empty());
    let settled = settled(&out);
    assert_eq!(settled[0], (1, Ok(None)));
    assert!(matches!(&settled[1], (2, Err(_))));
}

#[test]
fn an_idle_reopen_refreshes_the_sandbox_instead_of_creating_one() {
    let mut machine = sandbox_connected(json!({"sandbox": {}}));
    machine.connect(5, 0);
    let out = effects(&mut machine);
    assert_eq!(
        fetched(&out).2,
        "https://api.letta.com/v1/sandboxes/sbx-1/refresh"
    );
    assert!(!out.iter().any(|e| matches!(e, ConnectEffect::Runtime(_))));
    let out = answer(&mut machine, &out, REFRESHED);
    let out = answer(&mut machine, &out, ONLINE);
    assert!(opened_on(&out).is_some());
}

#[test]
fn close_terminates_the_sandbox_with_terminate_on_close_then_detaches() {
    let mut machine = connection(
        new_conversation(),
        json!({"sandbox": {"terminateOnClose": true},
               "resources": [{"type": "repository", "repositoryId": "r-1"}]}),
    );
    machine.connect(1, 0);
    let out = effects(&mut machine);
    // Repositories: listed, attached, visible; then the conversation, the recompile.
    let out = answer(&mut machine, &out, "[]");
    let attached = r#"{"success":true,"repository":{"id":"r-1","name":"r","is_primary":false,"permissions":"read"}}"#;
    let listed = r#"[{"id":"r-1","name":"r","is_primary":false,"permissions":"read"}]"#;
    let out = answer(&mut machine, &out, attached);
    let out = answer(&mut machine, &out, listed);
    let out = answer(&mut machine, &out, r#"{"id":"conv-1"}"#);
    let out = answer(&mut machine, &out, "{}");
    let out = answer(&mut machine, &out, CREATED);
    let out = answer(&mut machine, &out, REFRESHED);
    let out = answer(&mut machine, &out, ONLINE);
    assert!(opened_on(&out).is_some());
    assert!(machine.on_opened());
    machine.close();
    let out = effects(&mut machine);
    assert_eq!(fetched(&out).1, Method::Post);
    assert_eq!(
        fetched(&out).2,
        "https://api.letta.com/v1/sandboxes/sbx-1/terminate"
    );
    assert!(
        urls(&out).iter().all(|u| !u.contains("repositories")),
        "detached after"
    );
    let out = answer(&mut machine, &out, "{}");
    let detaches = urls(&out);
    assert_eq!(detaches.len(), 2, "{detaches:?}");
    assert!(detaches[0].ends_with("/v1/agents/agent-1/repositories/r-1"));
    assert!(detaches[1].contains("recompile"));
}

#[test]
fn close_while_the_resolver_waits_detaches_and_never_opens() {
    let mut machine = connection(
        new_conversation(),
        json!({"computer": {"connectionId": "c"},
               "resources": [{"type": "repository", "repositoryId": "r-1"}]}),
    );
    machine.connect(1, 0);
    let out = effects(&mut machine);
    let out = answer(&mut machine, &out, "[]");
    let attached = r#"{"success":true,"repository":{"id":"r-1","name":"r","is_primary":false,"permissions":"read"}}"#;
    let out = answer(&mut machine, &out, attached);
    // Not yet visible: the resolver waits to poll again.
    let out = answer(&mut machine, &out, "[]");
    assert!(urls(&out).is_empty());
    assert_eq!(machine.deadline(), Some(start::ATTACH_POLL_MS));
    machine.close();
    let out = effects(&mut machine);
    assert!(fetched(&out)
        .2
        .ends_with("/v1/agents/agent-1/repositories/r-1"));
    let out = answer(&mut machine, &out, "{}");
    let (call, error) = failure(&out).expect("the connect ends");
    assert_eq!((call, error.name()), (1, "LettaClosedError"));
    assert!(opened_on(&out).is_none());
    // The poll it was waiting for is not made: no timer, and a late wake sends nothing.
    assert_eq!(machine.deadline(), None);
    machine.on_wake(start::ATTACH_POLL_MS);
    assert!(effects(&mut machine).is_empty());
}

#[test]
fn sockets_that_open_after_close_are_dropped_and_a_new_connect_is_refused() {
    let (mut machine, out) = on_computer(1, json!({"computer": {"connectionId": "c"}}));
    assert!(opened_on(&out).is_some());
    machine.close();
    assert!(!machine.on_opened());
    let out = effects(&mut machine);
    assert_eq!(
        failure(&out).map(|(c, e)| (c, e.name())),
        Some((1, "LettaClosedError"))
    );
    machine.connect(2, 0);
    let out = effects(&mut machine);
    assert_eq!(failure(&out).map(|(c, _)| c), Some(2));
}

#[test]
fn a_computer_found_after_close_is_not_opened() {
    let (mut machine, out) = on_computer(1, json!({"computer": {"deviceId": "dev-1"}}));
    let (id, _, _) = fetched(&out);
    machine.close();
    machine.on_reply(id, ok(ONLINE), 0);
    let out = effects(&mut machine);
    assert!(opened_on(&out).is_none(), "{out:?}");
    assert_eq!(
        failure(&out).map(|(c, e)| (c, e.name())),
        Some((1, "LettaClosedError"))
    );
}
