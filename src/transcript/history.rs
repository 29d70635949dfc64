//! History pages (spec §6): lenient parsing of Letta API messages.
//!
//! History is read leniently: a message that cannot be mapped is skipped, and a member of the
//! wrong type reads as absent. Only a page that is neither an object nor an array is rejected.

use super::json::{lenient_object, ContentText, Key, Loose};
use serde::de::{Deserialize, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// A history page: the messages of `{ messages: [...] }` or of a bare array, in page order.
#[derive(Debug, Default)]
pub struct HistoryPage<'a> {
    pub(super) messages: Vec<HistoryMessage<'a>>,
}

impl<'a> HistoryPage<'a> {
    /// Reads a page from JSON text. `None` when the text is not a JSON object or array. An object
    /// without an array `messages` member is an empty page.
    pub fn from_json(json: &'a str) -> Option<HistoryPage<'a>> {
        serde_json::from_str(json).ok()
    }

    /// Reads a page from a `serde_json::Value` (same rules as [`HistoryPage::from_json`]).
    pub fn from_value(value: &'a serde_json::Value) -> Option<HistoryPage<'a>> {
        HistoryPage::deserialize(value).ok()
    }

    /// The number of messages on the page (including ones that will be skipped).
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// True when the page has no messages.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

impl<'de> Deserialize<'de> for HistoryPage<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PageVisitor;
        impl<'de> Visitor<'de> for PageVisitor {
            type Value = HistoryPage<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a history page (an object or an array)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                Ok(HistoryPage {
                    messages: MessageList::from_seq(seq)?,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut messages = Vec::new();
                while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                    if k == "messages" {
                        messages = map.next_value::<MessageList<'de>>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(HistoryPage { messages })
            }
        }
        d.deserialize_any(PageVisitor)
    }
}

/// `messages`: an array of messages; any other value reads as no messages.
struct MessageList<'a>(Vec<HistoryMessage<'a>>);

impl<'de> MessageList<'de> {
    fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<HistoryMessage<'de>>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(m) = seq.next_element::<HistoryMessage<'de>>()? {
            out.push(m);
        }
        Ok(out)
    }
}

impl<'de> Deserialize<'de> for MessageList<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = MessageList<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                MessageList::from_seq(seq).map(MessageList)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(MessageList(Vec::new()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(MessageList(Vec::new()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(MessageList(Vec::new()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(MessageList(Vec::new()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(MessageList(Vec::new()))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(MessageList(Vec::new()))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(MessageList(Vec::new()))
            }
        }
        d.deserialize_any(ListVisitor)
    }
}

/// One Letta API message (`message_type` …), with only the members the mapping reads.
#[derive(Debug, Default)]
pub(super) struct HistoryMessage<'a> {
    pub is_object: bool,
    pub message_type: Loose<'a>,
    pub id: Loose<'a>,
    pub otid: Loose<'a>,
    pub run_id: Loose<'a>,
    pub seq_id: Loose<'a>,
    pub date: Loose<'a>,
    pub content: ContentText<'a>,
    pub reasoning: Loose<'a>,
    /// The first element of `tool_calls` (or `tool_calls` itself when it is an object).
    pub tool_calls: FirstOf<ToolCallPart<'a>>,
    pub tool_call: ToolCallPart<'a>,
    pub tool_call_id: Loose<'a>,
    pub tool_return: ContentText<'a>,
    /// The first element of `tool_returns`.
    pub tool_returns: FirstOf<ToolReturnPart<'a>>,
    pub status: Loose<'a>,
}

lenient_object!(HistoryMessage, |map, out| {
    "message_type" => out.message_type = map.next_value()?,
    "id" => out.id = map.next_value()?,
    "otid" => out.otid = map.next_value()?,
    "run_id" => out.run_id = map.next_value()?,
    "seq_id" => out.seq_id = map.next_value()?,
    "date" => out.date = map.next_value()?,
    "content" => out.content = map.next_value()?,
    "reasoning" => out.reasoning = map.next_value()?,
    "tool_calls" => out.tool_calls = map.next_value()?,
    "tool_call" => out.tool_call = map.next_value()?,
    "tool_call_id" => out.tool_call_id = map.next_value()?,
    "tool_return" => out.tool_return = map.next_value()?,
    "tool_returns" => out.tool_returns = map.next_value()?,
    "status" => out.status = map.next_value()?,
});

/// One tool call: `{ tool_call_id | id, name | function.name, arguments | function.arguments }`.
#[derive(Debug, Default)]
pub(super) struct ToolCallPart<'a> {
    pub is_object: bool,
    pub tool_call_id: Loose<'a>,
    pub id: Loose<'a>,
    pub name: Loose<'a>,
    pub arguments: Arguments<'a>,
    pub function: FunctionPart<'a>,
}

lenient_object!(ToolCallPart, |map, out| {
    "tool_call_id" => out.tool_call_id = map.next_value()?,
    "id" => out.id = map.next_value()?,
    "name" => out.name = map.next_value()?,
    "arguments" => out.arguments = map.next_value()?,
    "function" => out.function = map.next_value()?,
});

/// The OpenAI-style nested `function: { name, arguments }`.
#[derive(Debug, Default)]
pub(super) struct FunctionPart<'a> {
    pub is_object: bool,
    pub name: Loose<'a>,
    pub arguments: Arguments<'a>,
}

lenient_object!(FunctionPart, |map, out| {
    "name" => out.name = map.next_value()?,
    "arguments" => out.arguments = map.next_value()?,
});

/// The first entry of `tool_returns`.
#[derive(Debug, Default)]
pub(super) struct ToolReturnPart<'a> {
    pub is_object: bool,
    pub tool_call_id: Loose<'a>,
    pub tool_return: ContentText<'a>,
    pub content: ContentText<'a>,
    pub status: Loose<'a>,
}

lenient_object!(ToolReturnPart, |map, out| {
    "tool_call_id" => out.tool_call_id = map.next_value()?,
    "tool_return" => out.tool_return = map.next_value()?,
    "content" => out.content = map.next_value()?,
    "status" => out.status = map.next_value()?,
});

/// Tool-call arguments: a JSON string (argument text), an object (decoded arguments), or
/// something that changes nothing.
#[derive(Debug, Default)]
pub(super) enum Arguments<'a> {
    #[default]
    Absent,
    Null,
    Text(Cow<'a, str>),
    Object(Box<RawValue>),
    Other,
}

impl<'de> Deserialize<'de> for Arguments<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        let text = raw.get();
        Ok(match text.as_bytes().first() {
            Some(b'{') => Arguments::Object(raw),
            Some(b'n') => Arguments::Null,
            Some(b'"') => match serde_json::from_str::<String>(text) {
                Ok(s) => Arguments::Text(Cow::Owned(s)),
                Err(e) => return Err(D::Error::custom(e)),
            },
            _ => Arguments::Other,
        })
    }
}

impl Arguments<'_> {
    /// Absent or `null`.
    pub fn is_nullish(&self) -> bool {
        matches!(self, Arguments::Absent | Arguments::Null)
    }
}

/// An object member that holds either one `T` object or an array whose first element is used.
#[derive(Debug)]
pub(super) struct FirstOf<T>(pub Option<T>);

impl<T> Default for FirstOf<T> {
    fn default() -> Self {
        FirstOf(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for FirstOf<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = FirstOf<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(FirstOf(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(FirstOf(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(FirstOf(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(FirstOf(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(FirstOf(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(FirstOf(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let first = seq.next_element::<T>()?;
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(FirstOf(first))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|t| FirstOf(Some(t)))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}
