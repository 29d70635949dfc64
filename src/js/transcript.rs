//! Binding of the transcript accumulator.
//!
//! Messages cross the boundary either as typed arguments (the common streamed text and
//! tool-call fragments: `applyFragment`) or as JSON text (everything else, and history pages:
//! `run`). Changes are collected until `run(TAKE_PATCH)`, which returns a
//! JSON patch describing only the rows written since the last snapshot (or `undefined` when
//! nothing changed), so the wrapper can keep returning the very same array and row objects.
//! Operation codes ([`op`]) select what `run` does: every exported method costs an export shim
//! and glue.

use wasm_bindgen::prelude::*;

use crate::transcript::{
    extract_stream_text_delta_json, HistoryOrder, SdkInput, TextInput, TextKind, ToolCallInput,
    TranscriptAccumulator,
};

/// The Rust side of one `createTranscriptAccumulator()` instance.
#[wasm_bindgen]
pub struct TranscriptCore {
    inner: TranscriptAccumulator,
    /// The identity of text fragments (see [`Self::apply_text`]).
    text_ids: (Option<String>, Option<String>, Option<String>),
}

#[wasm_bindgen]
impl TranscriptCore {
    #[wasm_bindgen(constructor)]
    pub fn new() -> TranscriptCore {
        TranscriptCore {
            inner: TranscriptAccumulator::new(),
            text_ids: (None, None, None),
        }
    }

    /// Folds one fragment whose fields the wrapper already type-checked: the typed fast path of
    /// streamed messages (one export for both kinds: each export costs a shim and glue).
    /// `kind` [`TOOL_CALL`] is [`Self::apply_tool_call`] with `text` its `tool_call_id` and
    /// `a`..`e` its `tool_name`, `raw_arguments`, `tool_input_json`, `uuid`, `run_id`; it returns
    /// `-2` when a row changed, else `-1`. Any other `kind` is [`Self::apply_text`] with `text`
    /// its content and `a`..`c` its `uuid`, `otid`, `run_id` (`d`, `e` unused).
    #[wasm_bindgen(js_name = applyFragment)]
    #[allow(clippy::too_many_arguments)]
    pub fn apply_fragment(
        &mut self,
        kind: u8,
        text: &str,
        seq_id: Option<f64>,
        a: Option<String>,
        b: Option<String>,
        c: Option<String>,
        d: Option<String>,
        e: Option<String>,
    ) -> i32 {
        if kind != TOOL_CALL {
            return self.apply_text(kind, text, seq_id, a, b, c);
        }
        if self.apply_tool_call(text, a, b, c, d, e) {
            -2
        } else {
            -1
        }
    }

    /// Runs the operation `op` (see [`op`]): folds JSON `text` in (returns `""` when a row
    /// changed), or takes the patch since the previous take (`undefined` when nothing changed),
    /// forgets it, or drops everything (`text` unused); or reads the token delta of the raw
    /// stream event `text` (which needs no rows: any instance does).
    pub fn run(&mut self, op: u8, text: &str) -> Option<String> {
        let inner = &mut self.inner;
        let changed = match op {
            op::MESSAGE => inner.apply_json(text),
            op::PAGE => inner.rebase_json(text, None),
            op::PAGE_ASC => inner.rebase_json(text, Some(HistoryOrder::Asc)),
            op::PAGE_DESC => inner.rebase_json(text, Some(HistoryOrder::Desc)),
            op::TAKE_PATCH => return inner.take_patch(),
            op::STREAM_TEXT_DELTA => return Some(extract_stream_text_delta_json(text)),
            op::DISCARD_PATCH => {
                inner.discard_patch();
                false
            }
            _ => {
                inner.reset();
                false
            }
        };
        changed.then(String::new)
    }
}

