//! A session that feeds a chat's transcript (issue 38). A chat store owns the accumulator of its
//! session's rows; the session hands it the messages it makes, typed, without writing them as
//! JSON for JavaScript and parsing them back: row messages (text, tool calls and results, the
//! user's own inputs) go into the accumulator, and only what the chat's state needs besides the
//! rows (results, errors, retries, the queue, the loop status) crosses, as one JSON batch.

use super::core::SessionCore;
use crate::protocol::sdk_message::SdkMessage;
use crate::transcript::{SdkInput, TranscriptAccumulator};

/// What one feed produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Fed {
    /// A row was written (take the accumulator's patch).
    pub rows_changed: bool,
    /// The messages for the chat's state, as a JSON array, when there were any.
    pub messages: Option<String>,
}

impl Fed {
    /// Nothing happened.
    pub fn is_empty(&self) -> bool {
        !self.rows_changed && self.messages.is_none()
    }
}

/// Whether the chat's state needs `message` itself (rather than its row).
fn for_the_chat(message: &SdkMessage) -> bool {
    matches!(
        message,
        SdkMessage::Result(_)
            | SdkMessage::Error(_)
            | SdkMessage::Retry(_)
            | SdkMessage::QueueUpdate(_)
            | SdkMessage::LoopStatus(_)
    )
}

impl SessionCore {
    /// Echoes each later input into the stream when its turn starts (a chat shows what the
    /// user sent; see `coordinator::echo`).
    pub fn set_echo_inputs(&mut self, echo: bool) {
        self.echo_inputs = echo;
    }

    /// Takes every waiting message: rows into `transcript`, the rest into the returned batch.
    pub fn feed_transcript(&mut self, transcript: &mut TranscriptAccumulator) -> Fed {
        let Some(coordinator) = self.coordinator.as_mut() else {
            return Fed::default();
        };
        let mut fed = Fed::default();
        let mut for_chat = Vec::new();
        while let Some(message) = coordinator.pop_message() {
            if for_the_chat(&message) {
                for_chat.push(message);
            } else {
                fed.rows_changed |= transcript.apply(&SdkInput::from_message(&message));
            }
        }
        if !for_chat.is_empty() {
            fed.messages = Some(crate::json::to_string(&for_chat));
        }
        fed
    }
}

#[cfg(test)]
mod tests;
