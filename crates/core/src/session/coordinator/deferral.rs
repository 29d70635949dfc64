//! Frames held back while the active turn's grace or stream-tail timer runs (spec §3.9):
//! turn-scoped frames of other runs wait, as frame text in arrival order, and replay after the
//! finishing turn's result. Its fields are private: the coordinator defers and takes frames,
//! and asks whether the buffer is full and whether a run-less delta may still be the
//! finishing turn's.

use super::MAX_DEFERRED_FRAMES;

/// The deferred frame texts and what they say about the stream.
#[derive(Debug, Default)]
pub(super) struct Deferral {
    /// Frame texts deferred during a grace, in arrival order.
    frames: Vec<String>,
    /// During a grace: a stream delta of another run was deferred, so later run-less deltas
    /// belong to that run too.
    stream_moved_on: bool,
}

impl Deferral {
    /// Nothing waits.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// [`MAX_DEFERRED_FRAMES`] wait: the finishing turn must settle before more are taken.
    pub fn is_full(&self) -> bool {
        self.frames.len() >= MAX_DEFERRED_FRAMES
    }

    /// Whether a run-less delta during the grace still belongs to the finishing turn: no
    /// delta of another run came first.
    pub fn stream_on_finishing_turn(&self) -> bool {
        !self.stream_moved_on
    }

    /// Holds back the frame text `raw`.
    pub fn push(&mut self, raw: &str) {
        self.frames.push(raw.to_owned());
    }

    /// Holds back a stream delta's frame text; a delta of another run (`has_run`) means the
    /// stream moved on from the finishing turn.
    pub fn push_delta(&mut self, raw: &str, has_run: bool) {
        if has_run {
            self.stream_moved_on = true;
        }
        self.push(raw);
    }

    /// The active turn ended: the next grace starts with the stream on its turn.
    pub fn turn_ended(&mut self) {
        self.stream_moved_on = false;
    }

    /// Every deferred frame text, oldest first, for replay; the buffer is left empty.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.frames)
    }

    /// Drops every deferred frame (close, lost connection).
    pub fn clear(&mut self) {
        self.frames.clear();
    }
}
