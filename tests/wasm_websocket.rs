//! Runs in headless Chromium: the session driver opens the browser's own `WebSocket` from Rust
//! against a loopback server that replays the recorded app-server turn
//! (tests/wasm_ws_server/server.mjs, started by scripts/test, which passes its URL at compile
//! time as `LETTA_TEST_WS_URL`), and completes a turn: commands written, answers and the turn's
//! frames read, the approval answered, then the session closed. A server-side close is handled,
//! and a holding socket (a session's standby) keeps its stream frames uncopied until taken, the
//! newest of them when it receives more than it holds.
#![cfg(target_arch = "wasm32")]

use futures::channel::{mpsc, oneshot};
use futures::StreamExt;
use letta_agent_wasm::session::{read_session_config, Effect, SessionConfig, SessionCore};
use letta_agent_wasm::transport::driver::{Driver, Event};
use letta_agent_wasm::transport::socket::{frame_text, Dialer, SocketEvent};
use letta_agent_wasm::transport::timer::Timer;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// The loopback server's URL: required (scripts/test sets it; without it the tests fail, on
/// purpose: a missing server must not pass as a skipped test).
#[allow(clippy::option_env_unwrap)]
fn server_url() -> &'static str {
    option_env!("LETTA_TEST_WS_URL")
        .expect("LETTA_TEST_WS_URL: the URL of tests/wasm_ws_server (scripts/test starts it)")
}

/// A driver for a session on the recorded agent, and the receiver of its events.
fn session() -> (Driver, mpsc::UnboundedReceiver<Event>) {
    let setup = read_session_config(
        r#"{"requestTimeoutMs":5000,"target":{"kind":"resumeAgent","agentId":"agent-local-e1a4e989-2374-413e-bcc8-20d6da312446"},"options":{"hasCanUseTool":true}}"#,
    )
    .expect("a valid configuration");
    let core = SessionCore::new(SessionConfig {
        label: "app-server",
        request_timeout_ms: setup.request_timeout_ms,
        options: setup.options,
        target: setup.target,
        nonce: "browser1".to_owned(),
    });
    let (events, received) = mpsc::unbounded();
    let driver = Driver::new(core, move |event| {
        let _ = events.unbounded_send(event);
    });
    (driver, received)
}

