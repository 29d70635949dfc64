//! Errors of the Cloud backend: a kind of the catalogue ([`ErrorKind`], whose `name` and `code`
//! JS code branches on), the message with the reference's exact text, and the HTTP `status` for
//! errors that came from a response.
//!
//! Messages never contain the API key: builders take it from [`crate::cloud::CloudConfig`]
//! only to put it in an `Authorization` header or the query-mode socket URL, and no error is
//! formatted from either.

pub use crate::error::ErrorKind;

/// A typed Cloud error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloudError {
    pub kind: ErrorKind,
    /// The message (texts quoted by the spec are reproduced exactly).
    pub message: String,
    /// The HTTP status, for errors made from a response (`APIError.status`).
    pub status: Option<u16>,
    /// Set on [`CloudError::sandbox_expired`]: `(sandboxId, conversationId)`.
    pub sandbox: Option<(String, String)>,
}

impl CloudError {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        CloudError {
            kind,
            message: message.into(),
            status: None,
            sandbox: None,
        }
    }

    /// The JS `error.name`.
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The JS `error.code`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// Bad options or arguments given by the caller.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }

    /// A response that does not have what the call needs (a missing id, a mismatched echo).
    pub fn bad_response(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::RequestFailed, message)
    }

    /// The session was closed while it was starting: the session's own
    /// [`crate::error::SESSION_CLOSED`] (`LettaClosedError`).
    pub fn session_closed() -> Self {
        Self::new(ErrorKind::Closed, crate::error::SESSION_CLOSED)
    }

    /// A target that cannot be reached: an offline or unknown computer, a sandbox that never
    /// came online, a socket that would not open.
    pub fn connection(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Connection, message)
    }

    /// A managed sandbox step (a refresh, a file transfer) with no sandbox to act on: none was
    /// made yet, or the session is closing.
    pub fn sandbox_unavailable() -> Self {
        Self::connection("Cloud managed sandbox is not available.")
    }

    /// A non-2xx HTTP response: `<status> <body>` with `status` set.
    pub fn api(status: u16, message: impl Into<String>) -> Self {
        CloudError {
            status: Some(status),
            ..Self::new(ErrorKind::Api, message)
        }
    }

    /// `CloudManagedSandboxExpiredError`: a conversation-scoped sandbox's refresh answered 404.
    pub fn sandbox_expired(sandbox_id: &str, conversation_id: &str) -> Self {
        CloudError {
            status: Some(404),
            sandbox: Some((sandbox_id.to_owned(), conversation_id.to_owned())),
            ..Self::new(
                ErrorKind::SandboxExpired,
                format!(
                    "Cloud managed sandbox {sandbox_id} expired. Resume conversation \
                     {conversation_id} with a new SDK session and retry the turn."
                ),
            )
        }
    }

    /// True for an HTTP 404 (`APIError.status === 404`, the reference's not-found check).
    pub fn is_not_found(&self) -> bool {
        self.status == Some(404)
    }
}

impl std::fmt::Display for CloudError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name(), self.message)
    }
}

impl std::error::Error for CloudError {}

/// Shorthand for results of this module.
pub type CloudResult<T> = Result<T, CloudError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_expired_has_the_reference_name_code_and_text() {
        let error = CloudError::sandbox_expired("sbx-1", "conv-9");
        assert_eq!(error.name(), "CloudManagedSandboxExpiredError");
        assert_eq!(error.code(), "managed_sandbox_expired");
        assert_eq!(
            error.message,
            "Cloud managed sandbox sbx-1 expired. Resume conversation conv-9 with a new SDK \
             session and retry the turn."
        );
        assert_eq!(error.sandbox, Some(("sbx-1".into(), "conv-9".into())));
        assert!(error.is_not_found());
    }

    #[test]
    fn api_errors_carry_their_status() {
        let error = CloudError::api(500, "500 boom");
        assert_eq!((error.name(), error.status), ("APIError", Some(500)));
        assert!(!error.is_not_found());
    }
}
