//! Turn logic not covered by the shared vectors: abort, idle rules, 7217a3f8, orphans,
//! protocol errors, runtime filtering, removal.

use super::{CoordinatorConfig, TurnCoordinator};
use crate::protocol::runtime::Runtime;
use serde_json::{json, Value};

/// A tiny driver: frames get the session runtime unless they carry their own scope.
pub(super) struct Driver {
    pub c: TurnCoordinator,
    pub now: u64,
    sent: u32,
}

impl Driver {
    pub fn new(configure: impl FnOnce(&mut CoordinatorConfig)) -> Self {
        let mut config = CoordinatorConfig::new("app-server");
        configure(&mut config);
        Driver {
            c: TurnCoordinator::new(config, Runtime::new("agent-1", "conv-1")),
            now: 0,
            sent: 0,
        }
    }

    pub fn send(&mut self) {
        self.sent += 1;
        let id = format!("cm-{}", self.sent);
        self.c.track_sent_turn(self.now, id, None);
    }

    pub fn frame(&mut self, mut frame: Value) {
        if frame.get("runtime").is_none() {
            frame["runtime"] = json!({"agent_id":"agent-1","conversation_id":"conv-1"});
        }
        assert!(self.c.handle_text(&frame.to_string(), self.now));
    }

    pub fn delta(&mut self, delta: Value) {
        self.frame(json!({"type":"stream_delta","delta":delta}));
    }

    pub fn text(&mut self, run: &str, text: &str) {
        self.delta(json!({"message_type":"assistant_message","content":text,"run_id":run}));
    }

    pub fn status(&mut self, status: &str, runs: &[&str]) {
        self.frame(json!({"type":"update_loop_status",
            "loop_status":{"status":status,"active_run_ids":runs}}));
    }

    pub fn finished(&mut self, run: &str, stop: &str) {
        self.frame(json!({"type":"turn_finished","run_id":run,"stop_reason":stop}));
    }

    /// Advances the clock by `ms`, firing timers on the way.
    pub fn advance(&mut self, ms: u64) {
        let target = self.now + ms;
        while let Some(deadline) = self.c.next_deadline().filter(|d| *d <= target) {
            self.now = self.now.max(deadline);
            self.c.on_tick(self.now);
        }
        self.now = target;
        self.c.on_tick(self.now);
    }

    pub fn drain(&mut self) -> Vec<Value> {
        std::iter::from_fn(|| self.c.pop_message())
            .map(|m| serde_json::from_str(&m.to_json()).unwrap())
            .collect()
    }

    /// Drained messages without loop statuses.
    pub fn drain_content(&mut self) -> Vec<Value> {
        self.drain()
            .into_iter()
            .filter(|m| m["type"] != "loop_status")
            .collect()
    }
}

pub(super) fn results(messages: &[Value]) -> Vec<&Value> {
    messages.iter().filter(|m| m["type"] == "result").collect()
}

#[test]
fn idle_after_evidence_ends_the_turn_on_servers_without_turn_finished() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.status("SENDING_API_REQUEST", &[]);
    d.status("WAITING_ON_INPUT", &[]);
    assert!(d.c.has_in_flight_turn(), "idle before evidence is stale");
    d.text("r1", "hi");
    d.now = 40;
    d.status("WAITING_ON_INPUT", &["r1"]);
    let out = d.drain_content();
    let result = results(&out)[0];
    assert_eq!(result["success"], true);
    assert_eq!(result["result"], "hi");
    assert!(result.get("stopReason").is_none());
    assert_eq!(result["durationMs"], 40);
    assert!(!d.c.has_in_flight_turn());
}

#[test]
fn abort_requested_turn_ends_as_interrupted_on_idle() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.text("r1", "par");
    assert!(d.c.request_abort());
    d.status("WAITING_ON_INPUT", &["r1"]);
    let out = d.drain_content();
    let result = results(&out)[0];
    assert_eq!(
        (
            &result["success"],
            &result["errorCode"],
            &result["stopReason"],
            &result["errorDetail"]
        ),
        (
            &json!(false),
            &json!("interrupted"),
            &json!("interrupted"),
            &json!("Interrupted")
        )
    );
    assert_eq!(result["error"], "interrupted");
    // The trailing cancelled receipt of that run is dropped (settled).
    d.finished("r1", "cancelled");
    assert!(d.drain().is_empty());
}

#[test]
fn idle_with_active_run_waits_for_turn_finished_once_the_server_proved_it() {
    let mut d = Driver::new(|_| {});
    // First turn teaches the coordinator that this server sends turn_finished.
    d.send();
    d.text("r1", "one");
    d.delta(json!({"message_type":"stop_reason","stop_reason":"end_turn","run_id":"r1"}));
    d.delta(json!({"message_type":"usage_statistics","run_id":"r1"}));
    d.finished("r1", "end_turn");
    assert_eq!(results(&d.drain()).len(), 1);

    d.send();
    d.text("r2", "two");
    d.status("WAITING_ON_INPUT", &["r2"]);
    assert!(
        d.c.has_in_flight_turn(),
        "idle listing an active run keeps the turn open"
    );
    d.text("r2", "!");
    d.status("WAITING_ON_INPUT", &[]);
    let out = d.drain_content();
    assert_eq!(results(&out)[0]["result"], "two!");
}

#[test]
fn idle_with_active_run_ends_the_turn_before_any_turn_finished() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.text("r1", "x");
    d.status("WAITING_ON_INPUT", &["r1"]);
    assert_eq!(results(&d.drain()).len(), 1);
}

