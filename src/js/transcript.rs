//! Binding of the transcript accumulator.
//!
//! Messages cross the boundary either as typed arguments (the common streamed text fragment:
//! `applyText`, and tool-call fragments: `applyToolCall`) or as JSON text (everything else,
//! and history pages: `applyJson`). Changes are collected until `patch(TAKE)`, which returns a
//! JSON patch describing only the rows written since the last snapshot (or `undefined` when
//! nothing changed), so the wrapper can keep returning the very same array and row objects.
//! Operation codes ([`json_input`], [`patch_op`]) select what a method does: every exported
//! method costs an export shim and glue.

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
    /// wrapper already type-checked, with the identity of the last `setTextIds`. Returns `-1`
    /// nothing changed, `-2` rows changed (take the patch), `i >= 0` the only change since the
    /// last patch is this fragment written to the existing text row `i` — the wrapper may
    /// rebuild that row itself (then [`patch_op::DISCARD`]).
    #[wasm_bindgen(js_name = applyText)]
    pub fn apply_text(&mut self, kind: u8, content: &str, seq_id: Option<f64>) -> i32 {
        let clean = !self.inner.has_changes();
        let kind = if kind == 2 {
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

    /// Folds JSON text in: one message ([`json_input::MESSAGE`]) or a history page to merge
    /// ([`json_input::PAGE`] with the order detected, [`json_input::PAGE_ASC`], [`json_input::PAGE_DESC`]).
    /// Returns whether a row changed.
    #[wasm_bindgen(js_name = applyJson)]
    pub fn apply_json(&mut self, op: u8, text: &str) -> bool {
        let order = match op {
            json_input::MESSAGE => return self.inner.apply_json(text),
            json_input::PAGE_ASC => Some(HistoryOrder::Asc),
            json_input::PAGE_DESC => Some(HistoryOrder::Desc),
            _ => None,
        };
        self.inner.rebase_json(text, order)
    }

    /// Takes the patch since the previous take ([`patch_op::TAKE`]; `undefined` when nothing
    /// changed), forgets it ([`patch_op::DISCARD`]: the wrapper rebuilt the row itself) or drops
    /// every row, alias and replay threshold ([`patch_op::RESET`]).
    pub fn patch(&mut self, op: u8) -> Option<String> {
        match op {
            patch_op::TAKE => return self.inner.take_patch(),
            patch_op::DISCARD => self.inner.discard_patch(),
            _ => self.inner.reset(),
        }
        None
    }
}

/// What [`TranscriptCore::apply_json`] reads (`lib/transcript.js` uses the same numbers).
pub mod json_input {
    /// One `SDKMessage`.
    pub const MESSAGE: u8 = 0;
    /// A history page, its order detected.
    pub const PAGE: u8 = 1;
    /// A history page, oldest first.
    pub const PAGE_ASC: u8 = 2;
    /// A history page, newest first.
    pub const PAGE_DESC: u8 = 3;
}

/// What [`TranscriptCore::patch`] does (`lib/transcript.js` uses the same numbers).
pub mod patch_op {
    /// Take the patch.
    pub const TAKE: u8 = 0;
    /// Forget the pending change.
    pub const DISCARD: u8 = 1;
    /// Drop everything.
    pub const RESET: u8 = 2;
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
