//! The relay's two secrets, never printed (redacted `Debug`, no `Display`): the upstream's
//! bearer token (the app server's token, or the Letta Cloud API key in `--cloud` mode), only ever
//! turned into an `Authorization` header value marked sensitive, and the ticket secret that
//! signs connection tickets.

use std::fmt;
use std::path::Path;

use axum::http::HeaderValue;

/// Environment variable read when no `--token-file` is given.
pub const TOKEN_ENV: &str = "LETTA_APP_SERVER_TOKEN";

/// Environment variable read for the Cloud API key (`--cloud`) when no `--api-key-file` is given.
pub const API_KEY_ENV: &str = "LETTA_API_KEY";

/// Where a token comes from: the option naming its file, the environment variable, and what it
/// is called in messages.
#[derive(Debug, Clone, Copy)]
pub struct TokenSource {
    /// The command-line option that names the file.
    pub option: &'static str,
    /// The environment variable read without that option.
    pub env: &'static str,
    /// What the token is, in messages ("app server token").
    pub what: &'static str,
}

/// The app server's token: `--token-file` or `LETTA_APP_SERVER_TOKEN`.
pub const APP_SERVER_TOKEN: TokenSource = TokenSource {
    option: "--token-file",
    env: TOKEN_ENV,
    what: "app server token",
};

/// The Letta Cloud API key: `--api-key-file` or `LETTA_API_KEY`.
pub const CLOUD_API_KEY: TokenSource = TokenSource {
    option: "--api-key-file",
    env: API_KEY_ENV,
    what: "Letta Cloud API key",
};

/// The bearer token for the upstream (app server or Letta Cloud).
#[derive(Clone)]
pub struct Token {
    text: String,
    header: HeaderValue,
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

impl Token {
    /// Builds a token from its text (trimmed); refuses an empty one or one that cannot go into
    /// an HTTP header. Error messages never quote the token.
    pub fn new(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("the token is empty".into());
        }
        let mut header = HeaderValue::from_str(&format!("Bearer {text}"))
            .map_err(|_| "the token has characters not allowed in an HTTP header")?;
        header.set_sensitive(true);
        Ok(Self {
            text: text.to_owned(),
            header,
        })
    }

    /// Reads the token from `file` (its content, trimmed) or else from `source`'s environment
    /// variable.
    pub fn load(file: Option<&Path>, source: TokenSource) -> Result<Self, String> {
        let TokenSource { option, env, what } = source;
        match file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    format!("cannot read {option} {}: {}", path.display(), e.kind())
                })?;
                Self::new(&text).map_err(|e| format!("{option} {}: {e}", path.display()))
            }
            None => match std::env::var(env) {
                Ok(text) => Self::new(&text).map_err(|e| format!("{env}: {e}")),
                Err(_) => Err(format!("no {what}: pass {option} PATH or set {env}")),
            },
        }
    }

    /// The `Authorization: Bearer …` header value (marked sensitive).
    pub fn authorization(&self) -> HeaderValue {
        self.header.clone()
    }

    /// Replaces every occurrence of the token in `text` (a last line of defence for log lines and
    /// close reasons that quote other components' error messages).
    pub fn redact(&self, text: &str) -> String {
        text.replace(&self.text, "<redacted>")
    }
}

/// Environment variable read for the ticket secret when no `--secret-file` is given.
pub const SECRET_ENV: &str = "LETTA_RELAY_SECRET";

/// Fewest bytes a given ticket secret may have.
pub const MIN_SECRET_BYTES: usize = 32;

/// The key that signs tickets. Replicas behind one origin share it; without one, each process
/// draws its own at start.
#[derive(Clone)]
pub struct TicketSecret {
    key: Vec<u8>,
    generated: bool,
}

impl fmt::Debug for TicketSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TicketSecret(<redacted>)")
    }
}

impl TicketSecret {
    /// A secret from its text (trimmed), at least [`MIN_SECRET_BYTES`] long.
    pub fn new(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.len() < MIN_SECRET_BYTES {
            return Err(format!(
                "the ticket secret is shorter than {MIN_SECRET_BYTES} bytes"
            ));
        }
        Ok(Self {
            key: text.as_bytes().to_vec(),
            generated: false,
        })
    }

    /// 32 random bytes, for a single relay that shares its tickets with no one.
    pub fn generate() -> Result<Self, String> {
        let mut key = vec![0u8; 32];
        getrandom::fill(&mut key).map_err(|e| format!("cannot draw a ticket secret: {e}"))?;
        Ok(Self {
            key,
            generated: true,
        })
    }

    /// Reads the secret from `file`, else `LETTA_RELAY_SECRET`, else generates one.
    pub fn load(file: Option<&Path>) -> Result<Self, String> {
        match file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    format!("cannot read --secret-file {}: {}", path.display(), e.kind())
                })?;
                Self::new(&text).map_err(|e| format!("--secret-file {}: {e}", path.display()))
            }
            None => match std::env::var(SECRET_ENV) {
                Ok(text) => Self::new(&text).map_err(|e| format!("{SECRET_ENV}: {e}")),
                Err(_) => Self::generate(),
            },
        }
    }

    /// Whether this process drew the secret itself (its tickets work nowhere else).
    pub fn is_generated(&self) -> bool {
        self.generated
    }

    /// The HMAC key.
    pub fn key(&self) -> &[u8] {
        &self.key
    }

    /// Replaces the secret's text in `text` (given secrets are text; a generated one never is
    /// printed anywhere).
    pub fn redact(&self, text: &str) -> String {
        match std::str::from_utf8(&self.key) {
            Ok(secret) if !self.generated => text.replace(secret, "<redacted>"),
            _ => text.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimmed_redacted_and_sensitive() {
        let token = Token::new("  s3cr3t-value\n").unwrap();
        assert_eq!(
            token.authorization().to_str().unwrap(),
            "Bearer s3cr3t-value"
        );
        assert!(token.authorization().is_sensitive());
        assert!(!format!("{token:?}").contains("s3cr3t"));
        assert!(!format!("{:?}", token.authorization()).contains("s3cr3t"));
        assert_eq!(token.redact("x s3cr3t-value y"), "x <redacted> y");
    }

    #[test]
    fn empty_or_unprintable_tokens_are_refused_without_quoting_them() {
        assert!(Token::new(" \n").is_err());
        let err = Token::new("abc\u{7}def").unwrap_err();
        assert!(!err.contains("abc"));
    }

    #[test]
    fn ticket_secrets_are_long_enough_redacted_and_generated_when_absent() {
        let err = TicketSecret::new("short-secret").unwrap_err();
        assert!(!err.contains("short-secret"), "{err}");
        let secret = TicketSecret::new(" 0123456789abcdef0123456789abcdef\n").unwrap();
        assert_eq!(secret.key(), b"0123456789abcdef0123456789abcdef");
        assert!(!secret.is_generated());
        assert!(!format!("{secret:?}").contains("0123"));
        assert_eq!(
            secret.redact("a 0123456789abcdef0123456789abcdef b"),
            "a <redacted> b"
        );
        let a = TicketSecret::generate().unwrap();
        let b = TicketSecret::generate().unwrap();
        assert!(a.is_generated());
        assert_ne!(a.key(), b.key());
    }
}