#[test]
fn waiting_on_approval_after_evidence_without_callback_is_an_approval_conflict() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.delta(
        json!({"message_type":"approval_request_message","run_id":"r1",
        "tool_call":{"tool_call_id":"c1","name":"Bash","arguments":"{}"}}),
    );
    d.status("WAITING_ON_APPROVAL", &["r1"]);
    let out = d.drain_content();
    assert_eq!(out[0]["type"], "tool_call");
    let result = results(&out)[0];
    assert_eq!(result["errorCode"], "approval_conflict");
    assert_eq!(result["approvalConflict"], true);
    assert_eq!(result["recoverable"], true);

    let mut d = Driver::new(|c| c.auto_handles_tool_approvals = true);
    d.send();
    d.delta(json!({"message_type":"reasoning_message","reasoning":"r","run_id":"r1"}));
    d.delta(json!({"message_type":"stop_reason","stop_reason":"requires_approval","run_id":"r1"}));
    d.status("WAITING_ON_APPROVAL", &["r1"]);
    assert!(d.c.has_in_flight_turn());
    assert!(results(&d.drain()).is_empty());
}

#[test]
fn protocol_error_fails_the_active_turn() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.delta(json!({"message_type":"tool_call_message","id":"m1","run_id":"r1","tool_call":{"name":"X"}}));
    let out = d.drain();
    assert_eq!(out[0]["errorCode"], "protocol_error");
    let result = results(&out)[0];
    assert_eq!(result["success"], false);
    assert_eq!(result["errorCode"], "protocol_error");
    assert_eq!(result["error"], "protocol_error");
    assert_eq!(
        result["errorDetail"],
        "Missing tool_call_id in tool_call_message (uuid=m1)"
    );
    assert_eq!(result["recoverable"], false);
}

#[test]
fn loop_error_ends_the_turn_with_its_detail() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.delta(
        json!({"message_type":"loop_error","detail":"LLM down","run_id":"r1","is_terminal":false}),
    );
    let out = d.drain();
    let result = results(&out)[0];
    assert_eq!(result["error"], "LLM down");
    assert_eq!(result["errorCode"], "error");
    assert_eq!(result["runIds"], json!(["r1"]));
}

#[test]
fn orphaned_turn_finished_emits_once() {
    let mut d = Driver::new(|_| {});
    d.frame(
        json!({"type":"turn_finished","run_id":"rx","stop_reason":"llm_api_error",
        "error":"provider down","runtime":{"agent_id":"agent-1","conversation_id":"conv-1"}}),
    );
    d.finished("rx", "llm_api_error");
    let out = d.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0],
        json!({"type":"result","success":false,"error":"llm_api_error","errorCode":"llm_api_error",
            "recoverable":false,"errorDetail":"provider down","stopReason":"llm_api_error",
            "durationMs":0,"conversationId":"conv-1","runIds":["rx"]})
    );
    // Without any scope the conversation is null.
    d.c.handle_text(
        r#"{"type":"turn_finished","run_id":"ry","stop_reason":"end_turn"}"#,
        0,
    );
    assert_eq!(d.drain()[0]["conversationId"], Value::Null);
}

#[test]
fn frames_of_other_runtimes_and_junk_are_ignored() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.frame(
        json!({"type":"stream_delta","runtime":{"agent_id":"agent-2","conversation_id":"conv-1"},
        "delta":{"message_type":"assistant_message","content":"not ours","run_id":"r9"}}),
    );
    d.frame(json!({"type":"turn_finished","conversation_id":"other","run_id":"r9","stop_reason":"end_turn"}));
    for junk in [
        "[]",
        "nope",
        "{\"type\":\"stream_delta\",\"delta\":7}",
        "{\"type\":\"update_device_status\"}",
    ] {
        d.c.handle_text(junk, 0);
    }
    d.frame(json!({"type":"stream_delta","delta":["x"]}));
    d.frame(json!({"type":"turn_finished","stop_reason":"end_turn"}));
    assert!(d.drain().is_empty());
    assert!(d.c.has_in_flight_turn());
}

#[test]
fn queued_turns_activate_in_order_and_can_be_removed() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.send();
    d.send();
    assert!(d.c.remove_tracked_turn("cm-2"));
    assert!(!d.c.remove_tracked_turn("cm-9"));
    assert_eq!(d.c.active_client_message_id(), Some("cm-1"));
    d.text("r1", "a");
    d.status("WAITING_ON_INPUT", &[]);
    assert_eq!(d.c.active_client_message_id(), None);
    d.now = 7;
    d.delta(json!({"message_type":"user_message","run_id":"r3"}));
    assert_eq!(d.c.active_client_message_id(), Some("cm-3"));
    assert_eq!(d.c.active_turn_started_at(), Some(7));
}

#[test]
fn deltas_of_settled_runs_are_dropped_entirely() {
    let mut d = Driver::new(|_| {});
    d.send();
    d.text("r1", "a");
    d.status("WAITING_ON_INPUT", &[]);
    d.drain();
    d.send();
    d.text("r1", "late");
    d.delta(json!({"message_type":"usage_statistics","run_id":"r1"}));
    assert!(d.drain().is_empty());
    d.text("r2", "b");
    d.status("WAITING_ON_INPUT", &[]);
    let out = d.drain_content();
    assert_eq!(results(&out)[0]["result"], "b");
    assert_eq!(results(&out)[0]["runIds"], json!(["r2"]));
}
