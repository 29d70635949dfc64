//! Replays the real recorded app-server turn (`tests/captures/real-app-server-turn.jsonl`)
//! through parse → coordinator and checks what a session stream would yield.

use super::{CoordinatorConfig, TurnCoordinator};
use crate::json::Object;
use crate::protocol::frames::{parse_frame, FrameBody};
use crate::protocol::runtime::Runtime;
use crate::protocol::sdk_message::SdkMessage;
use serde_json::Value;

const CAPTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/captures/real-app-server-turn.jsonl"
);

/// One capture line: `{t_ms, dir, frame}` (the frame written back as JSON text; the capture
/// holds `JSON.stringify` output, which this reproduces).
struct Line<'a> {
    t_ms: u64,
    dir: &'a str,
    frame: String,
}

impl<'a> Line<'a> {
    fn parse(text: &'a str) -> Line<'a> {
        let line = Object::parse(text).expect("capture line");
        let dir = match line.str("dir") {
            Some(std::borrow::Cow::Borrowed(dir)) => dir,
            _ => panic!("capture line dir"),
        };
        Line {
            t_ms: line.f64("t_ms").expect("t_ms") as u64,
            dir,
            frame: crate::json::to_string(line.object("frame").expect("frame")),
        }
    }
}

/// Drives the coordinator like a transport would: timers fire before each frame at its time,
/// and after the last frame the clock runs until no timer is left.
fn replay_capture() -> Vec<SdkMessage> {
    replay_capture_into().1
}

/// [`replay_capture`], with the coordinator and the time its clock stopped at.
fn replay_capture_into() -> (TurnCoordinator, Vec<SdkMessage>, u64) {
    let text = std::fs::read_to_string(CAPTURE).expect("capture file");
    let mut coordinator: Option<TurnCoordinator> = None;
    let mut out = Vec::new();
    let mut last_t = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let line = Line::parse(line);
        last_t = line.t_ms;
        let frame_text = line.frame.as_str();
        match line.dir {
            "recv" => {
                let frame = parse_frame(frame_text).expect("recorded frames are objects");
                if frame.frame_type == "runtime_start_response" {
                    let runtime = runtime_of(frame_text);
                    let mut config = CoordinatorConfig::new("app-server");
                    // The probe answered the approval request (a canUseTool path exists).
                    config.auto_handles_tool_approvals = true;
                    coordinator = Some(TurnCoordinator::new(config, runtime));
                    continue;
                }
                if let Some(c) = coordinator.as_mut() {
                    c.on_tick(line.t_ms);
                    c.handle_frame(&frame, line.t_ms);
                    out.extend(std::iter::from_fn(|| c.pop_message()));
                }
            }
            "send" => {
                let frame = parse_frame(frame_text).expect("sent frames are objects");
                let is_user_input = frame.frame_type == "input"
                    && frame_text.contains("\"kind\":\"create_message\"");
                if let (true, Some(c)) = (is_user_input, coordinator.as_mut()) {
                    c.track_sent_turn(line.t_ms, "sdk-message-1".into(), None);
                }
            }
            _ => {}
        }
    }
    let c = coordinator.as_mut().expect("runtime started");
    while let Some(deadline) = c.next_deadline() {
        last_t = last_t.max(deadline);
        c.on_tick(last_t);
    }
    out.extend(std::iter::from_fn(|| c.pop_message()));
    assert!(!c.has_in_flight_turn());
    (coordinator.expect("runtime started"), out, last_t)
}

fn runtime_of(frame_text: &str) -> Runtime {
    let value: Value = serde_json::from_str(frame_text).unwrap();
    Runtime::new(
        value["runtime"]["agent_id"].as_str().unwrap(),
        value["runtime"]["conversation_id"].as_str().unwrap(),
    )
}

fn json(message: &SdkMessage) -> Value {
    serde_json::from_str(&message.to_json()).unwrap()
}

