//! History pages (spec §6): lenient reading of Letta API messages and their mapping onto rows
//! (spec §6.1).
//!
//! History is read leniently: a message that cannot be mapped is skipped, and a member of the
//! wrong type reads as absent. Only a page that is neither an object nor an array is rejected.

use super::json::{content_text, finite, first_object, non_empty, parse_elements, Element};
use super::rows::{Ids, TextKind};
use super::tools::{ArgsMode, CallWrite, ResultWrite};
use super::{TextMode, TranscriptAccumulator};
use crate::json::{Object, Value};

/// A history page: the messages of `{ messages: [...] }` or of a bare array, in page order.
#[derive(Debug, Default)]
pub struct HistoryPage<'a> {
    /// One entry per array element; `None` for elements that are not objects.
    pub(super) messages: Vec<Element<'a>>,
}

impl<'a> HistoryPage<'a> {
    /// Reads a page from JSON text. `None` when the text is not a JSON object or array. An object
    /// without an array `messages` member is an empty page.
    pub fn from_json(json: &'a str) -> Option<HistoryPage<'a>> {
        let messages = if json.trim_start().starts_with('[') {
            parse_elements(json)?
        } else {
            match Object::parse(json)?.get("messages") {
                Value::Array(raw) => parse_elements(raw.get())?,
                _ => Vec::new(),
            }
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
                m.str("reasoning")
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
        let tool_call_id =
            non_empty(call.str("tool_call_id")).or_else(|| non_empty(call.str("id")))?;
        let function = call.object("function");
        let tool_name =
            non_empty(call.str("name")).or_else(|| non_empty(function.as_ref()?.str("name")));
        let mut args = call.get("arguments");
        if args.is_nullish() {
            args = function.map_or(Value::Absent, |f| f.get("arguments"));
        }
        let (frag, tool_input) = match &args {
            Value::String(s) => (Some(&**s), None),
            Value::Object(raw) => (None, Some(*raw)),
            _ => (None, None),
        };
        let write = CallWrite {
            tool_call_id: &tool_call_id,
            tool_name: tool_name.as_deref(),
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
        let tool_call_id =
            non_empty(m.str("tool_call_id")).or_else(|| non_empty(first?.str("tool_call_id")))?;
        let content = content_text(m.get("tool_return"))
            .or_else(|| content_text(first?.get("tool_return")))
            .or_else(|| content_text(first?.get("content")))
            .unwrap_or_default();
        let status = m.str("status").or_else(|| first?.str("status"));
        let write = ResultWrite {
            tool_call_id: &tool_call_id,
            content: &content,
            is_error: status.as_deref() == Some("error"),
            uuid: ids.uuid,
            run_id: ids.run_id,
            seq_id: ids.seq_id,
        };
        Some(self.write_tool_result(&write))
    }
}

/// The identity fields of a history message, as `rebase` reads them.
pub(super) struct HistoryIds<'a> {
    id: Value<'a>,
    otid: Value<'a>,
    run_id: Value<'a>,
    pub seq_id: Option<f64>,
}

impl<'a> HistoryIds<'a> {
    pub fn read(m: &Object<'a>) -> HistoryIds<'a> {
        HistoryIds {
            id: m.get("id"),
            otid: m.get("otid"),
            run_id: m.get("run_id"),
            seq_id: finite(&m.get("seq_id")),
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
