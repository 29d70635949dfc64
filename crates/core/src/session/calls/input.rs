//! The inputs a session sends (`send()`): the message is checked and its `input` frame built
//! here; the session only draws the request id, tracks the turn and writes the frame.

use super::super::coordinator::TurnCoordinator;
use super::super::error::SessionError;
use super::super::options::SessionOptions;
use crate::json::{write_u64, Object, Value};
use crate::protocol::commands::{Command, CreateMessage, Input, InputPayload, UserMessage};
use crate::protocol::runtime::Runtime;

/// What the session's inputs need to remember: how many messages it generated an id for, and
/// whether a turn's input is echoed into the stream. Private: asked through its methods.
#[derive(Debug, Default)]
pub(in crate::session) struct Inputs {
    /// Counter for generated `client_message_id`s.
    sent_messages: u64,
    /// Inputs are echoed into the stream when their turn starts (a chat's session, see
    /// `coordinator::echo`).
    echo_inputs: bool,
}

/// A checked `send()`: the user message to write and the text its turn echoes, if any.
#[derive(Debug)]
pub(in crate::session) struct Outgoing {
    message: UserMessage,
    echo: Option<String>,
}

impl Inputs {
    /// Echoes each later input into the stream when its turn starts.
    pub(in crate::session) fn echo(&mut self, echo: bool) {
        self.echo_inputs = echo;
    }

    /// Checks `send()`'s message (`content_json`) and `otid`, and makes the user message
    /// (its `client_message_id`: the otid, else `sdk-message-<now>-<n>`).
    pub(in crate::session) fn outgoing(
        &mut self,
        content_json: &str,
        otid: Option<&str>,
        now: u64,
    ) -> Result<Outgoing, SessionError> {
        if otid.is_some_and(|o| o.trim().is_empty()) {
            return Err(SessionError::invalid(
                "send() otid must be a non-empty string",
            ));
        }
        let content = crate::json::parse(content_json)
            .filter(|value| matches!(value, Value::String(_) | Value::Array(_)))
            .ok_or_else(|| {
                SessionError::invalid(
                    "send() message must be a string or an array of content parts",
                )
            })?;
        // A chat shows the text it sent when the turn starts (`coordinator::echo`).
        let echo = self
            .echo_inputs
            .then(|| crate::json::content_text(&content).map(|t| t.into_owned()))
            .flatten();
        self.sent_messages += 1;
        let client_message_id = match otid {
            Some(otid) => otid.to_owned(),
            None => {
                let mut id = String::from("sdk-message-");
                write_u64(&mut id, now);
                id.push('-');
                write_u64(&mut id, self.sent_messages);
                id
            }
        };
        let message = UserMessage {
            role: "user",
            content: content.into_static(),
            client_message_id,
            otid: otid.map(str::to_owned),
        };
        Ok(Outgoing { message, echo })
    }
}

impl Outgoing {
    /// Tracks the message's turn (echoed or not) and the request id its `input` frame carries.
    pub(in crate::session) fn track(
        &self,
        coordinator: &mut TurnCoordinator,
        now: u64,
        request_id: &str,
    ) {
        let id = &self.message.client_message_id;
        let otid = self.message.otid.clone();
        match &self.echo {
            Some(text) => coordinator.track_echoed_turn(now, id.clone(), otid, text.clone()),
            None => coordinator.track_sent_turn(now, id.clone(), otid),
        }
        coordinator.note_input_request(id, request_id);
    }

    /// The `input` frame: the message with the session's tool options and the
    /// `response_format` (left out when it is not JSON).
    pub(in crate::session) fn command(
        self,
        request_id: &str,
        runtime: Runtime,
        options: &SessionOptions,
        response_format: Option<&str>,
    ) -> String {
        let command = Command::Input(Input {
            request_id: Some(request_id.to_owned()),
            runtime,
            payload: InputPayload::CreateMessage(CreateMessage {
                messages: vec![self.message],
                client_tool_allowlist: options.allowed_tools.clone(),
                client_toolset: options.toolset.clone(),
                response_format: response_format
                    .and_then(Object::parse)
                    .map(Object::into_static),
                exclude_interactive_tools: true,
            }),
        });
        command.to_json()
    }
}
