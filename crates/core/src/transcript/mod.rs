//! Transcript accumulator: folds `SDKMessage`s and history pages into render-ready rows
//! (the transcript rules of the reference SDK; the vectors in `tests/vectors/` pin them).
//!
//! Pure: no I/O, no clocks, no wasm-bindgen. Each apply costs O(1) amortized whatever the
//! transcript length: rows are found through hash tables (family-scoped aliases, toolCallIds),
//! text is appended in place, and changes are tracked per written row so a patch serializes only
//! what changed. Only `rebase` is O(rows).

mod history;
mod input;
mod json;
mod keys;
mod patch;
mod rebase;
mod replay;
mod rows;
mod stream_text;
mod tools;

#[cfg(test)]
mod tests;

pub use history::HistoryPage;
pub use input::{SdkInput, TextInput, ToolCallInput, ToolResultInput};
pub use replay::MAX_RUNS;
pub use rows::{Row, RowBody, RowKind, TextKind, ToolResult, ToolRow, ToolStatus};
pub use stream_text::{
    extract_stream_text_delta, extract_stream_text_delta_json, StreamEvent, TextDelta,
};

use keys::{Aliases, Resolved};
use patch::Changes;
use replay::ReplayTable;
use rows::Ids;
use tools::{ArgsMode, CallWrite, ResultWrite};

/// The order of a history page's messages (`rebase` options `{ order }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryOrder {
    /// Oldest first.
    Asc,
    /// Newest first (the default of `listMessages()` and `bootstrapState()`).
    Desc,
}

/// How a text write combines with the row's text (spec §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextMode {
    /// Live `apply`: previous text + slice text.
    Append,
    /// `rebase`: the history text replaces the row's text.
    Replace,
}

/// Folds streamed `SDKMessage`s and history pages into ordered transcript rows.
#[derive(Debug, Default)]
pub struct TranscriptAccumulator {
    rows: Vec<Row>,
    aliases: Aliases,
    replay: ReplayTable,
    changes: Changes,
}

impl TranscriptAccumulator {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// The current rows in transcript order.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// All current rows as a JSON array.
    pub fn rows_json(&self) -> String {
        crate::json::to_string(&self.rows)
    }

    /// Drops every row, alias, replay threshold, the anonymous-key counter and change tracking.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Parses one `SDKMessage` (JSON text) and folds it in. Returns true iff any row was written.
    /// Invalid input returns false and changes nothing.
    pub fn apply_json(&mut self, json: &str) -> bool {
        SdkInput::from_json(json).is_some_and(|m| self.apply(&m))
    }

    /// Applies a JSON array of `SDKMessage`s in order; invalid elements are skipped. Returns true
    /// iff any row was written; a non-array returns false.
    pub fn apply_many_json(&mut self, json: &str) -> bool {
        // One pass over the batch: every element is parsed as the array is read.
        let Some(messages) = crate::json::parse_array(json) else {
            return false;
        };
        let mut changed = false;
        for m in messages
            .into_iter()
            .filter_map(crate::json::Value::into_object)
        {
            if let Some(input) = SdkInput::from_object(m) {
                changed |= self.apply(&input);
            }
        }
        changed
    }

    /// Merges a history page given as JSON (`{messages:[…]}` or a bare array). Returns true iff
    /// any row was written or reordered; a page that is not an object or array returns false.
    pub fn rebase_json(&mut self, page_json: &str, order: Option<HistoryOrder>) -> bool {
        HistoryPage::from_json(page_json).is_some_and(|page| self.rebase(&page, order))
    }