#[test]
fn real_turn_yields_the_expected_stream() {
    let messages = replay_capture();
    // Loop status and queue updates interleave; the content sequence is what matters here.
    let content: Vec<Value> = messages
        .iter()
        .filter(|m| !matches!(m, SdkMessage::LoopStatus(_) | SdkMessage::QueueUpdate(_)))
        .map(json)
        .collect();
    let kinds: Vec<String> = content
        .iter()
        .map(|m| {
            let t = m["type"].as_str().unwrap();
            if t == "stream_event" {
                format!(
                    "event:{}",
                    m["event"]["message_type"].as_str().unwrap_or("?")
                )
            } else {
                t.to_owned()
            }
        })
        .collect();
    let mut expected: Vec<&str> = vec!["reasoning"; 9];
    expected.extend([
        "tool_call",
        "event:usage_statistics",
        "event:approval_classification_end",
        "event:client_tool_start",
        "tool_result",
        "event:client_tool_end",
        "tool_result",
    ]);
    expected.extend(["reasoning"; 4]);
    expected.extend(["assistant"; 3]);
    expected.extend(["event:usage_statistics", "result"]);
    assert_eq!(kinds, expected);

    let call = content.iter().find(|m| m["type"] == "tool_call").unwrap();
    assert_eq!(call["toolName"], "Bash");
    assert_eq!(call["toolCallId"], "call_fake_1");
    assert_eq!(
        call["toolInput"]["command"],
        "echo hello && touch probe.txt"
    );
    assert!(call["rawArguments"]
        .as_str()
        .unwrap()
        .starts_with("{\"command\""));
    assert_eq!(call["runId"], "local-run-1");

    let results: Vec<&Value> = content
        .iter()
        .filter(|m| m["type"] == "tool_result")
        .collect();
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|r| r["toolCallId"] == "call_fake_1"));
    assert!(results.iter().all(|r| r["isError"] == false));
    assert_eq!(results[0]["content"], "hello");
    assert_eq!(results[1]["content"], "hello\n");

    let first_reasoning = &content[0];
    assert_eq!(first_reasoning["uuid"], "ui-msg-2:reasoning:0");
    assert_eq!(first_reasoning["seqId"], 1);
    assert_eq!(first_reasoning["runId"], "local-run-1");

    let last = content.last().unwrap();
    assert_eq!(last["type"], "result");
    assert_eq!(last["success"], true);
    assert_eq!(last["stopReason"], "end_turn");
    assert_eq!(last["result"], "The command printed: hello. Done.");
    assert_eq!(last["conversationId"], "local-conv-1");
    assert_eq!(
        last["runIds"],
        serde_json::json!(["local-run-1", "local-run-2"])
    );
    assert!(last.get("error").is_none() && last.get("recoverable").is_none());
    // The usage of run 2 preceded turn_finished, so the result needs no trailing grace.
    assert_eq!(last["durationMs"], 1911 - 859);
    assert_eq!(
        messages
            .iter()
            .filter(|m| matches!(m, SdkMessage::Result(_)))
            .count(),
        1
    );
    assert!(matches!(messages.last(), Some(SdkMessage::Result(_))));
}

#[test]
fn without_an_approval_path_the_real_turn_ends_as_an_approval_conflict() {
    let text = std::fs::read_to_string(CAPTURE).expect("capture file");
    let mut coordinator: Option<TurnCoordinator> = None;
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let line = Line::parse(line);
        let frame = parse_frame(line.frame.as_str());
        match (line.dir, frame) {
            ("recv", Some(frame)) if frame.frame_type == "runtime_start_response" => {
                coordinator = Some(TurnCoordinator::new(
                    CoordinatorConfig::new("app-server"),
                    runtime_of(line.frame.as_str()),
                ));
            }
            ("recv", Some(frame)) => {
                if let Some(c) = coordinator.as_mut() {
                    c.handle_frame(&frame, line.t_ms);
                    out.extend(std::iter::from_fn(|| c.pop_message()));
                }
            }
            ("send", Some(frame)) if frame.frame_type == "input" => {
                let user_input = line.frame.as_str().contains("create_message");
                if let (true, Some(c)) = (user_input, coordinator.as_mut()) {
                    c.track_sent_turn(line.t_ms, "m".into(), None);
                }
            }
            _ => {}
        }
    }
    let results: Vec<Value> = out
        .iter()
        .filter(|m| matches!(m, SdkMessage::Result(_)))
        .map(json)
        .collect();
    // WAITING_ON_APPROVAL after evidence ends the turn; run 2 then has no turn, so its
    // `turn_finished` is an orphan: a standalone result with durationMs 0.
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["success"], false);
    assert_eq!(results[0]["errorCode"], "approval_conflict");
    assert_eq!(results[0]["stopReason"], "requires_approval");
    assert_eq!(results[0]["recoverable"], true);
    assert_eq!(results[0]["runIds"], serde_json::json!(["local-run-1"]));
    assert_eq!(results[1]["success"], true);
    assert_eq!(results[1]["durationMs"], 0);
    assert_eq!(results[1]["runIds"], serde_json::json!(["local-run-2"]));
    assert_eq!(results[1]["conversationId"], "local-conv-1");
    assert!(results[1].get("result").is_none());
}

