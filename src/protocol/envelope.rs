//! The top-level members of an incoming frame, collected in one pass over its object.
//!
//! Every member the client may read is moved out of the parsed object once, so building a frame
//! costs one table lookup per member instead of one search per read. A frame that repeats one of
//! these members is ambiguous and rejected (as before the move to [`crate::json`]); repeated
//! unknown members are ignored.

use crate::json::{Object, Value};
use std::borrow::Cow;

/// The known top-level members, in the order of [`KEYS`].
#[derive(Clone, Copy)]
pub(super) enum Member {
    Type,
    RequestId,
    Runtime,
    AgentId,
    AgentIdCamel,
    ConversationId,
    ConversationIdCamel,
    Delta,
    LoopStatus,
    TurnId,
    RunId,
    StopReason,
    Error,
    Queue,
    Removed,
    DeviceStatus,
    Request,
    ToolCallId,
    ToolName,
    Input,
    Accepted,
    Disposition,
    Success,
}

/// The wire name of each [`Member`], indexed by the member.
const KEYS: [&str; 23] = [
    "type",
    "request_id",
    "runtime",
    "agent_id",
    "agentId",
    "conversation_id",
    "conversationId",
    "delta",
    "loop_status",
    "turn_id",
    "run_id",
    "stop_reason",
    "error",
    "queue",
    "removed",
    "device_status",
    "request",
    "tool_call_id",
    "tool_name",
    "input",
    "accepted",
    "disposition",
    "success",
];

/// The known top-level members of a frame ([`Value::Absent`] when absent; a parsed member is
/// never absent).
pub(super) struct Envelope<'a> {
    values: [Value<'a>; KEYS.len()],
}

impl<'a> Envelope<'a> {
    /// Collects the known members; `None` when one of them appears twice.
    pub fn read(object: Object<'a>) -> Option<Self> {
        let mut values = [const { Value::Absent }; KEYS.len()];
        for (key, value) in object.into_members() {
            let Some(i) = KEYS.iter().position(|k| *k == key) else {
                continue;
            };
            let slot = values.get_mut(i)?;
            if !matches!(std::mem::replace(slot, value), Value::Absent) {
                return None;
            }
        }
        Some(Envelope { values })
    }

    /// Moves a member out (`Value::Absent` when missing or already taken).
    pub fn take(&mut self, member: Member) -> Value<'a> {
        match self.values.get_mut(member as usize) {
            Some(slot) => std::mem::take(slot),
            None => Value::Absent,
        }
    }

    /// A member's string, when it is a string.
    pub fn str(&mut self, member: Member) -> Option<Cow<'a, str>> {
        self.take(member).into_str()
    }

    /// A member's boolean, when it is a boolean.
    pub fn bool(&mut self, member: Member) -> Option<bool> {
        self.take(member).as_bool()
    }
}
