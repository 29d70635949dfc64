//! Runtime resolution (spec §4.3).

use super::*;
use crate::cloud::http::test_support::builder;
use crate::cloud::http::{Body, HttpResponse, Method};

fn request(step: Step) -> HttpRequest {
    match step {
        Step::Send(request) => request,
        other => panic!("expected a request, got {other:?}"),
    }
}

fn ok(body: &str) -> Reply<'_> {
    Ok(HttpResponse::new(200, body))
}

fn repo(id: &str) -> String {
    format!(r#"{{"id":"{id}","name":"{id}","is_primary":false,"permissions":"read"}}"#)
}

fn resource(id: &str, recompile: bool) -> RepositoryResource {
    RepositoryResource {
        repository_id: id.into(),
        recompile,
    }
}

/// The body of a successful attach.
fn attached(id: &str) -> String {
    format!(r#"{{"success":true,"repository":{}}}"#, repo(id))
}

/// A resolver on the default conversation of `agent-1` that attached `r-1` (not linked before);
/// its next reply answers the first visibility poll.
fn attached_r1(recompile: bool) -> RuntimeResolver {
    let mut r = RuntimeResolver::new(
        builder(),
        "agent-1",
        Conversation::Default,
        vec![resource("r-1", recompile)],
    );
    r.start(0);
    r.on_reply(ok("[]"), 0);
    r.on_reply(ok(&attached("r-1")), 0);
    r
}

#[test]
fn agent_free_needs_no_request() {
    let Step::Done(resolved) = RuntimeResolver::agent_free("conv-e") else {
        panic!()
    };
    assert_eq!(resolved.runtime, Runtime::agent_free("conv-e"));
}

#[test]
fn a_new_conversation_is_created_over_rest() {
    let mut r = RuntimeResolver::new(builder(), "agent-1", Conversation::New, vec![]);
    let create = request(r.start(0));
    assert_eq!(
        (create.method, create.url.as_str()),
        (
            Method::Post,
            "https://api.letta.com/v1/conversations/?agent_id=agent-1"
        )
    );
    let Step::Done(resolved) = r.on_reply(ok(r#"{"id":"conv-new"}"#), 0) else {
        panic!()
    };
    assert_eq!(resolved.runtime, Runtime::new("agent-1", "conv-new"));
}

#[test]
fn default_and_existing_conversations() {
    let mut default = RuntimeResolver::new(builder(), "agent-1", Conversation::Default, vec![]);
    let Step::Done(resolved) = default.start(0) else {
        panic!()
    };
    assert_eq!(resolved.runtime, Runtime::new("agent-1", "default"));
    let mut existing = RuntimeResolver::for_conversation(builder(), "conv-7", vec![]);
    assert_eq!(
        request(existing.start(0)).url,
        "https://api.letta.com/v1/conversations/conv-7"
    );
    let Step::Done(resolved) = existing.on_reply(ok(r#"{"id":"conv-7","agent_id":"agent-9"}"#), 0)
    else {
        panic!()
    };
    assert_eq!(resolved.runtime, Runtime::new("agent-9", "conv-7"));
    let mut broken = RuntimeResolver::for_conversation(builder(), "conv-7", vec![]);
    broken.start(0);
    let Step::Failed(error) = broken.on_reply(ok(r#"{"id":"conv-7"}"#), 0) else {
        panic!()
    };
    assert_eq!(
        error.message,
        "Cloud conversation conv-7 did not include an agent id."
    );
}

#[test]
fn repositories_are_attached_polled_and_recompiled_once() {
    let resources = vec![resource("r-linked", false), resource("r-new", true)];
    let mut r = RuntimeResolver::new(
        builder(),
        "agent-1",
        Conversation::Existing("conv-1".into()),
        resources,
    );
    assert_eq!(
        request(r.start(0)).url,
        "https://api.letta.com/v1/agents/agent-1/repositories"
    );
    let attach = request(r.on_reply(ok(&format!("[{}]", repo("r-linked"))), 0));
    assert_eq!(
        (attach.method, &attach.body),
        (
            Method::Post,
            &Body::Json(r#"{"repository_id":"r-new"}"#.into())
        )
    );
    let poll = request(r.on_reply(ok(&attached("r-new")), 100));
    assert_eq!(poll.method, Method::Get);
    assert_eq!(
        r.on_reply(ok(&format!("[{}]", repo("r-linked"))), 200),
        Step::WaitUntil(450)
    );
    let poll = request(r.on_wake(450).unwrap());
    assert_eq!(
        poll.url,
        "https://api.letta.com/v1/agents/agent-1/repositories"
    );
    let recompile = request(r.on_reply(
        ok(&format!("[{},{}]", repo("r-linked"), repo("r-new"))),
        450,
    ));
    assert_eq!(
        recompile.url,
        "https://api.letta.com/v1/conversations/conv-1/recompile"
    );
    let Step::Done(resolved) = r.on_reply(ok("\"ok\""), 500) else {
        panic!()
    };
    assert_eq!(
        (resolved.attached.clone(), resolved.recompile_on_detach),
        (vec!["r-new".to_owned()], true)
    );
    let undo = detach_requests(&builder(), &resolved);
    assert_eq!(
        undo.iter()
            .map(|r| (r.method, r.url.as_str()))
            .collect::<Vec<_>>(),
        [
            (
                Method::Delete,
                "https://api.letta.com/v1/agents/agent-1/repositories/r-new"
            ),
            (
                Method::Post,
                "https://api.letta.com/v1/conversations/conv-1/recompile"
            ),
        ]
    );
}

#[test]
fn already_linked_repositories_still_recompile_the_default_agent_prompt() {
    let mut r = RuntimeResolver::new(
        builder(),
        "agent-1",
        Conversation::Default,
        vec![resource("r-1", true)],
    );
    r.start(0);
    let recompile = request(r.on_reply(ok(&format!("[{}]", repo("r-1"))), 0));
    assert_eq!(
        recompile.url,
        "https://api.letta.com/v1/agents/agent-1/recompile"
    );
    let Step::Done(resolved) = r.on_reply(ok("{}"), 0) else {
        panic!()
    };
    assert!(resolved.attached.is_empty());
    assert!(detach_requests(&builder(), &resolved).is_empty());
}

#[test]
fn a_repository_that_never_shows_up_times_out_and_is_detached() {
    let mut r = attached_r1(false);
    let mut now = 0;
    loop {
        match r.on_reply(ok("[]"), now) {
            Step::WaitUntil(at) => {
                now = at;
                request(r.on_wake(at).unwrap());
            }
            Step::Send(detach) => {
                assert_eq!(
                    (detach.method, detach.url.as_str()),
                    (
                        Method::Delete,
                        "https://api.letta.com/v1/agents/agent-1/repositories/r-1"
                    )
                );
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(now, ATTACH_TIMEOUT_MS);
    let Step::Failed(error) = r.on_reply(Ok(HttpResponse::new(500, "x")), now) else {
        panic!()
    };
    assert_eq!(
        error.message,
        "Cloud attach agent repository did not become visible for agent-1: r-1"
    );
}

#[test]
fn a_failed_recompile_detaches_and_rethrows() {
    let mut r = attached_r1(true);
    request(r.on_reply(ok(&format!("[{}]", repo("r-1"))), 0));
    let detach = request(r.on_reply(
        Ok(HttpResponse::new(500, r#"{"error":"recompile failed"}"#)),
        0,
    ));
    assert_eq!(detach.method, Method::Delete);
    let Step::Failed(error) = r.on_reply(ok(""), 0) else {
        panic!()
    };
    assert_eq!(error.message, r#"500 {"error":"recompile failed"}"#);
}

#[test]
fn cloud_runtime_start_has_the_runtime_and_no_create_fields() {
    use crate::protocol::commands::Command;
    let frame = Command::RuntimeStart(runtime_start(
        "runtime-start-1",
        "unrestricted",
        &Runtime::new("agent-1", "conv-1"),
    ));
    let value: serde_json::Value = serde_json::from_str(&frame.to_json()).unwrap();
    assert_eq!(value["type"], "runtime_start");
    assert_eq!(
        (
            value["agent_id"].as_str(),
            value["conversation_id"].as_str()
        ),
        (Some("agent-1"), Some("conv-1"))
    );
    assert_eq!(
        (
            value["recover_approvals"].as_bool(),
            value["force_device_status"].as_bool()
        ),
        (Some(false), Some(true))
    );
    assert_eq!(value["mode"], "unrestricted");
    assert_eq!(value["client_info"]["name"], "@letta-ai/letta-agent-sdk");
    assert!(value.get("create_agent").is_none() && value.get("create_conversation").is_none());
    let agent_free = Command::RuntimeStart(runtime_start(
        "r",
        "standard",
        &Runtime::agent_free("conv-e"),
    ))
    .to_json();
    assert!(
        !agent_free.contains("agent_id"),
        "agent_id only if any: {agent_free}"
    );
}
