//! Turn correlation by evidence and the stalled-queue watch (issue 11, items 1 and 2).

use super::*;
use crate::protocol::sdk_message::SdkMessage;

const RT: &str = r#""runtime":{"agent_id":"agent-1","conversation_id":"conv-1"}"#;

fn coordinator() -> TurnCoordinator {
    TurnCoordinator::new(
        CoordinatorConfig::new("app-server"),
        Runtime {
            agent_id: Some("agent-1".into()),
            conversation_id: "conv-1".into(),
        },
    )
}

fn feed(c: &mut TurnCoordinator, body: &str, now: u64) {
    let text = ["{", body, ",", RT, "}"].concat();
    assert!(c.handle_text(&text, now), "frame parses: {text}");
}

fn results(c: &mut TurnCoordinator) -> Vec<crate::protocol::sdk_message::ResultMessage> {
    let mut out = Vec::new();
    while let Some(message) = c.pop_message() {
        if let SdkMessage::Result(result) = message {
            out.push(result);
        }
    }
    out
}

fn finished(run: &str, stop: &str) -> String {
    [
        r#""type":"turn_finished","run_id":""#,
        run,
        r#"","stop_reason":""#,
        stop,
        r#"""#,
    ]
    .concat()
}

fn assistant(run: &str, text: &str) -> String {
    [
        r#""type":"stream_delta","delta":{"message_type":"assistant_message","id":"m-"#,
        run,
        r#"","run_id":""#,
        run,
        r#"","content":""#,
        text,
        r#""}"#,
    ]
    .concat()
}

/// After the grace timers, exactly one successful `result`, of `run` and with `text`.
fn assert_one_success(c: &mut TurnCoordinator, run: &str, text: &str) {
    c.on_tick(5_000);
    let results = results(c);
    assert_eq!(results.len(), 1, "exactly one result");
    assert!(results[0].success);
    assert_eq!(results[0].run_ids, vec![run.to_owned()]);
    assert_eq!(results[0].result.as_deref(), Some(text));
}
#[test]
fn a_queued_input_ignores_the_late_turn_finished_of_an_aborted_run() {
    let mut c = coordinator();
    c.track_sent_turn(0, "cm-new".into(), None);
    c.note_input_request("cm-new", "input-1");
    feed(
        &mut c,
        r#""type":"input_accepted","request_id":"input-1","accepted":true,"disposition":"queued""#,
        1,
    );
    feed(&mut c, &finished("run-old", "cancelled"), 400);
    assert!(
        results(&mut c).is_empty(),
        "the old run's terminal is not ours"
    );
    assert!(c.has_in_flight_turn());
    feed(
        &mut c,
        r#""type":"update_queue","queue":[],"removed":[{"client_message_id":"cm-new","disposition":"dequeued"}]"#,
        500,
    );
    feed(&mut c, &assistant("run-new", "hi"), 510);
    feed(&mut c, &finished("run-new", "end_turn"), 520);
    assert_one_success(&mut c, "run-new", "hi");
}

#[test]
fn the_run_map_names_the_turn_and_keeps_other_messages_runs_out() {
    let mut c = coordinator();
    c.track_sent_turn(0, "cm-ours".into(), None);
    feed(
        &mut c,
        r#""type":"update_loop_status","loop_status":{"status":"PROCESSING_API_RESPONSE","active_run_ids":["run-a"],"client_message_ids_by_run_id":{"run-a":["cm-theirs"]}}"#,
        1,
    );
    feed(&mut c, &assistant("run-a", "not ours"), 2);
    feed(&mut c, &finished("run-a", "cancelled"), 3);
    assert!(
        results(&mut c).is_empty(),
        "a run of another message never ends ours"
    );
    feed(
        &mut c,
        r#""type":"update_loop_status","loop_status":{"status":"PROCESSING_API_RESPONSE","active_run_ids":["run-b"],"client_message_ids_by_run_id":{"run-b":["cm-ours"]}}"#,
        4,
    );
    feed(&mut c, &assistant("run-b", "ours"), 5);
    feed(&mut c, &finished("run-b", "end_turn"), 6);
    assert_one_success(&mut c, "run-b", "ours");
}

