//! Incoming frames: a one-pass parse through [`crate::json`] into typed bodies that borrow from
//! the frame text (the envelope's members are moved out once, each body reads only its own
//! members), with a cheap `type` peek so that unwanted big frames are never parsed.
//!
//! Malformed input never panics: text that is not a JSON object yields `None` (dropped), and a
//! known frame type with an unusable payload yields [`FrameBody::Invalid`] (dropped by consumers,
//! spec §3.12).

use super::delta::StreamDelta;
use super::device_status::DeviceStatusFrame;
use super::envelope::{Envelope, Member};
use super::runtime::{FrameScope, RuntimeField};
use super::scan::peek_frame_type;
use super::wire::string_items;
use crate::json::{Object, Value};
use std::borrow::Cow;

pub use super::frame_bodies::{
    ControlRequestFrame, ExternalToolCallRequestFrame, InputAcceptedFrame, LoopStatusFrame,
    QueueItemFrame, QueueUpdateFrame, RemovedQueueItem, ResponseFrame, TurnFinishedFrame,
};

/// Frame types the client distinguishes (from the `type` string).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// `stream_delta`.
    StreamDelta,
    /// `update_loop_status`.
    UpdateLoopStatus,
    /// `turn_finished`.
    TurnFinished,
    /// `update_queue`.
    UpdateQueue,
    /// `update_device_status`.
    UpdateDeviceStatus,
    /// `control_request`.
    ControlRequest,
    /// `external_tool_call_request`.
    ExternalToolCallRequest,
    /// `input_accepted`.
    InputAccepted,
    /// Any `<command>_response`.
    Response,
    /// Anything else (`update_subagent_state`, terminal frames, …).
    Other,
}

impl FrameKind {
    /// Classifies a `type` string.
    pub fn from_type(frame_type: &str) -> FrameKind {
        match frame_type {
            "stream_delta" => FrameKind::StreamDelta,
            "update_loop_status" => FrameKind::UpdateLoopStatus,
            "turn_finished" => FrameKind::TurnFinished,
            "update_queue" => FrameKind::UpdateQueue,
            "update_device_status" => FrameKind::UpdateDeviceStatus,
            "control_request" => FrameKind::ControlRequest,
            "external_tool_call_request" => FrameKind::ExternalToolCallRequest,
            "input_accepted" => FrameKind::InputAccepted,
            t if t.ends_with("_response") => FrameKind::Response,
            _ => FrameKind::Other,
        }
    }
}

/// What to parse. By default `update_device_status` bodies are skipped (only their type is read).
#[derive(Debug, Clone, Copy, Default)]
pub struct ParseOptions {
    /// Parse `update_device_status` frames (needed only while someone listens for device status).
    pub device_status: bool,
}

/// A parsed incoming frame, borrowing from the frame text.
#[derive(Debug, Clone)]
pub struct ParsedFrame<'a> {
    /// The whole frame text (kept so a frame can be stored and replayed cheaply).
    pub raw: &'a str,
    /// The `type` string (`""` when the object has no string `type`).
    pub frame_type: Cow<'a, str>,
    /// Classification of `frame_type`.
    pub kind: FrameKind,
    /// Top-level `request_id`, when a string.
    pub request_id: Option<Cow<'a, str>>,
    /// Runtime scope for the `sameRuntime` filter.
    pub scope: FrameScope<'a>,
    /// The typed payload.
    pub body: FrameBody<'a>,
}

