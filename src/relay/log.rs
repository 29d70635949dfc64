//! Minimal logging to stderr, one line per event, with the token redacted as a last resort.

use std::sync::OnceLock;

use super::secret::Token;

static TOKEN: OnceLock<Token> = OnceLock::new();

/// Registers the token so that [`log`] can redact it should a line ever contain it.
pub fn set_redaction(token: &Token) {
    let _ = TOKEN.set(token.clone());
}

/// Writes `line` to stderr, prefixed with `letta-relay:`.
pub fn log(line: &str) {
    match TOKEN.get() {
        Some(token) => eprintln!("letta-relay: {}", token.redact(line)),
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
