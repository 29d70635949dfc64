//! Incoming frames: one borrowed, single-pass parse into typed bodies (no `serde_json::Value`),
//! with a cheap `type` peek so that unwanted big frames are never parsed. A `stream_delta`'s
//! fields are decoded in the same pass; its verbatim text (only needed for `stream_event`) is
//! located on demand ([`StreamDelta::raw`]).
//!
//! Malformed input never panics: text that is not a JSON object yields `None` (dropped), and a
//! known frame type with an unusable payload yields [`FrameBody::Invalid`] (dropped by consumers,
//! spec §3.12).

use super::delta::{DeltaFields, StreamDelta};
use super::device_status::DeviceStatusFrame;
use super::lenient::{Field, List, Obj};
use super::runtime::{FrameScope, RuntimeField};
use super::scan::peek_frame_type;

pub use super::frame_bodies::{
    ControlRequestFrame, ExternalToolCallRequestFrame, InputAcceptedFrame, LoopStatusFrame,
    QueueItemFrame, QueueUpdateFrame, RemovedQueueItem, ResponseFrame, TurnFinishedFrame,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

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

#[derive(Deserialize, Default)]
#[serde(default)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow)]
    frame_type: Field<'a>,
    #[serde(borrow)]
    request_id: Field<'a>,
    #[serde(borrow)]
    runtime: RuntimeField<'a>,
    #[serde(borrow)]
    agent_id: Field<'a>,
    #[serde(rename = "agentId", borrow)]
    agent_id_camel: Field<'a>,
    #[serde(borrow)]
    conversation_id: Field<'a>,
    #[serde(rename = "conversationId", borrow)]
    conversation_id_camel: Field<'a>,
    #[serde(borrow)]
    delta: Obj<DeltaFields<'a>>,
    #[serde(borrow)]
    loop_status: Obj<LoopStatusWire<'a>>,
    #[serde(borrow)]
    turn_id: Field<'a>,
    #[serde(borrow)]
    run_id: Field<'a>,
    #[serde(borrow)]
    stop_reason: Field<'a>,
    #[serde(borrow)]
    error: Field<'a>,
    #[serde(borrow)]
    queue: List<Obj<QueueItemWire<'a>>>,
    #[serde(borrow)]
    removed: List<Obj<RemovedWire<'a>>>,
    #[serde(borrow)]
    device_status: Option<&'a RawValue>,
    #[serde(borrow)]
    request: Obj<ControlRequestWire<'a>>,
    #[serde(borrow)]
    tool_call_id: Field<'a>,
    #[serde(borrow)]
    tool_name: Field<'a>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    #[serde(borrow)]
    accepted: Field<'a>,
    #[serde(borrow)]
    disposition: Field<'a>,
    #[serde(borrow)]
    success: Field<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct LoopStatusWire<'a> {
    #[serde(borrow)]
    status: Field<'a>,
    #[serde(borrow)]
    active_run_ids: List<Field<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct QueueItemWire<'a> {
    #[serde(borrow)]
    id: Field<'a>,
    #[serde(borrow)]
    client_message_id: Field<'a>,
    #[serde(borrow)]
    kind: Field<'a>,
    #[serde(borrow)]
    source: Field<'a>,
    #[serde(borrow, deserialize_with = "raw_keeping_null")]
    content: Option<&'a RawValue>,
    #[serde(borrow)]
    enqueued_at: Field<'a>,
}

/// Like `Option<&RawValue>` but a present `null` stays `Some("null")` (copied verbatim, as JS does).
fn raw_keeping_null<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<&'de RawValue>, D::Error> {
    <&'de RawValue>::deserialize(d).map(Some)
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RemovedWire<'a> {
    #[serde(borrow)]
    client_message_id: Field<'a>,
    #[serde(borrow)]
    disposition: Field<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ControlRequestWire<'a> {
    #[serde(borrow)]
    subtype: Field<'a>,
    #[serde(borrow)]
    tool_name: Field<'a>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    #[serde(borrow)]
    tool_call_id: Field<'a>,
    #[serde(borrow)]
    permission_suggestions: Option<&'a RawValue>,
    #[serde(borrow)]
    blocked_path: Field<'a>,
    #[serde(borrow)]
    diffs: Option<&'a RawValue>,
}

/// Parses a frame with default options (device-status bodies skipped).
pub fn parse_frame(text: &str) -> Option<ParsedFrame<'_>> {
    parse_frame_with(text, ParseOptions::default())
}

