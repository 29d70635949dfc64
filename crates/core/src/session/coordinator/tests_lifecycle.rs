//! Timers and closing: request timeout, stream-tail grace (late-stream-tail.test.ts), close.

use super::tests::{results, Driver};
use super::{MAX_DEFERRED_FRAMES, STREAM_TAIL_GRACE_MS, TRAILING_USAGE_GRACE_MS};
use serde_json::json;

#[test]
fn request_timeout_fails_the_turn() {
    let mut d = Driver::new(|c| c.request_timeout_ms = Some(50));
    d.now = 10;
    d.send();
    assert_eq!(d.c.next_deadline(), Some(60));
    d.text("r1", "slow");
    d.advance(49);
    assert!(d.c.has_in_flight_turn());
    d.advance(1);
    let out = d.drain_content();
    assert_eq!(
        out[1],
        json!({"type":"error","message":"Timed out waiting for app-server turn","errorCode":"error",
            "recoverable":false,"errorDetail":"Timed out waiting for app-server turn","stopReason":"error"})
    );
    let result = &out[2];
    assert_eq!(result["error"], "Timed out waiting for app-server turn");
    assert_eq!(result["durationMs"], 50);
    assert_eq!(result["runIds"], json!(["r1"]));
    assert_eq!(d.c.next_deadline(), None);
}

#[test]
fn queued_turn_timer_starts_at_activation() {
    let mut d = Driver::new(|c| c.request_timeout_ms = Some(50));
    d.send();
    d.send();
    d.text("r1", "a");
    d.status("WAITING_ON_INPUT", &[]);
    assert_eq!(
        d.c.next_deadline(),
        None,
        "the queued turn is not active yet"
    );
    d.now = 100;
    d.text("r2", "b");
    assert_eq!(d.c.next_deadline(), Some(150));
}

#[test]
fn text_streamed_after_turn_finished_is_kept() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.text("r1", "Hello");
    d.finished("r1", "end_turn");
    assert_eq!(d.c.next_deadline(), Some(STREAM_TAIL_GRACE_MS));
    // An idle status overtaking the stream does not cut the reply.
    d.status("WAITING_ON_INPUT", &[]);
    d.advance(300);
    d.text("r1", " world");
    d.delta(json!({"message_type":"stop_reason","stop_reason":"end_turn","run_id":"r1"}));
    assert_eq!(d.c.next_deadline(), Some(300 + TRAILING_USAGE_GRACE_MS));
    d.delta(json!({"message_type":"usage_statistics","run_id":"r1"}));
    let out = d.drain_content();
    let result = results(&out)[0];
    assert_eq!(result["result"], "Hello world");
    assert_eq!(out.last().unwrap()["type"], "result");
}

#[test]
fn turn_settles_when_the_stream_stop_reason_never_arrives() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.text("r1", "x");
    d.finished("r1", "end_turn");
    d.advance(STREAM_TAIL_GRACE_MS - 1);
    assert!(d.c.has_in_flight_turn());
    d.advance(1);
    assert!(!d.c.has_in_flight_turn());
    assert_eq!(results(&d.drain())[0]["durationMs"], STREAM_TAIL_GRACE_MS);
}

#[test]
fn next_run_output_during_the_stream_tail_goes_to_the_next_turn() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.send();
    d.text("r1", "first");
    d.finished("r1", "end_turn");
    d.text("r2", "second");
    d.status("PROCESSING_API_RESPONSE", &["r2"]);
    d.text("r1", "!");
    d.delta(json!({"message_type":"stop_reason","stop_reason":"end_turn","run_id":"r1"}));
    d.delta(json!({"message_type":"usage_statistics","run_id":"r1"}));
    let out = d.drain();
    let kinds: Vec<_> = out.iter().map(|m| m["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "assistant",
            "assistant",
            "stream_event",
            "result",
            "assistant",
            "loop_status"
        ]
    );
    assert_eq!(out[3]["result"], "first!");
    assert_eq!(out[4]["content"], "second");
    d.status("WAITING_ON_INPUT", &[]);
    assert_eq!(results(&d.drain())[0]["result"], "second");
}

#[test]
fn deferral_is_bounded() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.send();
    d.text("r1", "a");
    d.delta(json!({"message_type":"stop_reason","stop_reason":"end_turn","run_id":"r1"}));
    d.finished("r1", "end_turn");
    for _ in 0..MAX_DEFERRED_FRAMES {
        d.text("r2", "b");
    }
    assert!(d.c.has_in_flight_turn());
    assert_eq!(d.drain().len(), 1, "only the first turn's text so far");
    // One more frame overflows the bound: the finishing turn settles, the backlog replays.
    d.text("r2", "c");
    let out = d.drain();
    assert_eq!(out[0]["type"], "result");
    assert_eq!(out[0]["result"], "a");
    assert_eq!(out.len(), 1 + MAX_DEFERRED_FRAMES + 1);
    assert_eq!(out.last().unwrap()["content"], "c");
}

#[test]
fn close_with_error_when_idle_emits_only_the_error() {
    let mut d = Driver::new(|_| {});
    d.c.close_transport_dropped(5);
    let out = d.drain();
    let detail =
        "The app-server connection closed unexpectedly; resume the conversation to continue.";
    assert_eq!(
        out,
        vec![
            json!({"type":"error","message":detail,"errorCode":"stream_closed","recoverable":true,
            "errorDetail":detail,"stopReason":"stream_closed"})
        ]
    );
    assert!(d.c.is_closed());
    d.send();
    assert!(
        !d.c.has_in_flight_turn(),
        "closed coordinators track nothing"
    );
}

#[test]
fn close_with_error_drops_queued_turns_and_closes() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.send();
    d.text("r1", "p");
    d.c.close_with_error("gone", 9);
    assert!(!d.c.is_closed(), "messages are still queued");
    assert!(d.c.close_requested());
    let out = d.drain();
    assert_eq!(out.len(), 3);
    assert_eq!(out[2]["errorDetail"], "gone");
    assert_eq!(out[2]["durationMs"], 9);
    assert!(d.c.is_closed());
    assert!(!d.c.has_in_flight_turn());
    d.text("r1", "ignored");
    assert!(d.drain().is_empty());
    assert_eq!(d.c.next_deadline(), None);
}

#[test]
fn plain_close_completes_pending_terminals_only() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.text("r1", "done");
    d.delta(json!({"message_type":"stop_reason","stop_reason":"end_turn","run_id":"r1"}));
    d.c.close(1);
    let out = d.drain();
    assert_eq!(results(&out)[0]["result"], "done");
    let mut d = Driver::new(|_| {});
    d.send();
    d.text("r1", "partial");
    d.c.close(1);
    assert_eq!(results(&d.drain()).len(), 0);
}
