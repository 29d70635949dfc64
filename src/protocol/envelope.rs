//! The top-level members of an incoming frame, collected in one pass over its object.
//!
//! Every member the client may read is moved out of the parsed object once, so building a frame
//! costs one match per member instead of one search per read. A frame that repeats one of
//! these members is ambiguous and rejected (as before the move to [`crate::json`]); repeated
//! unknown members are ignored.

use crate::json::{Object, Value};
use std::borrow::Cow;

/// The known top-level members of a frame (`None` when absent).
#[derive(Default)]
pub(super) struct Envelope<'a> {
    pub frame_type: Option<Value<'a>>,
    pub request_id: Option<Value<'a>>,
    pub runtime: Option<Value<'a>>,
    pub agent_id: Option<Value<'a>>,
    pub agent_id_camel: Option<Value<'a>>,
    pub conversation_id: Option<Value<'a>>,
    pub conversation_id_camel: Option<Value<'a>>,
    pub delta: Option<Value<'a>>,
    pub loop_status: Option<Value<'a>>,
    pub turn_id: Option<Value<'a>>,
    pub run_id: Option<Value<'a>>,
    pub stop_reason: Option<Value<'a>>,
    pub error: Option<Value<'a>>,
    pub queue: Option<Value<'a>>,
    pub removed: Option<Value<'a>>,
    pub device_status: Option<Value<'a>>,
    pub request: Option<Value<'a>>,
    pub tool_call_id: Option<Value<'a>>,
    pub tool_name: Option<Value<'a>>,
    pub input: Option<Value<'a>>,
    pub accepted: Option<Value<'a>>,
    pub disposition: Option<Value<'a>>,
    pub success: Option<Value<'a>>,
}

impl<'a> Envelope<'a> {
    /// Collects the known members; `None` when one of them appears twice.
    pub fn read(object: Object<'a>) -> Option<Self> {
        let mut e = Envelope::default();
        for (key, value) in object.into_members() {
            let slot = match key.as_ref() {
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
            if slot.replace(value).is_some() {
                return None;
            }
        }
        Some(e)
    }
}

/// A member's string, when it is a string.
pub(super) fn str_of(value: Option<Value<'_>>) -> Option<Cow<'_, str>> {
    value.and_then(Value::into_str)
}

/// A member's boolean, when it is a boolean.
pub(super) fn bool_of(value: Option<Value<'_>>) -> Option<bool> {
    value.and_then(|v| v.as_bool())
}
