//! Binding of the transcript accumulator.
//!
//! Messages cross the boundary as JSON text (the wrapper `JSON.stringify`s them), and the
//! result is a JSON patch describing only the rows that changed, or `undefined` when nothing
//! changed, so that the wrapper can keep returning the very same array and row objects.

use wasm_bindgen::prelude::*;

use crate::transcript::{extract_stream_text_delta_json, HistoryOrder, TranscriptAccumulator};

/// The Rust side of one `createTranscriptAccumulator()` instance.
#[wasm_bindgen]
pub struct TranscriptCore {
    inner: TranscriptAccumulator,
}

#[wasm_bindgen]
impl TranscriptCore {
    #[wasm_bindgen(constructor)]
    pub fn new() -> TranscriptCore {
        TranscriptCore {
            inner: TranscriptAccumulator::new(),
        }
    }

    /// Folds one message (JSON text); returns the patch, or `undefined` when nothing changed.
    pub fn apply(&mut self, message_json: &str) -> Option<String> {
        self.inner.apply_json(message_json);
        self.inner.take_patch()
    }

    /// Folds a JSON array of messages; one patch for the whole batch.
    #[wasm_bindgen(js_name = applyMany)]
    pub fn apply_many(&mut self, messages_json: &str) -> Option<String> {
        self.inner.apply_many_json(messages_json);
        self.inner.take_patch()
    }

    /// Merges a history page (JSON text). `order`: 0 = auto-detect, 1 = asc, 2 = desc.
    pub fn rebase(&mut self, page_json: &str, order: u8) -> Option<String> {
        let order = match order {
            1 => Some(HistoryOrder::Asc),
            2 => Some(HistoryOrder::Desc),
            _ => None,
        };
        self.inner.rebase_json(page_json, order);
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