    /// Folds one typed `SDKMessage` in (spec §7). Returns true iff any row was written. Invalid
    /// input (empty `toolCallId`, non-object `toolInput`, non-finite `seqId`) returns false and
    /// changes nothing.
    pub fn apply(&mut self, message: &SdkInput<'_>) -> bool {
        match message {
            SdkInput::Text(t) => {
                let ids = Ids {
                    uuid: t.uuid.as_deref(),
                    otid: t.otid.as_deref(),
                    run_id: t.run_id.as_deref(),
                    seq_id: t.seq_id,
                };
                self.apply_live_text(t.kind, &ids, &t.content)
            }
            SdkInput::ToolCall(c) => {
                if c.tool_call_id.is_empty() {
                    return false;
                }
                let write = CallWrite {
                    tool_call_id: &c.tool_call_id,
                    tool_name: c.tool_name.as_deref(),
                    tool_input: c.tool_input.as_ref(),
                    frag: c.raw_arguments.as_deref(),
                    ids: Ids {
                        uuid: c.uuid.as_deref(),
                        otid: None,
                        run_id: c.run_id.as_deref(),
                        seq_id: None,
                    },
                };
                self.write_tool_call(&write, ArgsMode::Fragment);
                true
            }
            SdkInput::ToolResult(r) => {
                if r.tool_call_id.is_empty() {
                    return false;
                }
                let write = ResultWrite {
                    tool_call_id: &r.tool_call_id,
                    content: &r.content,
                    is_error: r.is_error,
                    uuid: r.uuid.as_deref(),
                    run_id: r.run_id.as_deref(),
                    seq_id: None,
                };
                self.write_tool_result(&write);
                true
            }
            SdkInput::StreamEvent(event) => self.apply_stream_event(event),
            SdkInput::UserEcho { otid, text } => {
                let ids = Ids {
                    uuid: None,
                    otid: Some(otid),
                    run_id: None,
                    seq_id: None,
                };
                self.write_text(TextKind::User, &ids, text, TextMode::Replace);
                true
            }
            SdkInput::Ignored => false,
        }
    }

    /// Spec §8: text from a `stream_event`, with identity from the payload (the envelope uuid is
    /// ignored; anonymous deltas use the synthetic uuid `"<kind>:live"`).
    fn apply_stream_event(&mut self, event: &StreamEvent<'_>) -> bool {
        let Some(delta) = extract_stream_text_delta(event) else {
            return false;
        };
        let e = event.object();
        let id = e.get("id").as_str();
        let otid = e.get("otid").non_empty_str();
        let run_id = e.get("run_id");
        let identified = id.is_some_and(|s| !s.is_empty()) || otid.is_some();
        let live = match delta.kind {
            TextKind::User => "user:live",
            TextKind::Assistant => "assistant:live",
            TextKind::Reasoning => "reasoning:live",
        };
        let ids = Ids {
            uuid: if identified { id } else { Some(live) },
            otid,
            run_id: run_id.as_str(),
            seq_id: json::finite(e.get("seq_id")),
        };
        self.apply_live_text(delta.kind, &ids, &delta.text)
    }

    /// A live text slice: replay-checked (spec §4), then appended.
    fn apply_live_text(&mut self, kind: TextKind, ids: &Ids<'_>, text: &str) -> bool {
        if ids.seq_id.is_some_and(|s| !s.is_finite()) || !self.replay.admit(ids.run_id, ids.seq_id)
        {
            return false;
        }
        self.write_text(kind, ids, text, TextMode::Append);
        true
    }

    /// Resolves a text slice to its row (creating it) and writes it; returns the row index.
    fn write_text(&mut self, kind: TextKind, ids: &Ids<'_>, text: &str, mode: TextMode) -> usize {
        // Empty ids count as absent for identity resolution (spec §3).
        let uuid = ids.uuid.filter(|s| !s.is_empty());
        let otid = ids.otid.filter(|s| !s.is_empty());
        // The alias that resolved the row already points there; the others are bound to it.
        let (index, bind_uuid, bind_otid) =
            match self.aliases.resolve_text(&self.rows, kind, uuid, otid) {
                Resolved::Existing {
                    index,
                    by_otid: true,
                } => (index, uuid, None),
                Resolved::Existing {
                    index,
                    by_otid: false,
                } => (index, None, otid),
                Resolved::New(key) => (self.push_row(Row::new_text(key, kind)), uuid, otid),
            };
        self.aliases.bind_text(kind, bind_uuid, bind_otid, index);
        if let Some(RowBody::Text(t)) = self.write_row(index, ids) {
            if mode == TextMode::Replace {
                t.clear();
            }
            t.push_str(text);
        }
        index
    }
}
