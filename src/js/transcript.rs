//! Binding of the transcript accumulator.
//!
//! Messages cross the boundary either as typed arguments (the common streamed text fragment:
//! `applyText`) or as JSON text (everything else: `applyJson`). Changes are collected until
//! `takePatch`, which returns a JSON patch describing only the rows written since the last
//! snapshot (or `undefined` when nothing changed), so the wrapper can keep returning the very
//! same array and row objects.

use wasm_bindgen::prelude::*;

use crate::transcript::{
    extract_stream_text_delta_json, HistoryOrder, SdkInput, TextInput, TextKind, ToolCallInput,
    TranscriptAccumulator,
};

/// The Rust side of one `createTranscriptAccumulator()` instance.
#[wasm_bindgen]
pub struct TranscriptCore {
    inner: TranscriptAccumulator,
    /// The identity of text fragments (see `setTextIds`).
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

    /// Sets the identity (`uuid`, `otid`, `runId`) that the next `applyText` calls use: streamed
    /// fragments of one message share it, so it crosses the boundary once per message.
    #[wasm_bindgen(js_name = setTextIds)]
    pub fn set_text_ids(
        &mut self,
        uuid: Option<String>,
        otid: Option<String>,
        run_id: Option<String>,
    ) {
        self.text_ids = (uuid, otid, run_id);
    }

    /// Folds one `assistant` (`kind` 1) or `reasoning` (`kind` 2) fragment whose fields the
    /// wrapper already type-checked, with the identity of the last `setTextIds`; returns whether
    /// a row changed.
    #[wasm_bindgen(js_name = applyText)]
    pub fn apply_text(&mut self, kind: u8, content: &str, seq_id: Option<f64>) -> bool {
        let kind = if kind == 2 {
            TextKind::Reasoning
        } else {
            TextKind::Assistant
        };
        let (uuid, otid, run_id) = &self.text_ids;
        self.inner.apply(&SdkInput::Text(TextInput {
            kind,
            content: content.into(),
            uuid: uuid.as_deref().map(Into::into),
            otid: otid.as_deref().map(Into::into),
            run_id: run_id.as_deref().map(Into::into),
            seq_id,
        }))
    }

    /// `applyText` for a single `apply()`: `-1` nothing changed, `-2` rows changed (take the
    /// patch), `i >= 0` the only change since the last patch is this fragment written to the
    /// existing text row `i` — the wrapper may rebuild that row itself (then `discardPatch`).
    #[wasm_bindgen(js_name = applyTextAt)]
    pub fn apply_text_at(&mut self, kind: u8, content: &str, seq_id: Option<f64>) -> i32 {
        let clean = !self.inner.has_changes();
        if !self.apply_text(kind, content, seq_id) {
            return -1;
        }
        match self.inner.only_changed_row() {
            Some(i) if clean => i32::try_from(i).unwrap_or(-2),
            _ => -2,
        }
    }

    /// Forgets the pending change (the wrapper rebuilt the row itself).
    #[wasm_bindgen(js_name = discardPatch)]
    pub fn discard_patch(&mut self) {
        self.inner.discard_patch();
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

    /// Folds one message given as JSON text; returns whether a row changed.
    #[wasm_bindgen(js_name = applyJson)]
    pub fn apply_json(&mut self, message_json: &str) -> bool {
        self.inner.apply_json(message_json)
    }

    /// Merges a history page (JSON text). `order`: 0 = auto-detect, 1 = asc, 2 = desc.
    pub fn rebase(&mut self, page_json: &str, order: u8) -> bool {
        let order = match order {
            1 => Some(HistoryOrder::Asc),
            2 => Some(HistoryOrder::Desc),
            _ => None,
        };
        self.inner.rebase_json(page_json, order)
    }

    /// The patch since the previous call, or `undefined` when nothing changed.
    #[wasm_bindgen(js_name = takePatch)]
    pub fn take_patch(&mut self) -> Option<String> {
        self.inner.take_patch()
    }

    /// Drops every row, alias and replay threshold.
    pub fn reset(&mut self) {
        self.inner.reset();
    }
}

impl Default for TranscriptCore {
    fn default() -> Self {
        Self::new()
    }
}

/// `extractStreamTextDelta` on a JSON event; returns `{"kind","text"}` JSON or `null`.
#[wasm_bindgen(js_name = extractStreamTextDelta)]
pub fn extract_stream_text_delta(event_json: &str) -> String {
    extract_stream_text_delta_json(event_json)
}
