//! Minimal logging to stderr, one line per event, with the secrets redacted as a last resort.

use std::sync::OnceLock;

use super::secret::{TicketSecret, Token};

static SECRETS: OnceLock<(Token, TicketSecret)> = OnceLock::new();

/// Registers the token and the ticket secret so that [`log`] can redact them should a line ever
/// contain one.
pub fn set_redaction(token: &Token, secret: &TicketSecret) {
    let _ = SECRETS.set((token.clone(), secret.clone()));
}

/// Writes `line` to stderr, prefixed with `letta-relay:`.
pub fn log(line: &str) {
    match SECRETS.get() {
        Some((token, secret)) => {
            eprintln!("letta-relay: {}", secret.redact(&token.redact(line)))
        }
        None => eprintln!("letta-relay: {line}"),
    }
}

/// Shortens text quoted from a request (paths) so that one request is one short line.
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
