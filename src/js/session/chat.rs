//! A chat's access to its session (`createChat`, `pkg-template/lib/chat.js`; issue 38). Once
//! `feedTranscript()` is called, the session folds its own messages into a transcript kept
//! here: rows never cross as messages, only as patches (`transcriptPatch()`), and
//! `nextMessages()` yields just what the chat's state needs besides rows (`session::chat_feed`).
//! Also `respondToApproval`, which answers an approval without the `canUseTool` callback.

use super::{SessionDriver, Shared};
use crate::transcript::{HistoryOrder, TranscriptAccumulator};
use crate::transport::text;
use js_sys::JsString;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl SessionDriver {
    /// The session feeds its own transcript from now on, and echoes the user's inputs into it
    /// when their turns start. Idempotent.
    #[wasm_bindgen(js_name = feedTranscript)]
    pub fn feed_transcript(&self) -> Result<(), JsValue> {
        self.sync(|core, _| {
            core.set_echo_inputs(true);
            Ok(())
        })?;
        if let Some(shared) = self.live() {
            shared
                .transcript
                .borrow_mut()
                .get_or_insert_with(TranscriptAccumulator::new);
        }
        Ok(())
    }

    /// The transcript's row patch since the previous take (JSON: `{len, moved?, rows}`, as
    /// `TranscriptCore.takePatch`), or `undefined` when no row changed.
    #[wasm_bindgen(js_name = transcriptPatch)]
    pub fn transcript_patch(&self) -> Option<String> {
        let shared = self.live()?;
        let mut transcript = shared.transcript.borrow_mut();
        transcript.as_mut()?.take_patch()
    }

    /// Merges a history page into the transcript (`fresh`: drop every row first); `order`
    /// `"asc"`/`"desc"`, else detected. Returns whether a row changed.
    #[wasm_bindgen(js_name = rebaseTranscript)]
    pub fn rebase_transcript(&self, page: &JsString, order: Option<String>, fresh: bool) -> bool {
        let Some(shared) = self.live() else {
            return false;
        };
        let mut transcript = shared.transcript.borrow_mut();
        let Some(transcript) = transcript.as_mut() else {
            return false;
        };
        if fresh {
            transcript.reset();
        }
        let order = match order.as_deref() {
            Some("asc") => Some(HistoryOrder::Asc),
            Some("desc") => Some(HistoryOrder::Desc),
            _ => None,
        };
        transcript.rebase_json(&text::to_string(page), order) || fresh
    }

    /// What `nextMessages()` would resolve with now, without waiting: a batch (JSON), `null`
    /// while nothing happened, `undefined` once the stream ended. The chat takes one snapshot
    /// per frame and collects what came during the frame with it.
    #[wasm_bindgen(js_name = pollMessages)]
    pub fn poll_messages(&self) -> JsValue {
        self.live().map_or(JsValue::UNDEFINED, |shared| {
            shared.take_messages().unwrap_or(JsValue::NULL)
        })
    }

    /// `session.respondToApproval(toolCallId, decision)` (`decision`: JSON, the shape
    /// `canUseTool` returns).
    #[wasm_bindgen(js_name = respondToApproval)]
    pub fn respond_to_approval(&self, tool_call_id: &str, decision: &str) -> Result<(), JsValue> {
        self.sync(|core, _| core.respond_to_approval(tool_call_id, decision))
    }
}

impl Shared {
    /// Feeds the transcript: a batch (JSON, `"[]"` when only rows changed) when anything
    /// happened, `undefined` once the stream ended, `None` while nothing did.
    pub(super) fn feed(&self, transcript: &mut TranscriptAccumulator) -> Option<JsValue> {
        let (fed, ended) = self
            .driver
            .with_core(|core| (core.feed_transcript(transcript), core.stream_ended()));
        if fed.is_empty() {
            return ended.then_some(JsValue::UNDEFINED);
        }
        Some(JsValue::from(fed.messages.as_deref().unwrap_or("[]")))
    }
}