/// The typed payload of a frame.
///
/// `StreamDelta` is much larger than the other variants; it is kept inline on purpose: a parsed
/// frame lives on the stack for one call, and boxing would cost an allocation per delta.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum FrameBody<'a> {
    /// `stream_delta` with an object `delta`.
    StreamDelta(StreamDelta<'a>),
    /// `update_loop_status` with a string `loop_status.status`.
    LoopStatus(LoopStatusFrame<'a>),
    /// `turn_finished` with a string `stop_reason`.
    TurnFinished(TurnFinishedFrame<'a>),
    /// `update_queue`.
    QueueUpdate(QueueUpdateFrame<'a>),
    /// `update_device_status` with an object `device_status` (projection on demand).
    DeviceStatus(DeviceStatusFrame<'a>),
    /// `control_request` with an object `request`.
    ControlRequest(ControlRequestFrame<'a>),
    /// `external_tool_call_request`.
    ExternalToolCallRequest(ExternalToolCallRequestFrame<'a>),
    /// `input_accepted`.
    InputAccepted(InputAcceptedFrame<'a>),
    /// A `<command>_response` (`success`/`error` decoded; the rest stays in `raw`).
    Response(ResponseFrame<'a>),
    /// A frame whose body was not parsed (see [`ParseOptions`]).
    Skipped,
    /// A known type whose payload is unusable (dropped).
    Invalid,
    /// Any other frame type.
    Other,
}

/// Parses a frame with default options (device-status bodies skipped).
pub fn parse_frame(text: &str) -> Option<ParsedFrame<'_>> {
    parse_frame_with(text, ParseOptions::default())
}

/// Parses a frame. Returns `None` when `text` is not a JSON object, is malformed JSON, or repeats
/// a top-level member the client reads (an ambiguous frame).
pub fn parse_frame_with(text: &str, options: ParseOptions) -> Option<ParsedFrame<'_>> {
    if !options.device_status {
        if let Some(peeked) = peek_frame_type(text) {
            if peeked == "update_device_status" {
                return Some(ParsedFrame {
                    raw: text,
                    frame_type: peeked,
                    kind: FrameKind::UpdateDeviceStatus,
                    request_id: None,
                    scope: FrameScope::default(),
                    body: FrameBody::Skipped,
                });
            }
        }
    }
    let mut env = Envelope::read(Object::parse(text)?)?;
    let frame_type = env.str(Member::Type).unwrap_or(Cow::Borrowed(""));
    let kind = FrameKind::from_type(&frame_type);
    let agent_id = env.str(Member::AgentId);
    let conversation_id = env.str(Member::ConversationId);
    Some(ParsedFrame {
        raw: text,
        frame_type,
        kind,
        request_id: env.str(Member::RequestId),
        scope: FrameScope {
            runtime: RuntimeField::from_value(env.take(Member::Runtime)),
            agent_id: agent_id.or_else(|| env.str(Member::AgentIdCamel)),
            conversation_id: conversation_id.or_else(|| env.str(Member::ConversationIdCamel)),
        },
        body: body(kind, env),
    })
}

fn body(kind: FrameKind, mut env: Envelope<'_>) -> FrameBody<'_> {
    match kind {
        FrameKind::StreamDelta => StreamDelta::from_value(env.take(Member::Delta))
            .map_or(FrameBody::Invalid, FrameBody::StreamDelta),
        FrameKind::UpdateLoopStatus => loop_status_body(env.take(Member::LoopStatus)),
        FrameKind::TurnFinished => match env.str(Member::StopReason) {
            Some(stop_reason) => FrameBody::TurnFinished(TurnFinishedFrame {
                turn_id: env.str(Member::TurnId),
                run_id: env.str(Member::RunId),
                stop_reason,
                error: env.str(Member::Error),
            }),
            None => FrameBody::Invalid,
        },
        FrameKind::UpdateQueue => FrameBody::QueueUpdate(queue_body(env)),
        FrameKind::UpdateDeviceStatus => {
            DeviceStatusFrame::from_value(env.take(Member::DeviceStatus))
                .map_or(FrameBody::Invalid, FrameBody::DeviceStatus)
        }
        FrameKind::ControlRequest => match env.take(Member::Request).as_object() {
            Some(req) => FrameBody::ControlRequest(ControlRequestFrame {
                subtype: req.str("subtype"),
                tool_name: req.str("tool_name"),
                input: Some(req.get("input")).filter(|v| v.is_object()).cloned(),
                tool_call_id: req.str("tool_call_id"),
                permission_suggestions: req.get("permission_suggestions").clone().non_null(),
                blocked_path: req.get("blocked_path").clone(),
                diffs: req.get("diffs").clone().non_null(),
            }),
            None => FrameBody::Invalid,
        },
        FrameKind::ExternalToolCallRequest => {
            FrameBody::ExternalToolCallRequest(ExternalToolCallRequestFrame {
                tool_call_id: env.str(Member::ToolCallId),
                tool_name: env.str(Member::ToolName),
                input: env.take(Member::Input).non_null(),
            })
        }
        FrameKind::InputAccepted => FrameBody::InputAccepted(InputAcceptedFrame {
            accepted: env.bool(Member::Accepted),
            disposition: env.str(Member::Disposition),
        }),
        FrameKind::Response => FrameBody::Response(ResponseFrame {
            success: env.bool(Member::Success),
            error: env.str(Member::Error),
        }),
        FrameKind::Other => FrameBody::Other,
    }
}

fn loop_status_body(value: Value<'_>) -> FrameBody<'_> {
    let Some(loop_status) = value.as_object() else {
        return FrameBody::Invalid;
    };
    let Some(status) = loop_status.str("status") else {
        return FrameBody::Invalid;
    };
    FrameBody::LoopStatus(LoopStatusFrame {
        status,
        active_run_ids: string_items(loop_status.get("active_run_ids")),
        client_message_ids_by_run_id: run_map(loop_status.object("client_message_ids_by_run_id")),
    })
}

/// `client_message_ids_by_run_id` as (run, client message ids) pairs.
fn run_map<'a>(runs: Option<&Object<'a>>) -> Vec<(Cow<'a, str>, Vec<Cow<'a, str>>)> {
    let mut pairs = Vec::new();
    for (run, ids) in runs.map(Object::members).into_iter().flatten() {
        pairs.push((Cow::Owned(run.to_owned()), string_items(ids)));
    }
    pairs
}

/// The elements of an array member (none when it is not an array).
fn elements<'t, 'a>(value: &'t Value<'a>) -> &'t [Value<'a>] {
    value.as_array().unwrap_or_default()
}

fn queue_body(mut env: Envelope<'_>) -> QueueUpdateFrame<'_> {
    let mut frame = QueueUpdateFrame::default();
    for item in elements(&env.take(Member::Queue)) {
        let Some(item) = item.as_object() else {
            continue;
        };
        let Some(id) = item.str("id") else {
            continue;
        };
        let content = item.get("content");
        frame.queue.push(QueueItemFrame {
            id,
            client_message_id: item.str("client_message_id"),
            kind: item.str("kind"),
            source: item.str("source"),
            // Copied as received, `null` included.
            content: (!matches!(content, Value::Absent)).then(|| content.clone()),
            enqueued_at: item.str("enqueued_at"),
        });
    }
    for entry in elements(&env.take(Member::Removed)) {
        let Some(entry) = entry.as_object() else {
            continue;
        };
        frame.removed.push(RemovedQueueItem {
            client_message_id: entry.str("client_message_id"),
            disposition: entry.str("disposition"),
        });
    }
    frame
}