#[test]
fn runs_running_when_the_input_was_queued_are_not_ours() {
    let mut c = coordinator();
    feed(
        &mut c,
        r#""type":"update_loop_status","loop_status":{"status":"PROCESSING_API_RESPONSE","active_run_ids":["run-old"]}"#,
        0,
    );
    c.track_sent_turn(1, "cm-new".into(), None);
    feed(
        &mut c,
        r#""type":"input_accepted","request_id":"input-9","accepted":true,"disposition":"queued""#,
        2,
    );
    feed(&mut c, &assistant("run-old", "old text"), 3);
    feed(&mut c, &finished("run-old", "end_turn"), 4);
    assert!(results(&mut c).is_empty());
    assert!(c.has_in_flight_turn());
}

#[test]
fn a_queued_input_on_an_idle_server_asks_for_resume_queue_with_backoff_then_stops() {
    let mut c = coordinator();
    c.track_sent_turn(0, "cm-new".into(), None);
    feed(
        &mut c,
        r#""type":"input_accepted","accepted":true,"disposition":"queued""#,
        10,
    );
    assert_eq!(c.next_deadline(), Some(10 + STALL_GRACE_MS));
    assert!(!c.take_resume_queue());
    let mut fired = Vec::new();
    while let Some(at) = c.next_deadline() {
        c.on_tick(at);
        if c.take_resume_queue() {
            fired.push(at);
        }
        assert!(fired.len() <= MAX_RESUME_ATTEMPTS as usize);
    }
    assert_eq!(fired.len(), MAX_RESUME_ATTEMPTS as usize);
    assert_eq!(fired[0], 10 + STALL_GRACE_MS);
    assert_eq!(fired[1] - fired[0], 2 * STALL_GRACE_MS, "backoff doubles");
    assert!(
        c.has_in_flight_turn(),
        "the turn still waits; its input was never re-sent"
    );
}

#[test]
fn a_busy_server_is_not_a_stall_and_a_dequeue_disarms_the_watch() {
    let mut c = coordinator();
    feed(
        &mut c,
        r#""type":"update_loop_status","loop_status":{"status":"PROCESSING_API_RESPONSE","active_run_ids":["run-old"]}"#,
        0,
    );
    c.track_sent_turn(1, "cm-new".into(), None);
    feed(
        &mut c,
        r#""type":"input_accepted","accepted":true,"disposition":"queued""#,
        2,
    );
    assert_eq!(
        c.next_deadline(),
        None,
        "waiting behind a running turn is no stall"
    );
    feed(&mut c, &finished("run-old", "end_turn"), 3);
    assert_eq!(
        c.next_deadline(),
        Some(3 + STALL_GRACE_MS),
        "idle now: watch armed"
    );
    feed(
        &mut c,
        r#""type":"update_queue","queue":[],"removed":[{"client_message_id":"cm-new","disposition":"dequeued"}]"#,
        4,
    );
    assert_eq!(c.next_deadline(), None);
}

/// `update_loop_status` naming `run` as the run of `ids`.
fn run_serves(run: &str, ids: &[&str]) -> String {
    let listed = ids
        .iter()
        .map(|id| ["\"", id, "\""].concat())
        .collect::<Vec<_>>()
        .join(",");
    [
        r#""type":"update_loop_status","loop_status":{"status":"PROCESSING_API_RESPONSE","active_run_ids":[""#,
        run,
        r#""],"client_message_ids_by_run_id":{""#,
        run,
        r#"":["#,
        &listed,
        "]}}",
    ]
    .concat()
}

#[test]
fn a_run_that_serves_several_of_our_inputs_ends_each_of_them() {
    // No `update_queue` at all: the run map alone says the run carries all three.
    let mut c = coordinator();
    for id in ["cm-1", "cm-2", "cm-3"] {
        c.track_sent_turn(0, id.into(), None);
    }
    feed(&mut c, &run_serves("run-b", &["cm-1", "cm-2", "cm-3"]), 10);
    feed(&mut c, &assistant("run-b", "all three"), 20);
    feed(&mut c, &finished("run-b", "end_turn"), 30);
    c.on_tick(5_000);
    let results = results(&mut c);
    assert_eq!(results.len(), 3, "one result per input");
    for (index, result) in results.iter().enumerate() {
        assert!(result.success);
        assert_eq!(result.run_ids, vec!["run-b".to_owned()]);
        assert_eq!(result.result.as_deref(), Some("all three"));
        let batch = result.batch.as_ref().expect("names its batch");
        assert_eq!(
            (batch.id.as_str(), batch.index, batch.size),
            ("run-b", index, 3)
        );
    }
    assert!(!c.has_in_flight_turn());
}

