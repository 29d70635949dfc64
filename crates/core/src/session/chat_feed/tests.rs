//! The recorded real turn (`tests/captures/real-app-server-turn.jsonl`) through two sessions:
//! one feeding its transcript directly, one whose messages go through JSON into an accumulator
//! as `stream()` + `applyMany` do. The rows must be the same, plus the chat's own user row.

use super::super::core::tests::{config, effects};
use super::*;
use crate::json::Object;
use crate::session::{Effect, Target};

const CAPTURE: &str = include_str!("../../../../../tests/captures/real-app-server-turn.jsonl");
const OTID: &str = "otid-chat-1";

/// The recorded frames as `(t_ms, dir, frame JSON)`.
fn capture() -> Vec<(u64, String, String)> {
    CAPTURE
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let line = Object::parse(line).expect("capture line");
            let t = line.f64("t_ms").expect("t_ms") as u64;
            let dir = line.get("dir").as_str().expect("dir").to_owned();
            let frame = crate::json::to_string(line.object("frame").expect("frame"));
            (t, dir, frame)
        })
        .collect()
}

/// A session on the capture's runtime, started from its recorded `runtime_start_response`.
fn session(frames: &[(u64, String, String)], echo: bool) -> SessionCore {
    let mut core = SessionCore::new(config(
        Target::NewConversation {
            agent_id: "agent".into(),
        },
        r#"{"hasCanUseTool":true,"reconnect":false}"#,
    ));
    core.set_echo_inputs(echo);
    core.begin(1, 0);
    core.on_open(0);
    let sent = super::super::core::tests::writes(&effects(&mut core));
    let request_id = sent[0]["request_id"].as_str().unwrap().to_owned();
    let (t, _, response) = frames
        .iter()
        .find(|(_, dir, f)| dir == "recv" && f.contains("\"runtime_start_response\""))
        .expect("the recorded start");
    let response = response.replacen("\"start-3\"", &format!("\"{request_id}\""), 1);
    core.on_frame(&response, *t);
    effects(&mut core);
    assert!(core.is_ready());
    core
}

/// Runs the capture's turn through `core`; `take` is called after every step.
fn run(
    frames: &[(u64, String, String)],
    core: &mut SessionCore,
    mut take: impl FnMut(&mut SessionCore),
) {
    let mut started = false;
    for (t, dir, frame) in frames {
        if frame.contains("\"runtime_start_response\"") {
            started = true;
            continue;
        }
        if !started {
            continue;
        }
        core.on_tick(*t);
        match dir.as_str() {
            "recv" => core.on_frame(frame, *t),
            "send" if frame.contains("\"create_message\"") => {
                let content =
                    r#""Please run `echo hello && touch probe.txt` and tell me what it printed.""#;
                core.send(content, Some(OTID), *t).unwrap();
            }
            _ => {}
        }
        for effect in effects(core) {
            if let Effect::AskApproval { handle, .. } = effect {
                core.answer_approval(handle, r#"{"behavior":"allow"}"#);
            }
        }
        take(core);
    }
    while let Some(deadline) = core.next_deadline() {
        core.on_tick(deadline);
        effects(core);
        take(core);
    }
}

#[test]
fn a_fed_transcript_has_the_rows_of_stream_and_apply_plus_the_users_own() {
    let frames = capture();
    let mut fed = TranscriptAccumulator::new();
    let mut chat_messages = Vec::new();
    let mut chat = session(&frames, true);
    run(&frames, &mut chat, |core| {
        let out = core.feed_transcript(&mut fed);
        if let Some(json) = out.messages {
            chat_messages.extend(serde_json::from_str::<Vec<serde_json::Value>>(&json).unwrap());
        }
    });
    let mut applied = TranscriptAccumulator::new();
    let mut streamed = Vec::new();
    let mut plain = session(&frames, false);
    run(&frames, &mut plain, |core| {
        if let Some(json) = core.take_messages_json() {
            applied.apply_many_json(&json);
            streamed.extend(serde_json::from_str::<Vec<serde_json::Value>>(&json).unwrap());
        }
    });

    let fed_rows: Vec<serde_json::Value> = serde_json::from_str(&fed.rows_json()).unwrap();
    let applied_rows: Vec<serde_json::Value> = serde_json::from_str(&applied.rows_json()).unwrap();
    assert!(
        applied_rows.len() >= 4,
        "the turn has rows: {applied_rows:?}"
    );
    assert_eq!(fed_rows[0]["key"], format!("user:otid:{OTID}"));
    assert_eq!(fed_rows[0]["kind"], "user");
    assert_eq!(
        fed_rows[0]["text"],
        "Please run `echo hello && touch probe.txt` and tell me what it printed."
    );
    assert_eq!(
        fed_rows[1..],
        applied_rows[..],
        "the same rows, in the same order"
    );
    // The chat got exactly the stream's messages that are no rows.
    let chat_types = ["result", "error", "retry", "queue_update", "loop_status"];
    let expected: Vec<_> = streamed
        .into_iter()
        .filter(|m| chat_types.contains(&m["type"].as_str().unwrap()))
        .collect();
    assert!(expected.iter().any(|m| m["type"] == "result"));
    assert_eq!(chat_messages, expected);
}

#[test]
fn without_echo_nothing_new_is_in_the_stream() {
    let frames = capture();
    let mut plain = session(&frames, false);
    let mut types = Vec::new();
    run(&frames, &mut plain, |core| {
        while let Some(json) = core.pop_message() {
            let message: serde_json::Value = serde_json::from_str(&json).unwrap();
            types.push(message["type"].as_str().unwrap().to_owned());
        }
    });
    assert!(!types.iter().any(|t| t == "user"), "{types:?}");
    assert!(types.iter().any(|t| t == "result"));
}