impl TranscriptCore {
    /// Folds one `assistant` (`kind` 1) or `reasoning` (`kind` 2) fragment whose fields the
    /// wrapper already type-checked. Streamed fragments of one message share their identity, so
    /// it crosses the boundary once per message: with [`NEW_IDS`] set in `kind`, `uuid`, `otid`
    /// and `run_id` are the identity of this fragment and the next ones; without, they are
    /// ignored and the last identity holds. Returns `-1` nothing changed, `-2` rows changed
    /// (take the patch), `i >= 0` the only change since the last patch is this fragment written
    /// to the existing text row `i` — the wrapper may rebuild that row itself (then
    /// [`op::DISCARD_PATCH`]).
    pub fn apply_text(
        &mut self,
        kind: u8,
        content: &str,
        seq_id: Option<f64>,
        uuid: Option<String>,
        otid: Option<String>,
        run_id: Option<String>,
    ) -> i32 {
        if kind & NEW_IDS != 0 {
            self.text_ids = (uuid, otid, run_id);
        }
        let clean = !self.inner.has_changes();
        let kind = if kind & !NEW_IDS == 2 {
            TextKind::Reasoning
        } else {
            TextKind::Assistant
        };
        let (uuid, otid, run_id) = &self.text_ids;
        let changed = self.inner.apply(&SdkInput::Text(TextInput {
            kind,
            content: content.into(),
            uuid: uuid.as_deref().map(Into::into),
            otid: otid.as_deref().map(Into::into),
            run_id: run_id.as_deref().map(Into::into),
            seq_id,
        }));
        if !changed {
            return -1;
        }
        match self.inner.only_changed_row() {
            Some(i) if clean => i32::try_from(i).unwrap_or(-2),
            _ => -2,
        }
    }

    /// Folds one `tool_call` fragment whose fields the wrapper already type-checked
    /// (`tool_input_json`: its `toolInput` object as JSON); returns whether a row changed.
    pub fn apply_tool_call(
        &mut self,
        tool_call_id: &str,
        tool_name: Option<String>,
        raw_arguments: Option<String>,
        tool_input_json: Option<String>,
        uuid: Option<String>,
        run_id: Option<String>,
    ) -> bool {
        // Not JSON, or JSON that is not an object: nothing changes.
        let tool_input = match tool_input_json.as_deref().map(crate::json::parse) {
            Some(Some(crate::json::Value::Object(input))) => Some(input),
            Some(_) => return false,
            None => None,
        };
        self.inner.apply(&SdkInput::ToolCall(ToolCallInput {
            tool_call_id: tool_call_id.into(),
            tool_name: tool_name.map(Into::into),
            tool_input,
            raw_arguments: raw_arguments.map(Into::into),
            uuid: uuid.map(Into::into),
            run_id: run_id.map(Into::into),
        }))
    }
}

/// The `kind` of [`TranscriptCore::apply_fragment`] for a `tool_call` fragment.
pub const TOOL_CALL: u8 = 8;

/// The `kind` flag of [`TranscriptCore::apply_text`]: the fragment's identity changed.
pub const NEW_IDS: u8 = 4;

/// The operations of [`TranscriptCore::run`] (`lib/ops.js` has the same numbers).
pub mod op {
    /// Fold one `SDKMessage`.
    pub const MESSAGE: u8 = 0;
    /// Merge a history page, its order detected.
    pub const PAGE: u8 = 1;
    /// Merge a history page, oldest first.
    pub const PAGE_ASC: u8 = 2;
    /// Merge a history page, newest first.
    pub const PAGE_DESC: u8 = 3;
    /// Take the patch.
    pub const TAKE_PATCH: u8 = 4;
    /// Forget the pending change (the wrapper rebuilt the row itself).
    pub const DISCARD_PATCH: u8 = 5;
    /// Drop every row, alias and replay threshold.
    pub const RESET: u8 = 6;
    /// `extractStreamTextDelta`: returns `{"kind","text"}` JSON or `null`.
    pub const STREAM_TEXT_DELTA: u8 = 7;
}

impl Default for TranscriptCore {
    fn default() -> Self {
        Self::new()
    }
}
