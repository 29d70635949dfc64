//! The `SDKMessage` queue `stream()` drains. Its field is private: the coordinator only appends
//! (messages leave in the order they were decided) and the caller only drains from the front,
//! one at a time or all as one JSON array.

use crate::protocol::sdk_message::SdkMessage;
use std::collections::VecDeque;

/// Messages waiting for `stream()`, oldest first.
#[derive(Debug)]
pub(super) struct Outbox {
    /// Room for 8 from the start (its growth showed in bench/turn's profile; bench/RESULTS.md).
    queue: VecDeque<SdkMessage>,
}

impl Default for Outbox {
    fn default() -> Self {
        Outbox {
            queue: VecDeque::with_capacity(8),
        }
    }
}

impl Outbox {
    /// Appends `message` after every waiting one.
    pub fn push(&mut self, message: SdkMessage) {
        self.queue.push_back(message);
    }

    /// The oldest waiting message.
    pub fn pop(&mut self) -> Option<SdkMessage> {
        self.queue.pop_front()
    }

    /// Every waiting message as one JSON array, oldest first, and the queue emptied; `None`
    /// when nothing waits. One serializer pass for the whole batch instead of a `String` per
    /// message joined by hand: simpler, and as fast (`bench/run ab`, bench/RESULTS.md).
    pub fn take_json(&mut self) -> Option<String> {
        if self.queue.is_empty() {
            return None;
        }
        let json = crate::json::to_string(&self.queue);
        self.queue.clear();
        Some(json)
    }

    /// How many messages wait.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Nothing waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}
