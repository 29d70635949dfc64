//! Runtime scope (`{agent_id, conversation_id}`) and the `sameRuntime` frame filter (spec §3.3).

use crate::json::Value;
use serde::Serialize;
use std::borrow::Cow;

/// The runtime a session is bound to. `agent_id` is `None` (JSON `null`) for agent-free sessions:
/// written as `{"agent_id": <string or null>, "conversation_id": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Runtime {
    /// Agent id, or `null` for an agent-free conversation.
    pub agent_id: Option<String>,
    /// Conversation id (`"default"` allowed).
    pub conversation_id: String,
}

impl Runtime {
    /// A runtime with an agent.
    pub fn new(agent_id: impl Into<String>, conversation_id: impl Into<String>) -> Self {
        Runtime {
            agent_id: Some(agent_id.into()),
            conversation_id: conversation_id.into(),
        }
    }

    /// An agent-free runtime (`agent_id: null`).
    pub fn agent_free(conversation_id: impl Into<String>) -> Self {
        Runtime {
            agent_id: None,
            conversation_id: conversation_id.into(),
        }
    }
}

/// The `runtime` key of a frame, by JS truthiness: absent/falsy, an object, or another truthy value.
#[derive(Debug, Clone, Default)]
pub enum RuntimeField<'a> {
    /// Absent, `null`, `false`, `0` or `""`: the top-level ids decide.
    #[default]
    Falsy,
    /// An object; its ids must equal the session's.
    Object {
        /// `runtime.agent_id` (missing, null or a string).
        agent_id: Value<'a>,
        /// `runtime.conversation_id`.
        conversation_id: Value<'a>,
    },
    /// A truthy non-object (never matches, as `undefined !== <id>` in the reference).
    Other,
}

impl<'a> RuntimeField<'a> {
    /// Classifies a frame's `runtime` member by JS truthiness.
    pub fn from_value(value: Value<'a>) -> Self {
        match value {
            Value::Absent | Value::Null | Value::Bool(false) => RuntimeField::Falsy,
            Value::Number(0.0) => RuntimeField::Falsy,
            Value::String(s) if s.is_empty() => RuntimeField::Falsy,
            Value::Object(mut object) => RuntimeField::Object {
                agent_id: object.take("agent_id"),
                conversation_id: object.take("conversation_id"),
            },
            _ => RuntimeField::Other,
        }
    }
}

/// Where a frame says it belongs: its `runtime`, else top-level `agent_id`/`agentId` and
/// `conversation_id`/`conversationId` (strings only). Frames with no scope belong everywhere.
#[derive(Debug, Clone, Default)]
pub struct FrameScope<'a> {
    /// The frame's `runtime` key.
    pub runtime: RuntimeField<'a>,
    /// Top-level `agent_id` (else `agentId`), when a string.
    pub agent_id: Option<Cow<'a, str>>,
    /// Top-level `conversation_id` (else `conversationId`), when a string.
    pub conversation_id: Option<Cow<'a, str>>,
}

impl FrameScope<'_> {
    /// The `sameRuntime` filter of spec §3.3: with a `runtime`, both ids must equal the session's
    /// (a missing `runtime.agent_id` does not equal `null`, as in the reference); otherwise each
    /// non-empty top-level id must equal the session's.
    pub fn matches(&self, runtime: &Runtime) -> bool {
        match &self.runtime {
            RuntimeField::Object {
                agent_id,
                conversation_id,
            } => {
                let agent_ok = match (agent_id, &runtime.agent_id) {
                    (Value::Null, None) => true,
                    (Value::String(a), Some(b)) => a == b,
                    _ => false,
                };
                agent_ok && conversation_id.as_str() == Some(runtime.conversation_id.as_str())
            }
            RuntimeField::Other => false,
            RuntimeField::Falsy => {
                if let Some(agent) = self.agent_id.as_deref().filter(|s| !s.is_empty()) {
                    if runtime.agent_id.as_deref() != Some(agent) {
                        return false;
                    }
                }
                if let Some(conv) = self.conversation_id.as_deref().filter(|s| !s.is_empty()) {
                    if runtime.conversation_id != conv {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// The conversation id the frame names (its runtime's, else the top-level one), if any.
    pub fn conversation_id(&self) -> Option<&str> {
        match &self.runtime {
            RuntimeField::Object {
                conversation_id, ..
            } => conversation_id.as_str(),
            _ => self.conversation_id.as_deref(),
        }
    }

    /// The runtime the frame names, when its `runtime` object has a string `conversation_id`
    /// (agent id string or null); used e.g. to key approval decisions.
    pub fn runtime(&self) -> Option<Runtime> {
        match &self.runtime {
            RuntimeField::Object {
                agent_id,
                conversation_id,
            } => {
                let conversation_id = conversation_id.as_str()?.to_owned();
                let agent_id = match agent_id {
                    Value::String(s) => Some(s.as_ref().to_owned()),
                    Value::Null => None,
                    _ => return None,
                };
                Some(Runtime {
                    agent_id,
                    conversation_id,
                })
            }
            _ => {
                let conversation_id = self.conversation_id.as_deref()?.to_owned();
                Some(Runtime {
                    agent_id: self.agent_id.as_deref().map(str::to_owned),
                    conversation_id,
                })
            }
        }
    }
}