/// Parses a frame. Returns `None` when `text` is not a JSON object (or is malformed JSON).
pub fn parse_frame_with(text: &str, options: ParseOptions) -> Option<ParsedFrame<'_>> {
    let first = text.trim_start().as_bytes().first().copied();
    if first != Some(b'{') {
        return None;
    }
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
    let env = serde_json::from_str::<Envelope<'_>>(text).ok()?;
    Some(build_frame(text, env))
}

fn build_frame<'a>(raw: &'a str, env: Envelope<'a>) -> ParsedFrame<'a> {
    let frame_type = env.frame_type.into_str().unwrap_or(Cow::Borrowed(""));
    let kind = FrameKind::from_type(&frame_type);
    let scope = FrameScope {
        runtime: env.runtime,
        agent_id: env.agent_id.into_str().or(env.agent_id_camel.into_str()),
        conversation_id: env
            .conversation_id
            .into_str()
            .or(env.conversation_id_camel.into_str()),
    };
    let body = match kind {
        FrameKind::StreamDelta => match env.delta.0 {
            Some(fields) => FrameBody::StreamDelta(StreamDelta::from_frame(fields, raw)),
            None => FrameBody::Invalid,
        },
        FrameKind::UpdateLoopStatus => loop_status_body(env.loop_status),
        FrameKind::TurnFinished => match env.stop_reason.into_str() {
            Some(stop_reason) => FrameBody::TurnFinished(TurnFinishedFrame {
                turn_id: env.turn_id.into_str(),
                run_id: env.run_id.into_str(),
                stop_reason,
                error: env.error.into_str(),
            }),
            None => FrameBody::Invalid,
        },
        FrameKind::UpdateQueue => FrameBody::QueueUpdate(queue_body(env.queue, env.removed)),
        FrameKind::UpdateDeviceStatus => env
            .device_status
            .and_then(DeviceStatusFrame::from_raw)
            .map_or(FrameBody::Invalid, FrameBody::DeviceStatus),
        FrameKind::ControlRequest => match env.request.0 {
            Some(req) => FrameBody::ControlRequest(ControlRequestFrame {
                subtype: req.subtype.into_str(),
                tool_name: req.tool_name.into_str(),
                input: req.input.filter(|raw| super::lenient::is_object(raw)),
                tool_call_id: req.tool_call_id.into_str(),
                permission_suggestions: req.permission_suggestions,
                blocked_path: req.blocked_path,
                diffs: req.diffs,
            }),
            None => FrameBody::Invalid,
        },
        FrameKind::ExternalToolCallRequest => {
            FrameBody::ExternalToolCallRequest(ExternalToolCallRequestFrame {
                tool_call_id: env.tool_call_id.into_str(),
                tool_name: env.tool_name.into_str(),
                input: env.input,
            })
        }
        FrameKind::InputAccepted => FrameBody::InputAccepted(InputAcceptedFrame {
            accepted: env.accepted.as_bool(),
            disposition: env.disposition.into_str(),
        }),
        FrameKind::Response => FrameBody::Response(ResponseFrame {
            success: env.success.as_bool(),
            error: env.error.into_str(),
        }),
        FrameKind::Other => FrameBody::Other,
    };
    ParsedFrame {
        raw,
        frame_type,
        kind,
        request_id: env.request_id.into_str(),
        scope,
        body,
    }
}

fn loop_status_body(wire: Obj<LoopStatusWire<'_>>) -> FrameBody<'_> {
    let Some(ls) = wire.0 else {
        return FrameBody::Invalid;
    };
    let Some(status) = ls.status.into_str() else {
        return FrameBody::Invalid;
    };
    let active_run_ids = ls
        .active_run_ids
        .items
        .into_iter()
        .filter_map(Field::into_str)
        .collect();
    FrameBody::LoopStatus(LoopStatusFrame {
        status,
        active_run_ids,
    })
}

fn queue_body<'a>(
    queue: List<Obj<QueueItemWire<'a>>>,
    removed: List<Obj<RemovedWire<'a>>>,
) -> QueueUpdateFrame<'a> {
    let queue = queue
        .items
        .into_iter()
        .filter_map(|item| {
            let item = item.0?;
            Some(QueueItemFrame {
                id: item.id.into_str()?,
                client_message_id: item.client_message_id.into_str(),
                kind: item.kind.into_str(),
                source: item.source.into_str(),
                content: item.content,
                enqueued_at: item.enqueued_at.into_str(),
            })
        })
        .collect();
    let removed = removed
        .items
        .into_iter()
        .filter_map(|entry| {
            let entry = entry.0?;
            Some(RemovedQueueItem {
                client_message_id: entry.client_message_id.into_str(),
                disposition: entry.disposition.into_str(),
            })
        })
        .collect();
    QueueUpdateFrame { queue, removed }
}
