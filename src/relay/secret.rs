//! The app server's bearer token: loaded once, only ever turned into an `Authorization` header
//! value marked sensitive, and never printed (its `Debug` is redacted, it has no `Display`).

use std::fmt;
use std::path::Path;

use axum::http::HeaderValue;

/// Environment variable read when no `--token-file` is given.
pub const TOKEN_ENV: &str = "LETTA_APP_SERVER_TOKEN";

/// The bearer token for the upstream app server.
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
            return Err("the app server token is empty".into());
        }
        let mut header = HeaderValue::from_str(&format!("Bearer {text}"))
            .map_err(|_| "the app server token has characters not allowed in an HTTP header")?;
        header.set_sensitive(true);
        Ok(Self {
            text: text.to_owned(),
            header,
        })
    }

    /// Reads the token from `file` (its content, trimmed) or else from `LETTA_APP_SERVER_TOKEN`.
    pub fn load(file: Option<&Path>) -> Result<Self, String> {
        match file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    format!("cannot read --token-file {}: {}", path.display(), e.kind())
                })?;
                Self::new(&text).map_err(|e| format!("--token-file {}: {e}", path.display()))
            }
            None => match std::env::var(TOKEN_ENV) {
                Ok(text) => Self::new(&text).map_err(|e| format!("{TOKEN_ENV}: {e}")),
                Err(_) => Err(format!(
                    "no app server token: pass --token-file PATH or set {TOKEN_ENV}"
                )),
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
}
