//! The top-level members of an incoming frame, collected in one pass over its object.
//!
//! Every member the client may read is located once (raw, classified on demand), so building a
//! frame costs one match per member instead of one search per read. A frame that repeats one of
//! these members is ambiguous and rejected (as before the move to [`crate::json`]); repeated
//! unknown members are ignored.

use crate::json::{Object, Value};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The known top-level members of a frame (`None` when absent).
#[derive(Default)]
pub(super) struct Envelope<'a> {
    pub frame_type: Option<&'a RawValue>,
    pub request_id: Option<&'a RawValue>,
    pub runtime: Option<&'a RawValue>,
    pub agent_id: Option<&'a RawValue>,
    pub agent_id_camel: Option<&'a RawValue>,
    pub conversation_id: Option<&'a RawValue>,
    pub conversation_id_camel: Option<&'a RawValue>,
    pub delta: Option<&'a RawValue>,
    pub loop_status: Option<&'a RawValue>,
    pub turn_id: Option<&'a RawValue>,
    pub run_id: Option<&'a RawValue>,
    pub stop_reason: Option<&'a RawValue>,
    pub error: Option<&'a RawValue>,
    pub queue: Option<&'a RawValue>,
    pub removed: Option<&'a RawValue>,
    pub device_status: Option<&'a RawValue>,
    pub request: Option<&'a RawValue>,
    pub tool_call_id: Option<&'a RawValue>,
    pub tool_name: Option<&'a RawValue>,
    pub input: Option<&'a RawValue>,
    pub accepted: Option<&'a RawValue>,
    pub disposition: Option<&'a RawValue>,
    pub success: Option<&'a RawValue>,
}

impl<'a> Envelope<'a> {
    /// Collects the known members; `None` when one of them appears twice.
    pub fn read(object: &Object<'a>) -> Option<Self> {
        let mut e = Envelope::default();
        for (key, raw) in object.members() {
            let slot = match key {
                "type" => &mut e.frame_type,
                "request_id" => &mut e.request_id,
                "runtime" => &mut e.runtime,
                "agent_id" => &mut e.agent_id,
                "agentId" => &mut e.agent_id_camel,
                "conversation_id" => &mut e.conversation_id,
                "conversationId" => &mut e.conversation_id_camel,
                "delta" => &mut e.delta,
                "loop_status" => &mut e.loop_status,
                "turn_id" => &mut e.turn_id,
                "run_id" => &mut e.run_id,
                "stop_reason" => &mut e.stop_reason,
                "error" => &mut e.error,
                "queue" => &mut e.queue,
                "removed" => &mut e.removed,
                "device_status" => &mut e.device_status,
                "request" => &mut e.request,
                "tool_call_id" => &mut e.tool_call_id,
                "tool_name" => &mut e.tool_name,
                "input" => &mut e.input,
                "accepted" => &mut e.accepted,
                "disposition" => &mut e.disposition,
                "success" => &mut e.success,
                _ => continue,
            };
            if slot.replace(raw).is_some() {
                return None;
            }
        }
        Some(e)
    }
}

/// A member's string, when it is a string.
pub(super) fn str_of(raw: Option<&RawValue>) -> Option<Cow<'_, str>> {
    raw.and_then(|raw| Value::classify(raw).into_str())
}

/// A member's boolean, when it is a boolean.
pub(super) fn bool_of(raw: Option<&RawValue>) -> Option<bool> {
    raw.and_then(|raw| Value::classify(raw).as_bool())
}
