//! The session core and its turn coordinator: random frame sequences, clock ticks and API
//! calls, decoded from the fuzz input, one operation per line:
//!   `F<frame>` a frame from the socket        `T<ms>` the clock moves on, timers fire
//!   `W` the clock jumps to the next deadline  `S<text>` send()      `A` abort()
//!   `L` listMessages()   `Q<id>` removeQueuedMessage()   `D` toggle device-status listening
//!   `Y` / `N` answer the oldest approval (allow / deny)  `R` finish the oldest SDK tool call
//!   `C` close()          `X` the transport closed
//!   `O` the standby opened   `G<frame>` a frame on the standby   `K` the standby closed
//!   `B` a call (re)starts the session (`begin`, as a reopen does)   `P` the primary opened
//!   `E` the primary failed to open
//! The session starts like a real one (runtime_start answered) before the first line. Nothing
//! may panic; every message for stream() must be valid JSON; after timers fired at `now`, the
//! next deadline lies in the future (a deadline that stays due would spin the driver).
#![no_main]

use letta_core::json::Object;
use letta_core::session::{Effect, SessionConfig, SessionCore, SessionOptions, Target};
use libfuzzer_sys::fuzz_target;
use std::collections::VecDeque;

const RUNTIME: &str = r#"{"agent_id":"agent-1","conversation_id":"conv-1"}"#;

/// A session started on `agent-1` / `conv-1` with a canUseTool callback and one SDK tool.
fn started() -> SessionCore {
    let options = r#"{"hasCanUseTool":true,"externalTools":[{"name":"lookup","description":"d","parameters":{"type":"object"}}]}"#;
    let mut core = SessionCore::new(SessionConfig {
        label: "app-server",
        request_timeout_ms: Some(5_000),
        options: SessionOptions::read(&Object::parse(options).unwrap_or_default()),
        target: Target::NewConversation {
            agent_id: "agent-1".into(),
        },
        nonce: "fuzz".into(),
    });
    core.begin(0, 0);
    core.on_open(0);
    let mut request_id = String::new();
    while let Some(effect) = core.pop_effect() {
        if let Effect::Write(text) = effect {
            let value: serde_json::Value =
                serde_json::from_str(&text).expect("valid frame written");
            request_id = value["request_id"].as_str().unwrap_or_default().to_owned();
        }
    }
    core.on_frame(
        &format!(
            r#"{{"type":"runtime_start_response","request_id":"{request_id}","success":true,"runtime":{RUNTIME},"agent":{{"id":"agent-1","model":"m","tools":["Bash"]}},"conversation":{{"id":"conv-1"}}}}"#
        ),
        1,
    );
    core
}

struct Driver {
    core: SessionCore,
    now: u64,
    next_call: u32,
    approvals: VecDeque<u32>,
    tools: VecDeque<u32>,
    listening: bool,
}

impl Driver {
    fn call(&mut self) -> u32 {
        self.next_call += 1;
        self.next_call
    }

    /// Drains effects and messages, checking what is written.
    fn settle(&mut self) {
        while let Some(effect) = self.core.pop_effect() {
            match effect {
                Effect::Write(text) => {
                    assert!(
                        serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                        "invalid frame written: {text}"
                    );
                }
                Effect::AskApproval { handle, .. } => self.approvals.push_back(handle),
                Effect::RunTool { handle, .. } => self.tools.push_back(handle),
                Effect::Complete {
                    result: Ok(text), ..
                } => {
                    assert!(
                        serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                        "invalid result: {text}"
                    );
                }
                _ => {}
            }
        }
        while let Some(message) = self.core.pop_message() {
            assert!(
                serde_json::from_str::<serde_json::Value>(&message).is_ok(),
                "invalid message: {message}"
            );
        }
    }

    fn tick(&mut self) {
        self.core.on_tick(self.now);
        if let Some(deadline) = self.core.next_deadline() {
            assert!(
                deadline > self.now,
                "deadline {deadline} still due at {}",
                self.now
            );
        }
    }

    fn run(&mut self, line: &str) {
        let (op, arg) = line.split_at(line.chars().next().map_or(0, char::len_utf8));
        match op {
            "F" => self.core.on_frame(arg, self.now),
            "T" => {
                self.now = self
                    .now
                    .saturating_add(arg.trim().parse::<u64>().unwrap_or(1).min(120_000));
                self.tick();
            }
            "W" => {
                if let Some(deadline) = self.core.next_deadline() {
                    self.now = self.now.max(deadline);
                    self.tick();
                }
            }
            "S" => {
                let content = serde_json::Value::String(arg.to_owned()).to_string();
                let _ = self.core.send(&content, None, self.now);
            }
            "A" => {
                let call = self.call();
                self.core.abort(call, self.now);
            }
            "L" => {
                let call = self.call();
                self.core.list_messages(call, r#"{"limit":50}"#, self.now);
            }
            "Q" => {
                let call = self.call();
                self.core.remove_queued_message(call, arg, self.now);
            }
            "D" => {
                self.listening = !self.listening;
                self.core.set_device_status_listening(self.listening);
            }
            "Y" | "N" => {
                if let Some(handle) = self.approvals.pop_front() {
                    let answer = if op == "Y" {
                        r#"{"behavior":"allow"}"#
                    } else {
                        r#"{"behavior":"deny","message":"no"}"#
                    };
                    self.core.answer_approval(handle, answer);
                }
            }
            "R" => {
                if let Some(handle) = self.tools.pop_front() {
                    self.core
                        .finish_tool(handle, r#"{"content":[{"type":"text","text":"ok"}]}"#);
                }
            }
            "C" => self.core.close(self.now),
            "X" => self.core.on_transport_closed(self.now),
            "O" => self.core.on_standby_open(self.now),
            "G" => self.core.on_standby_frame(arg, self.now),
            "K" => self.core.on_standby_closed(self.now),
            "B" => {
                let call = self.call();
                self.core.begin(call, self.now);
            }
            "P" => self.core.on_open(self.now),
            "E" => self.core.on_transport_error("refused", self.now),
            _ => {}
        }
        self.settle();
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut driver = Driver {
        core: started(),
        now: 2,
        next_call: 0,
        approvals: VecDeque::new(),
        tools: VecDeque::new(),
        listening: false,
    };
    driver.settle();
    for line in text.lines().take(2_000) {
        driver.run(line);
    }
    // However the input ended, the clock running on settles every timer.
    for _ in 0..64 {
        let Some(deadline) = driver.core.next_deadline() else {
            break;
        };
        driver.now = driver.now.max(deadline);
        driver.tick();
        driver.settle();
    }
});
