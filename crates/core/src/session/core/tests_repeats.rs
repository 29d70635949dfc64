//! Repeated broadcast frames (issue 11): a relay or proxy that delivers a frame twice changes
//! nothing a session yields or writes; frames without broadcast ids are never dropped.

use super::tests::{effects, started, writes, RUNTIME};
use super::*;

/// `frame` as the app server broadcasts it: `event_seq`, `emitted_at` and `idempotency_key`
/// appended last (letta-code 0.32.18 `emitProtocolV2Message`).
fn stamped(frame: &str, seq: u64) -> String {
    let frame = frame.replace("RT", RUNTIME);
    let kind = crate::protocol::peek_frame_type(&frame)
        .unwrap()
        .into_owned();
    let body = frame.strip_suffix('}').unwrap();
    format!(
        r#"{body},"event_seq":{seq},"emitted_at":"2026-11-30T15:22:03.{seq:03}Z","idempotency_key":"{kind}:{seq}:00000000-0000-4000-8000-{seq:012}"}}"#
    )
}

const TURN: [&str; 5] = [
    r#"{"type":"update_loop_status","loop_status":{"status":"PROCESSING_API_RESPONSE","active_run_ids":["run-1"]},"runtime":RT}"#,
    r#"{"type":"stream_delta","delta":{"id":"m1","message_type":"assistant_message","content":[{"type":"text","text":"Hi"}],"run_id":"run-1","seq_id":1},"runtime":RT}"#,
    r#"{"type":"stream_delta","delta":{"id":"m1","message_type":"assistant_message","content":[{"type":"text","text":" there"}],"run_id":"run-1","seq_id":2},"runtime":RT}"#,
    r#"{"type":"stream_delta","delta":{"message_type":"stop_reason","stop_reason":"end_turn","run_id":"run-1","seq_id":3},"runtime":RT}"#,
    r#"{"type":"turn_finished","turn_id":"t","stop_reason":"end_turn","run_id":"run-1","runtime":RT}"#,
];

/// Sends one message, feeds `frames` and returns every message the stream yields.
fn run_turn(frames: &[String]) -> Vec<serde_json::Value> {
    // One socket: the per-socket filter alone (the content keys of `reconnect` are off).
    let mut core = started(r#"{"reconnect":false}"#);
    core.send(r#""hello""#, Some("otid-1"), 10).unwrap();
    effects(&mut core);
    for frame in frames {
        core.on_frame(frame, 20);
    }
    while let Some(deadline) = core.next_deadline() {
        core.on_tick(deadline);
        if !core.has_in_flight_turn() {
            break;
        }
    }
    std::iter::from_fn(|| core.pop_message())
        .map(|m| serde_json::from_str(&m).unwrap())
        .collect()
}

#[test]
fn every_broadcast_frame_twice_yields_what_once_does() {
    let once: Vec<String> = (1..).zip(TURN).map(|(seq, f)| stamped(f, seq)).collect();
    let twice: Vec<String> = once.iter().flat_map(|f| [f.clone(), f.clone()]).collect();
    let clean = run_turn(&once);
    assert_eq!(
        clean
            .iter()
            .map(|m| m["type"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["loop_status", "assistant", "assistant", "result"]
    );
    assert_eq!(clean.last().unwrap()["result"], "Hi there");
    assert_eq!(run_turn(&twice), clean);
    // A repeat that arrives much later (after other frames) is dropped as well.
    let mut late = once.clone();
    late.insert(3, once[1].clone());
    assert_eq!(run_turn(&late), clean);
}

#[test]
fn without_the_filter_a_repeated_delta_would_be_yielded_twice() {
    // The same frames with no broadcast ids (as responses are) go through every time: this is
    // what the filter prevents for stamped frames.
    let plain: Vec<String> = TURN.iter().map(|f| f.replace("RT", RUNTIME)).collect();
    let mut doubled = plain.clone();
    doubled.insert(2, plain[1].clone());
    let messages = run_turn(&doubled);
    let texts: Vec<&str> = messages
        .iter()
        .filter(|m| m["type"] == "assistant")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Hi", "Hi", " there"]);
}

#[test]
fn a_garbled_copy_never_hides_the_real_frame() {
    let once: Vec<String> = (1..).zip(TURN).map(|(seq, f)| stamped(f, seq)).collect();
    let clean = run_turn(&once);
    // Same tail (same key and event_seq), unparsable body, delivered before each real frame.
    let garbled: Vec<String> = once
        .iter()
        .flat_map(|f| [f.replacen("{\"type\"", "{\"type\"::", 1), f.clone()])
        .collect();
    assert_eq!(run_turn(&garbled), clean);
}

#[test]
fn a_repeated_approval_request_is_dropped_and_a_re_emitted_one_is_answered_again() {
    let mut core = started(r#"{"hasCanUseTool":true}"#);
    let request = r#"{"type":"control_request","request_id":"perm-call_1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"touch x"},"tool_call_id":"call_1"},"runtime":RT}"#;
    core.on_frame(&stamped(request, 7), 1);
    let asked = effects(&mut core);
    let Some(Effect::AskApproval { handle, .. }) = asked.first().cloned() else {
        panic!("expected an approval request, got {asked:?}");
    };
    core.answer_approval(handle, r#"{"behavior":"allow"}"#);
    let reply = writes(&effects(&mut core)).remove(0);
    assert_eq!(reply["payload"]["kind"], "approval_response");
    core.on_frame(&stamped(request, 7), 2);
    assert!(effects(&mut core).is_empty(), "the repeat is dropped");
    // The server asking again (a new event_seq and key) gets the cached decision re-sent.
    core.on_frame(&stamped(request, 8), 3);
    assert_eq!(
        writes(&effects(&mut core)).remove(0)["payload"],
        reply["payload"]
    );
}
