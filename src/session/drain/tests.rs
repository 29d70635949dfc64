//! Closing while the server settles our work, and re-pumping a stalled queue, through the core.

use crate::session::core::tests::{effects, started, writes};
use crate::session::core::Effect;
use crate::session::CLOSE_DRAIN_MS;

fn frame(body: &str) -> String {
    [
        "{",
        body,
        r#","runtime":{"agent_id":"agent-1","conversation_id":"conv-1"}}"#,
    ]
    .concat()
}

fn closes(done: &[Effect]) -> bool {
    done.contains(&Effect::CloseTransport)
}

/// The body of the server's `input_accepted` for our `input` request.
fn input_accepted(request_id: &str, disposition: &str) -> String {
    [
        r#""type":"input_accepted","request_id":""#,
        request_id,
        r#"","accepted":true,"disposition":""#,
        disposition,
        r#"""#,
    ]
    .concat()
}

/// A session whose turn was aborted: `interrupted` on idle, before the run's `turn_finished`.
fn aborted_turn() -> crate::session::SessionCore {
    let mut core = started("{}");
    core.send(r#""[slow] story""#, Some("otid-1"), 10).unwrap();
    let input = writes(&effects(&mut core))[0]["request_id"]
        .as_str()
        .unwrap()
        .to_owned();
    core.on_frame(&frame(&input_accepted(&input, "started")), 11);
    core.on_frame(
        &frame(r#""type":"stream_delta","delta":{"message_type":"reasoning_message","id":"r1","run_id":"run-1","reasoning":"hm"}"#),
        12,
    );
    core.abort(5, 13);
    core.on_frame(
        &frame(r#""type":"update_loop_status","loop_status":{"status":"WAITING_ON_INPUT","active_run_ids":[]}"#),
        14,
    );
    effects(&mut core);
    core
}

#[test]
fn close_after_an_interrupted_turn_keeps_the_socket_until_its_turn_finished() {
    let mut core = aborted_turn();
    core.close(20);
    assert!(
        !closes(&effects(&mut core)),
        "the run has no turn_finished yet"
    );
    assert!(core.is_draining());
    while core.pop_message().is_some() {}
    assert!(core.stream_ended(), "the stream ends at once all the same");
    assert_eq!(core.next_deadline(), Some(20 + CLOSE_DRAIN_MS));
    core.on_frame(
        &frame(r#""type":"turn_finished","run_id":"run-1","stop_reason":"cancelled""#),
        400,
    );
    assert!(closes(&effects(&mut core)));
    assert!(!core.is_draining());
}

#[test]
fn the_drain_is_bounded_by_its_deadline() {
    let mut core = aborted_turn();
    core.close(20);
    effects(&mut core);
    core.on_tick(20 + CLOSE_DRAIN_MS - 1);
    assert!(!closes(&effects(&mut core)));
    core.on_tick(20 + CLOSE_DRAIN_MS);
    assert!(closes(&effects(&mut core)));
    assert_eq!(core.next_deadline(), None);
}

#[test]
fn close_with_nothing_unsettled_closes_at_once() {
    let mut core = started("{}");
    core.close(5);
    assert!(closes(&effects(&mut core)));
    assert!(!core.is_draining());
}

#[test]
fn a_stalled_queued_input_sends_resume_queue_and_never_the_input_again() {
    let mut core = started("{}");
    core.send(r#""hello""#, None, 10).unwrap();
    let sent = writes(&effects(&mut core));
    let input = sent[0]["request_id"].as_str().unwrap().to_owned();
    core.on_frame(&frame(&input_accepted(&input, "queued")), 11);
    assert!(writes(&effects(&mut core)).is_empty());
    let mut written = Vec::new();
    while let Some(at) = core.next_deadline() {
        core.on_tick(at);
        written.extend(writes(&effects(&mut core)));
    }
    assert!(!written.is_empty());
    for command in &written {
        assert_eq!(command["type"], "resume_queue", "{command}");
        assert_eq!(command["runtime"]["conversation_id"], "conv-1");
    }
    assert_eq!(
        written.len(),
        crate::session::coordinator::MAX_RESUME_ATTEMPTS as usize
    );
    assert!(core.has_in_flight_turn());
}
