//! The user's own messages in a chat (issue 38). The stream has no message for what the user
//! sent: history has it, the live stream does not. A chat's session gives each input its text
//! (`track_echoed_turn`), and when the input's turn starts (at once on an idle server, or
//! when the server dequeues it) a [`SdkMessage::UserEcho`] goes out just before the turn's
//! first row, so the chat's transcript shows it in conversation order. Inputs the server runs
//! as one batch start with their carrier, in the order they were sent.

use super::outbox::Outbox;
use super::turn::Turn;
use crate::protocol::sdk_message::{SdkMessage, UserEcho};

/// The echo of `turn`'s input.
fn user_echo(turn: &Turn, text: String) -> SdkMessage {
    SdkMessage::UserEcho(UserEcho {
        otid: turn
            .otid
            .clone()
            .unwrap_or_else(|| turn.client_message_id.clone()),
        content: text,
    })
}

/// `turn` starts: its echo, and those of the inputs it carries, go out (once).
pub(super) fn echo_started(out: &mut Outbox, turn: &mut Turn) {
    if let Some(text) = turn.echo.take() {
        out.push(user_echo(turn, text));
    }
    for carried in &mut turn.batched {
        if let Some(text) = carried.echo.take() {
            out.push(user_echo(carried, text));
        }
    }
}