#[test]
fn device_status_frames_are_skipped_by_default_and_project_on_demand() {
    use crate::protocol::frames::{parse_frame_with, FrameKind, ParseOptions};
    let text = std::fs::read_to_string(CAPTURE).expect("capture file");
    let mut projected = 0;
    for line in text.lines().filter(|l| l.contains("update_device_status")) {
        let line = Line::parse(line);
        let skipped = parse_frame(line.frame.as_str()).unwrap();
        assert_eq!(skipped.kind, FrameKind::UpdateDeviceStatus);
        assert!(matches!(skipped.body, FrameBody::Skipped));
        let full = parse_frame_with(
            line.frame.as_str(),
            ParseOptions {
                device_status: true,
            },
        )
        .unwrap();
        let FrameBody::DeviceStatus(status) = full.body else {
            panic!("device status body");
        };
        let status = status.project().expect("valid device status");
        assert!(status.is_online);
        assert_eq!(status.permission_mode, "standard");
        assert_eq!(status.working_directory.as_deref(), Some("$PEER_DIR/work"));
        projected += 1;
    }
    assert!(projected >= 5);
}

#[test]
fn truncated_and_mutated_real_frames_never_panic() {
    use crate::protocol::frames::{parse_frame_with, ParseOptions};
    let text = std::fs::read_to_string(CAPTURE).expect("capture file");
    let frames: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let line = Line::parse(l);
            line.frame.as_str().to_owned()
        })
        .collect();
    let mut c = TurnCoordinator::new(
        CoordinatorConfig::new("app-server"),
        Runtime::new(
            "agent-local-e1a4e989-2374-413e-bcc8-20d6da312446",
            "local-conv-1",
        ),
    );
    c.track_sent_turn(0, "m".into(), None);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let options = ParseOptions {
        device_status: true,
    };
    for (i, frame) in frames.iter().enumerate() {
        let bytes = frame.as_bytes();
        for cut in (0..bytes.len()).step_by(1 + bytes.len() / 64) {
            if let Ok(prefix) = std::str::from_utf8(&bytes[..cut]) {
                c.handle_text(prefix, i as u64);
                if let Some(parsed) = parse_frame_with(prefix, options) {
                    if let FrameBody::DeviceStatus(status) = parsed.body {
                        let _ = status.project();
                    }
                }
            }
        }
        for _ in 0..32 {
            let mut mutated = bytes.to_vec();
            for _ in 0..3 {
                let at = (next() as usize) % mutated.len();
                mutated[at] = b"{}[]\":,0n\\ a"[(next() % 12) as usize];
            }
            if let Ok(text) = String::from_utf8(mutated) {
                c.handle_text(&text, i as u64);
                if let Some(parsed) = parse_frame_with(&text, options) {
                    if let FrameBody::DeviceStatus(status) = parsed.body {
                        let _ = status.project();
                    }
                }
            }
        }
        c.on_tick(i as u64 * 10);
        while let Some(message) = c.pop_message() {
            let _ = message.to_json();
        }
    }
    c.close_transport_dropped(10_000);
    while c.pop_message().is_some() {}
    assert!(c.is_closed());
}

#[test]
fn the_real_approval_turn_leaves_no_run_unfinished_and_opens_the_pump_window() {
    let (coordinator, messages, stopped_at) = replay_capture_into();
    let result = messages
        .iter()
        .map(json)
        .find(|m| m["type"] == "result")
        .expect("a result");
    assert_eq!(
        result["runIds"],
        serde_json::json!(["local-run-1", "local-run-2"])
    );
    assert!(
        !coordinator.is_settling(),
        "the turn's one turn_finished (run 2) ends run 1 too: nothing for a close to wait on"
    );
    let window = coordinator
        .approval_pump_window()
        .expect("the turn paused for an approval");
    assert!(window > stopped_at.saturating_sub(super::APPROVAL_PUMP_WINDOW_MS));
    assert!(window <= stopped_at + super::APPROVAL_PUMP_WINDOW_MS);
}
