//! Runtime scope (`{agent_id, conversation_id}`) and the `sameRuntime` frame filter (spec §3.3).

use super::lenient::Field;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;

/// The runtime a session is bound to. `agent_id` is `None` (JSON `null`) for agent-free sessions.
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
        agent_id: Field<'a>,
        /// `runtime.conversation_id`.
        conversation_id: Field<'a>,
    },
    /// A truthy non-object (never matches, as `undefined !== <id>` in the reference).
    Other,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct RuntimeObject<'a> {
    #[serde(borrow)]
    agent_id: Field<'a>,
    #[serde(borrow)]
    conversation_id: Field<'a>,
}

struct RuntimeVisitor;

impl<'de> Visitor<'de> for RuntimeVisitor {
    type Value = RuntimeField<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let obj = RuntimeObject::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
        Ok(RuntimeField::Object {
            agent_id: obj.agent_id,
            conversation_id: obj.conversation_id,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(RuntimeField::Other)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(if v {
            RuntimeField::Other
        } else {
            RuntimeField::Falsy
        })
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(if v == 0 {
            RuntimeField::Falsy
        } else {
            RuntimeField::Other
        })
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(if v == 0 {
            RuntimeField::Falsy
        } else {
            RuntimeField::Other
        })
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(if v == 0.0 {
            RuntimeField::Falsy
        } else {
            RuntimeField::Other
        })
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(if v.is_empty() {
            RuntimeField::Falsy
        } else {
            RuntimeField::Other
        })
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(RuntimeField::Falsy)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(RuntimeField::Falsy)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for RuntimeField<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RuntimeVisitor)
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
                    (Field::Null, None) => true,
                    (Field::Str(a), Some(b)) => a == b,
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
                    Field::Str(s) => Some(s.to_string()),
                    Field::Null => None,
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