#[test]
fn inputs_dequeued_together_while_our_previous_turn_finishes_are_one_batch() {
    let mut c = coordinator();
    for id in ["cm-0", "cm-1", "cm-2"] {
        c.track_sent_turn(0, id.into(), None);
    }
    feed(&mut c, &run_serves("run-a", &["cm-0"]), 10);
    feed(&mut c, &assistant("run-a", "first"), 20);
    // `turn_finished` starts the first turn's grace; the next two are dequeued meanwhile.
    feed(&mut c, &finished("run-a", "end_turn"), 30);
    feed(
        &mut c,
        r#""type":"update_queue","queue":[],"removed":[{"client_message_id":"cm-1","disposition":"dequeued"},{"client_message_id":"cm-2","disposition":"dequeued"}]"#,
        40,
    );
    c.on_tick(1_000);
    feed(&mut c, &run_serves("run-b", &["cm-1", "cm-2"]), 1_010);
    feed(&mut c, &assistant("run-b", "second"), 1_020);
    feed(
        &mut c,
        r#""type":"turn_finished","turn_id":"batch-2","run_id":"run-b","stop_reason":"end_turn""#,
        1_030,
    );
    c.on_tick(20_000);
    c.on_tick(40_000);
    let results = results(&mut c);
    let seen: Vec<_> = results
        .iter()
        .map(|r| {
            (
                r.result.clone(),
                r.batch.as_ref().map(|b| (b.id.clone(), b.index)),
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            (Some("first".to_owned()), None),
            (Some("second".to_owned()), Some(("batch-2".to_owned(), 0))),
            (Some("second".to_owned()), Some(("batch-2".to_owned(), 1))),
        ]
    );
    assert!(!c.has_in_flight_turn());
}

/// The order of echoes and rows: `(type, text)` of each message.
fn echoes_and_text(c: &mut TurnCoordinator) -> Vec<(String, String)> {
    std::iter::from_fn(|| c.pop_message())
        .filter_map(|m| match m {
            SdkMessage::UserEcho(e) => Some(("user".to_owned(), e.content)),
            SdkMessage::Assistant(t) => Some(("assistant".to_owned(), t.content)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_chat_sees_each_input_when_its_turn_starts_and_a_batch_in_send_order() {
    let mut c = coordinator();
    c.track_echoed_turn(0, "cm-0".into(), None, "first".into());
    assert_eq!(
        echoes_and_text(&mut c),
        [("user".to_owned(), "first".to_owned())],
        "an input on an idle session starts at once"
    );
    feed(&mut c, &run_serves("run-a", &["cm-0"]), 10);
    c.track_echoed_turn(11, "cm-1".into(), None, "second".into());
    c.track_echoed_turn(12, "cm-2".into(), None, "third".into());
    feed(&mut c, &assistant("run-a", "answer one"), 20);
    assert_eq!(
        echoes_and_text(&mut c),
        [("assistant".to_owned(), "answer one".to_owned())],
        "queued inputs wait for their turn"
    );
    feed(&mut c, &finished("run-a", "end_turn"), 30);
    c.on_tick(2_000);
    feed(
        &mut c,
        r#""type":"update_queue","queue":[],"removed":[{"client_message_id":"cm-1","disposition":"dequeued"},{"client_message_id":"cm-2","disposition":"dequeued"}]"#,
        2_010,
    );
    feed(&mut c, &assistant("run-b", "answer two"), 2_020);
    assert_eq!(
        echoes_and_text(&mut c),
        [
            ("user".to_owned(), "second".to_owned()),
            ("user".to_owned(), "third".to_owned()),
            ("assistant".to_owned(), "answer two".to_owned()),
        ]
    );
}
