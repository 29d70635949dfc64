//! History pages (spec §6): lenient reading of Letta API messages and their mapping onto rows
//! (spec §6.1).
//!
//! History is read leniently: a message that cannot be mapped is skipped, and a member of the
//! wrong type reads as absent. Only a page that is neither an object nor an array is rejected.

use super::json::{finite, first_object, non_empty};
use super::rows::{Ids, TextKind};
use super::tools::{ArgsMode, CallWrite, ResultWrite};
use super::{TextMode, TranscriptAccumulator};
use crate::json::content_text;
use crate::json::{parse, Object, Value};
use std::borrow::Cow;

/// A history page: the messages of `{ messages: [...] }` or of a bare array, in page order.
#[derive(Debug, Default)]
pub struct HistoryPage<'a> {
    /// One entry per array element (elements that are not objects are skipped when read).
    pub(super) messages: Vec<Value<'a>>,
}

impl<'a> HistoryPage<'a> {
    /// Reads a page from JSON text. `None` when the text is not a JSON object or array. An object
    /// without an array `messages` member is an empty page.
    pub fn from_json(json: &'a str) -> Option<HistoryPage<'a>> {
        let messages = match parse(json)? {
            Value::Array(items) => items,
            Value::Object(mut page) => page.take("messages").into_array().unwrap_or_default(),
            _ => return None,
        };
        Some(HistoryPage { messages })
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

impl TranscriptAccumulator {
    /// Maps one history message onto a row (spec §6.1); returns the row it wrote. `ids` are the
    /// message's `id`, non-empty `otid` and `run_id`, and finite `seq_id`.
    pub(super) fn apply_history(&mut self, m: &Object<'_>, ids: Ids<'_>) -> Option<usize> {
        let (kind, text) = match m.get("message_type").as_str()? {
            "user_message" => (TextKind::User, content_text(m.get("content"))?),
            "assistant_message" => (TextKind::Assistant, content_text(m.get("content"))?),
            // `reasoning` wins when it is a string, even an empty one.
            "reasoning_message" => (
                TextKind::Reasoning,
                m.get("reasoning")
                    .as_str()
                    .map(Cow::Borrowed)
                    .or_else(|| content_text(m.get("content")))?,
            ),
            "tool_call_message" | "approval_request_message" => return self.history_call(m, ids),
            "tool_return_message" => return self.history_return(m, ids),
            _ => return None,
        };
        Some(self.write_text(kind, &ids, &text, TextMode::Replace))
    }

    /// The first tool call of `tool_calls` (or `tool_calls` itself), else `tool_call`.
    fn history_call(&mut self, m: &Object<'_>, ids: Ids<'_>) -> Option<usize> {
        let call = first_object(m.get("tool_calls")).or_else(|| m.object("tool_call"))?;
        let tool_call_id = text(call, "tool_call_id").or_else(|| text(call, "id"))?;
        let function = call.object("function");
        let tool_name = text(call, "name").or_else(|| text(function?, "name"));
        let mut args = call.get("arguments");
        if args.is_nullish() {
            args = function.map_or(Value::absent(), |f| f.get("arguments"));
        }
        let (frag, tool_input) = match args {
            Value::String(s) => (Some(s.as_ref()), None),
            Value::Object(input) => (None, Some(input)),
            _ => (None, None),
        };
        let write = CallWrite {
            tool_call_id,
            tool_name,
            tool_input,
            frag,
            ids,
        };
        Some(self.write_tool_call(&write, ArgsMode::Whole))
    }

    /// A result from the top-level members, else from the first of `tool_returns`.
    fn history_return(&mut self, m: &Object<'_>, ids: Ids<'_>) -> Option<usize> {
        let first = first_object(m.get("tool_returns"));
        let first = first.as_ref();
        let tool_call_id = text(m, "tool_call_id").or_else(|| text(first?, "tool_call_id"))?;
        let content = content_text(m.get("tool_return"))
            .or_else(|| content_text(first?.get("tool_return")))
            .or_else(|| content_text(first?.get("content")))
            .unwrap_or_default();
        let status = m
            .get("status")
            .as_str()
            .or_else(|| first?.get("status").as_str());
        let write = ResultWrite {
            tool_call_id,
            content: &content,
            is_error: status == Some("error"),
            uuid: ids.uuid,
            run_id: ids.run_id,
            seq_id: ids.seq_id,
        };
        Some(self.write_tool_result(&write))
    }
}

/// A string member that is present and non-empty.
fn text<'t>(o: &'t Object<'_>, key: &str) -> Option<&'t str> {
    non_empty(o.get(key).as_str())
}

/// The identity fields of a history message, as `rebase` reads them.
pub(super) struct HistoryIds<'a> {
    id: &'a Value<'a>,
    otid: &'a Value<'a>,
    run_id: &'a Value<'a>,
    pub seq_id: Option<f64>,
}

impl<'a> HistoryIds<'a> {
    pub fn read(m: &'a Object<'a>) -> HistoryIds<'a> {
        HistoryIds {
            id: m.get("id"),
            otid: m.get("otid"),
            run_id: m.get("run_id"),
            seq_id: finite(m.get("seq_id")),
        }
    }

    /// `uuid` is `id` (any string); `otid` and `run_id` only when non-empty.
    pub fn ids(&self) -> Ids<'_> {
        Ids {
            uuid: self.id.as_str(),
            otid: self.otid.non_empty_str(),
            run_id: self.run_id.non_empty_str(),
            seq_id: self.seq_id,
        }
    }
}
