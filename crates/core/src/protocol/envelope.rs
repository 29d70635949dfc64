//! The top-level members of an incoming frame, collected in one pass over its object.
//!
//! Every member the client may read is moved out of the parsed object once, so building a frame
//! costs one table lookup per member instead of one search per read. A frame that repeats one of
//! these members is ambiguous and rejected (as before the move to [`crate::json`]); repeated
//! unknown members are ignored.

use crate::json::{Object, Value};
use std::borrow::Cow;

/// The known top-level members (their wire names: [`Member::of`]).
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

impl Member {
    /// The member a top-level key names. A `match` (dispatched on length and bytes), not a scan
    /// of a name table: it runs for every member of every frame.
    fn of(key: &str) -> Option<Member> {
        Some(match key {
            "type" => Member::Type,
            "request_id" => Member::RequestId,
            "runtime" => Member::Runtime,
            "agent_id" => Member::AgentId,
            "agentId" => Member::AgentIdCamel,
            "conversation_id" => Member::ConversationId,
            "conversationId" => Member::ConversationIdCamel,
            "delta" => Member::Delta,
            "loop_status" => Member::LoopStatus,
            "turn_id" => Member::TurnId,
            "run_id" => Member::RunId,
            "stop_reason" => Member::StopReason,
            "error" => Member::Error,
            "queue" => Member::Queue,
            "removed" => Member::Removed,
            "device_status" => Member::DeviceStatus,
            "request" => Member::Request,
            "tool_call_id" => Member::ToolCallId,
            "tool_name" => Member::ToolName,
            "input" => Member::Input,
            "accepted" => Member::Accepted,
            "disposition" => Member::Disposition,
            "success" => Member::Success,
            _ => return None,
        })
    }
}

/// How many members there are (the last one's index + 1).
const MEMBER_COUNT: usize = Member::Success as usize + 1;

/// The known top-level members of a frame ([`Value::Absent`] when absent; a parsed member is
/// never absent).
pub(super) struct Envelope<'a> {
    values: [Value<'a>; MEMBER_COUNT],
}

impl<'a> Envelope<'a> {
    /// Collects the known members; `None` when one of them appears twice.
    pub fn read(object: Object<'a>) -> Option<Self> {
        let mut values = [const { Value::Absent }; MEMBER_COUNT];
        for (key, value) in object.into_members() {
            let Some(member) = Member::of(&key) else {
                continue;
            };
            let slot = values.get_mut(member as usize)?;
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
