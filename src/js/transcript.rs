//! Binding of the transcript accumulator.
//!
//! Messages cross the boundary either as typed arguments (the common streamed text and
//! tool-call fragments: `applyText`, `applyTextWithIds`, `applyToolCall`) or as JSON text
//! (everything else, and history pages; a `JsString`, copied by `transport::text`). Changes
//! are collected until `takePatch()`, which returns a JSON patch describing only the rows
//! written since the last snapshot (or `undefined` when nothing changed), so the wrapper can
//! keep returning the very same array and row objects. The patch stays JSON: one `JSON.parse`
//! per snapshot is what keeps `applyMany` at about 1.9 M msgs/s (`bench/run accumulator`).

use js_sys::JsString;
use wasm_bindgen::prelude::*;

use crate::transport::text;

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

    /// Folds a text fragment with the identity of the previous one (see [`Self::apply_text`]).
    #[wasm_bindgen(js_name = applyText)]
    pub fn apply_same_ids(
        &mut self,
        kind: TextFragment,
        content: &str,
        seq_id: Option<f64>,
    ) -> i32 {
        self.apply_text(kind, content, seq_id)
    }

    /// Folds a text fragment whose identity (`uuid`, `otid`, `run_id`) differs from the
    /// previous fragment's; it holds for the next ones (see [`Self::apply_text`]).
    #[wasm_bindgen(js_name = applyTextWithIds)]
    pub fn apply_with_ids(
        &mut self,
        kind: TextFragment,
        content: &str,
        seq_id: Option<f64>,
        uuid: Option<String>,
        otid: Option<String>,
        run_id: Option<String>,
    ) -> i32 {
        self.text_ids = (uuid, otid, run_id);
        self.apply_text(kind, content, seq_id)
    }

    /// Folds one `tool_call` fragment whose fields the wrapper already type-checked
    /// (`tool_input_json`: its `toolInput` object as JSON); returns whether a row changed.
    #[wasm_bindgen(js_name = applyToolCall)]
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

    /// Folds one `SDKMessage` (JSON); returns whether a row changed.
    #[wasm_bindgen(js_name = applyMessage)]
    pub fn apply_message(&mut self, message: &JsString) -> bool {
        self.inner.apply_json(&text::to_string(message))
    }

    /// Merges a history page (JSON); `order` `"asc"` or `"desc"`, else detected. Returns
    /// whether a row changed.
    pub fn rebase(&mut self, page: &JsString, order: Option<String>) -> bool {
        let order = match order.as_deref() {
            Some("asc") => Some(HistoryOrder::Asc),
            Some("desc") => Some(HistoryOrder::Desc),
            _ => None,
        };
        self.inner.rebase_json(&text::to_string(page), order)
    }

    /// The patch since the previous take (JSON), or `undefined` when nothing changed.
    #[wasm_bindgen(js_name = takePatch)]
    pub fn take_patch(&mut self) -> Option<String> {
        self.inner.take_patch()
    }

    /// Forgets the pending change (the wrapper rebuilt the row itself).
    #[wasm_bindgen(js_name = discardPatch)]
    pub fn discard_patch(&mut self) {
        self.inner.discard_patch();
    }

    /// Drops every row, alias and replay threshold.
    pub fn reset(&mut self) {
        self.inner.reset();
    }

    /// `extractStreamTextDelta`: `{"kind","text"}` JSON or `null` (needs no rows).
    #[wasm_bindgen(js_name = extractStreamTextDelta)]
    pub fn extract_stream_text_delta(event: &str) -> String {
        extract_stream_text_delta_json(event)
    }
}

/// The kind of a streamed text fragment.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextFragment {
    Assistant = 1,
    Reasoning = 2,
}

impl TranscriptCore {
    /// Folds one `assistant` or `reasoning` fragment whose fields the wrapper already
    /// type-checked, with the identity last given to [`Self::apply_with_ids`] (streamed
    /// fragments of one message share it, so it crosses the boundary once per message).
    /// Returns `-1` nothing changed, `-2` rows changed (take the patch), `i >= 0` the only
    /// change since the last patch is this fragment written to the existing text row `i` — the
    /// wrapper may rebuild that row itself (then `discardPatch()`).
    fn apply_text(&mut self, kind: TextFragment, content: &str, seq_id: Option<f64>) -> i32 {
        let clean = !self.inner.has_changes();
        let kind = match kind {
            TextFragment::Reasoning => TextKind::Reasoning,
            TextFragment::Assistant => TextKind::Assistant,
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
}

impl Default for TranscriptCore {
    fn default() -> Self {
        Self::new()
    }
}
