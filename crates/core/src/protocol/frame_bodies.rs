//! Typed bodies of incoming frames (borrowing from the frame text) and their SDK messages.

use super::sdk_message::{LoopStatusMessage, QueueItem, QueueUpdateMessage, SdkMessage};
use crate::json::Value;
use std::borrow::Cow;

/// `update_loop_status.loop_status`.
#[derive(Debug, Clone)]
pub struct LoopStatusFrame<'a> {
    /// `status`.
    pub status: Cow<'a, str>,
    /// String entries of `active_run_ids`.
    pub active_run_ids: Vec<Cow<'a, str>>,
    /// `client_message_ids_by_run_id`: which client messages each run serves (the server's
    /// own turn correlation; empty when absent).
    pub client_message_ids_by_run_id: Vec<(Cow<'a, str>, Vec<Cow<'a, str>>)>,
}

/// `turn_finished`.
#[derive(Debug, Clone)]
pub struct TurnFinishedFrame<'a> {
    /// `turn_id`.
    pub turn_id: Option<Cow<'a, str>>,
    /// `run_id` (frames without one are ignored by the coordinator).
    pub run_id: Option<Cow<'a, str>>,
    /// `stop_reason`.
    pub stop_reason: Cow<'a, str>,
    /// `error`, when a string.
    pub error: Option<Cow<'a, str>>,
}

/// `update_queue`.
#[derive(Debug, Clone, Default)]
pub struct QueueUpdateFrame<'a> {
    /// Items with a string `id` (others dropped).
    pub queue: Vec<QueueItemFrame<'a>>,
    /// `removed` entries.
    pub removed: Vec<RemovedQueueItem<'a>>,
}

/// One `update_queue.queue` item.
#[derive(Debug, Clone)]
pub struct QueueItemFrame<'a> {
    /// `id`.
    pub id: Cow<'a, str>,
    /// `client_message_id`.
    pub client_message_id: Option<Cow<'a, str>>,
    /// `kind`.
    pub kind: Option<Cow<'a, str>>,
    /// `source`.
    pub source: Option<Cow<'a, str>>,
    /// `content` as received (`null` included).
    pub content: Option<Value<'a>>,
    /// `enqueued_at`.
    pub enqueued_at: Option<Cow<'a, str>>,
}

/// One `update_queue.removed` entry.
#[derive(Debug, Clone)]
pub struct RemovedQueueItem<'a> {
    /// `client_message_id`.
    pub client_message_id: Option<Cow<'a, str>>,
    /// `disposition` (`dequeued` | `cancelled`).
    pub disposition: Option<Cow<'a, str>>,
}

/// `control_request` (only `subtype: "can_use_tool"` is acted on).
#[derive(Debug, Clone)]
pub struct ControlRequestFrame<'a> {
    /// `request.subtype`.
    pub subtype: Option<Cow<'a, str>>,
    /// `request.tool_name` (the session defaults it to `"unknown"`).
    pub tool_name: Option<Cow<'a, str>>,
    /// `request.input` when an object.
    pub input: Option<Value<'a>>,
    /// `request.tool_call_id`.
    pub tool_call_id: Option<Cow<'a, str>>,
    /// `request.permission_suggestions` (absent or `null` → `None`).
    pub permission_suggestions: Option<Value<'a>>,
    /// `request.blocked_path`: string, `null`, or missing.
    pub blocked_path: Value<'a>,
    /// `request.diffs` (absent or `null` → `None`).
    pub diffs: Option<Value<'a>>,
}

/// `external_tool_call_request`.
#[derive(Debug, Clone)]
pub struct ExternalToolCallRequestFrame<'a> {
    /// `tool_call_id`.
    pub tool_call_id: Option<Cow<'a, str>>,
    /// `tool_name`.
    pub tool_name: Option<Cow<'a, str>>,
    /// `input` (absent or `null` → `None`).
    pub input: Option<Value<'a>>,
}

/// `input_accepted`.
#[derive(Debug, Clone)]
pub struct InputAcceptedFrame<'a> {
    /// `accepted`.
    pub accepted: Option<bool>,
    /// `disposition` (`started` | `queued`).
    pub disposition: Option<Cow<'a, str>>,
}

/// A response frame's common fields.
#[derive(Debug, Clone)]
pub struct ResponseFrame<'a> {
    /// `success`, when a boolean.
    pub success: Option<bool>,
    /// `error`, when a string.
    pub error: Option<Cow<'a, str>>,
}

impl QueueUpdateFrame<'_> {
    /// The `queue_update` message (defaults per spec §3.6).
    pub fn to_message(&self) -> SdkMessage {
        let mut queue = Vec::with_capacity(self.queue.len());
        for item in &self.queue {
            queue.push(QueueItem {
                id: item.id.as_ref().to_owned(),
                client_message_id: owned_or(&item.client_message_id, ""),
                kind: owned_or(&item.kind, "message"),
                source: owned_or(&item.source, "user"),
                content: item.content.as_ref().map(Value::to_static),
                enqueued_at: owned_or(&item.enqueued_at, ""),
            });
        }
        SdkMessage::QueueUpdate(QueueUpdateMessage { queue })
    }
}

/// The string, or `default` when missing, as an owned string.
fn owned_or(value: &Option<Cow<'_, str>>, default: &str) -> String {
    value.as_deref().unwrap_or(default).to_owned()
}

impl LoopStatusFrame<'_> {
    /// The `loop_status` message.
    pub fn to_message(&self) -> SdkMessage {
        let mut active_run_ids = Vec::with_capacity(self.active_run_ids.len());
        for run_id in &self.active_run_ids {
            active_run_ids.push(run_id.as_ref().to_owned());
        }
        SdkMessage::LoopStatus(LoopStatusMessage {
            status: self.status.as_ref().to_owned(),
            active_run_ids,
        })
    }
}