#[wasm_bindgen_test]
async fn a_turn_over_the_browser_websocket() {
    let (driver, mut events) = session();
    driver.run(|core, now| core.begin(1, now));
    driver.connect(&format!("{}/ws", server_url()), None, None);

    let mut messages = Vec::new();
    let mut started = false;
    let mut approvals = 0;
    while let Some(event) = events.next().await {
        match event {
            Event::Effect(Effect::Complete { call: 1, result }) => {
                result.expect("the session starts");
                started = true;
                driver
                    .run(|core, now| core.send(r#""Please run it""#, None, now))
                    .expect("the turn is written");
            }
            Event::Effect(Effect::AskApproval { handle, .. }) => {
                approvals += 1;
                driver.run(|core, _| core.answer_approval(handle, r#"{"behavior":"allow"}"#));
            }
            Event::Effect(other) => panic!("unexpected effect {other:?}"),
            #[cfg(feature = "cloud")]
            Event::CloudSettled { call, .. } => {
                panic!("a remote session settled Cloud call {call}")
            }
            Event::Pumped => {
                messages.extend(std::iter::from_fn(|| driver.with_core(|c| c.pop_message())));
                if messages.iter().any(|m| m.contains(r#""type":"result""#)) {
                    break;
                }
            }
        }
    }
    assert!(started, "the start call was settled");
    assert_eq!(approvals, 1, "the recorded turn asks for one approval");
    assert!(
        messages.iter().any(|m| m.contains(r#""type":"assistant""#)),
        "{messages:?}"
    );
    let result = messages.iter().find(|m| m.contains(r#""type":"result""#));
    assert!(
        result.is_some_and(|r| r.contains(r#""success":true"#)),
        "{result:?}"
    );

    driver.shut_down();
    assert!(driver.with_core(|core| core.is_closed() && core.stream_ended()));
}

#[wasm_bindgen_test]
async fn a_close_by_the_server_fails_the_start() {
    let (driver, mut events) = session();
    driver.run(|core, now| core.begin(1, now));
    driver.connect(&format!("{}/close", server_url()), None, None);
    let error = loop {
        match events
            .next()
            .await
            .expect("the driver reports the start's end")
        {
            Event::Effect(Effect::Complete { call: 1, result }) => {
                break result.expect_err("the socket closed before the start finished")
            }
            _ => continue,
        }
    };
    assert!(!error.message.is_empty());
    assert!(driver.with_core(|core| core.is_closed() && core.stream_ended()));
}

/// The recording the server replays (tests/captures), for the frames it sends.
const CAPTURE: &str = include_str!("captures/real-app-server-turn.jsonl");

/// Resolves after `ms` milliseconds (on the transport's own timer).
async fn sleep(ms: f64) {
    let (done, fired) = oneshot::channel();
    let mut done = Some(done);
    let mut timer = Timer::new(move || {
        if let Some(done) = done.take() {
            let _ = done.send(());
        }
    });
    timer.arm(ms);
    let _ = fired.await;
}

#[wasm_bindgen_test]
async fn a_holding_socket_keeps_only_its_stream_frames_until_they_are_taken() {
    // The recorded frames between the user input and the approval that are stream frames.
    let turn_start = CAPTURE
        .find(r#""kind":"create_message""#)
        .expect("the recorded input");
    let approval = CAPTURE
        .find(r#""kind":"approval_response""#)
        .expect("the recorded approval");
    let stream_frames = CAPTURE[turn_start..approval]
        .matches(r#""dir":"recv","frame":{"type":"stream_delta""#)
        .count();
    assert!(stream_frames > 0);

    let (events, mut received) = mpsc::unbounded();
    let url = format!("{}/ws", server_url());
    let skip_status = Rc::new(Cell::new(true));
    let socket = Dialer::app_server(&url, None, None)
        .connect(skip_status, move |event| {
            let _ = events.unbounded_send(event);
        })
        .expect("the socket is constructed");
    assert_eq!(received.next().await, Some(SocketEvent::Open));

    socket.hold_stream_frames(true);
    socket.send(r#"{"type":"input","request_id":"held-1","payload":{"kind":"create_message"}}"#);
    sleep(500.0).await;
    let held = socket.take_held();
    let texts: Vec<String> = held.iter().filter_map(frame_text).collect();
    assert_eq!(texts.len(), stream_frames, "{texts:?}");
    assert!(texts
        .iter()
        .all(|t| t.starts_with(r#"{"type":"stream_delta""#)));
    // Nothing was reported while holding: the answer, the statuses and the approval request
    // were dropped.
    assert!(received.try_recv().is_err(), "an event while holding");
    assert!(socket.take_held().is_empty(), "taken frames are gone");

    // No longer holding: every frame is reported again, through the turn's end.
    socket.hold_stream_frames(false);
    socket.send(r#"{"type":"input","payload":{"kind":"approval_response"}}"#);
    let mut frames = 0;
    loop {
        match received.next().await {
            Some(SocketEvent::Frame(text)) if text.contains(r#""type":"turn_finished""#) => break,
            Some(SocketEvent::Frame(_)) => frames += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(frames > 0);
    assert!(socket.take_held().is_empty());
}

/// A WebSocket constructor whose socket (a page `EventTarget`, also `globalThis.fakeSocket`) is
/// open at once, writes nowhere, and dispatches each text given to its `deliver` method as a
/// message event.
fn fake_socket_constructor() -> js_sys::Function {
    js_sys::Function::new_no_args(
        "const socket = new EventTarget();
         socket.readyState = 1;
         socket.send = () => {};
         socket.close = () => {};
         socket.deliver = (data) => socket.dispatchEvent(new MessageEvent('message', { data }));
         globalThis.fakeSocket = socket;
         return socket;",
    )
}

#[wasm_bindgen_test]
fn a_full_hold_keeps_the_newest_stream_frames_in_order() {
    let constructor = fake_socket_constructor();
    let socket = Dialer::app_server("ws://fake.invalid/ws", Some(&constructor), None)
        .connect(Rc::new(Cell::new(false)), |event| {
            panic!("an event while holding: {event:?}")
        })
        .expect("the socket is constructed");
    let fake = js_sys::Reflect::get(&js_sys::global(), &"fakeSocket".into()).expect("the socket");
    let deliver: js_sys::Function = js_sys::Reflect::get(&fake, &"deliver".into())
        .expect("deliver")
        .into();

    // Many more messages than the hold keeps (256); two in three are stream frames.
    socket.hold_stream_frames(true);
    let mut stream_frames = Vec::new();
    for n in 0..1000 {
        let text = if n % 3 == 0 {
            format!(r#"{{"type":"update_loop_status","n":{n}}}"#)
        } else {
            stream_frames.push(n);
            format!(r#"{{"type":"stream_delta","n":{n}}}"#)
        };
        deliver.call1(&fake, &text.into()).expect("delivered");
    }
    let held: Vec<String> = socket.take_held().iter().filter_map(frame_text).collect();

    // What is held is the tail of the stream frames, in order: at least the newest 128 (half
    // of the hold), never more than the hold keeps.
    assert!((128..=256).contains(&held.len()), "{} held", held.len());
    let tail = &stream_frames[stream_frames.len() - held.len()..];
    let expected: Vec<String> = tail
        .iter()
        .map(|n| format!(r#"{{"type":"stream_delta","n":{n}}}"#))
        .collect();
    assert_eq!(held, expected);
    assert!(socket.take_held().is_empty(), "taken frames are gone");
}
