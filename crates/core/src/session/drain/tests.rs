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

/// One turn whose shell command `canUseTool` allowed, as the real server runs it: run
/// `run-<n>a` pauses for the approval, `run-<n>b` answers, and the turn's one `turn_finished`
/// names `run-<n>b`. Returns the time its `result` was handed out.
fn approved_tool_turn(core: &mut crate::session::SessionCore, n: u32, at: u64) -> u64 {
    let (first, second) = (format!("run-{n}a"), format!("run-{n}b"));
    let delta = |run: &str, body: &str| {
        frame(
            &[
                r#""type":"stream_delta","delta":{"#,
                body,
                r#","run_id":""#,
                run,
                r#""}"#,
            ]
            .concat(),
        )
    };
    core.send(r#""run it""#, None, at).unwrap();
    let input = writes(&effects(core))[0]["request_id"]
        .as_str()
        .unwrap()
        .to_owned();
    core.on_frame(&frame(&input_accepted(&input, "started")), at + 1);
    core.on_frame(
        &delta(
            &first,
            r#""message_type":"reasoning_message","id":"r","reasoning":"hm""#,
        ),
        at + 2,
    );
    core.on_frame(
        &delta(
            &first,
            r#""message_type":"stop_reason","stop_reason":"requires_approval""#,
        ),
        at + 3,
    );
    let request = format!(
        r#""type":"control_request","request_id":"perm-{n}","request":{{"subtype":"can_use_tool","tool_name":"Bash","input":{{"command":"ls"}},"tool_call_id":"call-{n}"}}"#
    );
    core.on_frame(&frame(&request), at + 4);
    let asked = effects(core);
    let Some(Effect::AskApproval { handle, .. }) = asked.first() else {
        panic!("expected an approval request, got {asked:?}");
    };
    core.answer_approval(*handle, r#"{"behavior":"allow"}"#);
    effects(core);
    core.on_frame(
        &delta(
            &second,
            r#""message_type":"assistant_message","id":"a","content":"done""#,
        ),
        at + 10,
    );
    core.on_frame(
        &delta(
            &second,
            r#""message_type":"stop_reason","stop_reason":"end_turn""#,
        ),
        at + 11,
    );
    core.on_frame(
        &frame(&format!(
            r#""type":"turn_finished","run_id":"{second}","stop_reason":"end_turn""#
        )),
        at + 12,
    );
    let mut now = at + 12;
    loop {
        while let Some(message) = core.pop_message() {
            if message.starts_with(r#"{"type":"result""#) {
                assert!(message.contains(r#""success":true"#), "{message}");
                return now;
            }
        }
        now = core
            .next_deadline()
            .expect("a grace timer until the result");
        assert!(now < at + 1_000, "the result comes within the graces");
        core.on_tick(now);
        effects(core);
    }
}

#[test]
fn close_right_after_an_approved_tool_turn_keeps_the_socket_for_the_queue_pump() {
    let mut core = started(r#"{"hasCanUseTool":true}"#);
    let ended = approved_tool_turn(&mut core, 1, 10);
    core.close(ended + 5);
    assert!(!closes(&effects(&mut core)));
    let window_end = ended + crate::session::coordinator::APPROVAL_PUMP_WINDOW_MS;
    assert_eq!(
        core.next_deadline(),
        Some(window_end),
        "until the window ends, not 3 s from close"
    );
    core.on_tick(window_end - 1);
    assert!(!closes(&effects(&mut core)));
    core.on_tick(window_end);
    assert!(closes(&effects(&mut core)));
}

#[test]
fn close_once_the_pump_window_passed_closes_at_once() {
    let mut core = started(r#"{"hasCanUseTool":true}"#);
    let ended = approved_tool_turn(&mut core, 1, 10);
    core.close(ended + crate::session::coordinator::APPROVAL_PUMP_WINDOW_MS);
    assert!(
        closes(&effects(&mut core)),
        "the run that paused for the approval is not waited on"
    );
}

#[test]
fn after_many_approved_turns_a_close_still_waits_for_an_aborted_run_and_no_longer() {
    let mut core = started(r#"{"hasCanUseTool":true}"#);
    let mut at = 10;
    for n in 0..20 {
        at = approved_tool_turn(&mut core, n, at) + 10_000;
    }
    core.send(r#""[slow] story""#, None, at).unwrap();
    let input = writes(&effects(&mut core))[0]["request_id"]
        .as_str()
        .unwrap()
        .to_owned();
    core.on_frame(&frame(&input_accepted(&input, "started")), at + 1);
    core.on_frame(
        &frame(r#""type":"stream_delta","delta":{"message_type":"reasoning_message","id":"r1","run_id":"run-slow","reasoning":"hm"}"#),
        at + 2,
    );
    core.abort(5, at + 3);
    core.on_frame(
        &frame(r#""type":"update_loop_status","loop_status":{"status":"WAITING_ON_INPUT","active_run_ids":[]}"#),
        at + 4,
    );
    effects(&mut core);
    core.close(at + 20);
    assert!(
        !closes(&effects(&mut core)),
        "the aborted run is still settling"
    );
    core.on_frame(
        &frame(r#""type":"turn_finished","run_id":"run-slow","stop_reason":"cancelled""#),
        at + 400,
    );
    assert!(
        closes(&effects(&mut core)),
        "its turn_finished was the last thing to wait for"
    );
}
