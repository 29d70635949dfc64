//! Errors the session reports to callers: a kind of the catalogue ([`ErrorKind`], whose `name`
//! and `code` JS code branches on) and a human-readable message. Texts quoted by the spec are
//! reproduced exactly.

pub use crate::error::ErrorKind;

/// A typed error of the client or a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionError {
    pub kind: ErrorKind,
    /// The message.
    pub message: String,
}

impl SessionError {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        SessionError {
            kind,
            message: message.into(),
        }
    }

    /// The JS `error.name`, e.g. `"LettaTimeoutError"`.
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The JS `error.code`, e.g. `"timeout"`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// Bad options or arguments given by the caller.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }

    /// A request or wait that outlived its timeout.
    pub fn timeout(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Timeout, message)
    }

    /// The session (or client) was closed by the caller.
    pub fn closed(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Closed, message)
    }

    /// The connection dropped or could not be opened.
    pub fn connection(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Connection, message)
    }

    /// The server answered a request with `success: false` (or an unusable response).
    pub fn request_failed(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::RequestFailed, message)
    }

    /// A call that is not valid in the session's current state.
    pub fn state(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidState, message)
    }

    /// A feature this client does not offer.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported, message)
    }

    /// [`crate::error::SESSION_CLOSED`].
    pub fn session_closed() -> Self {
        Self::closed(crate::error::SESSION_CLOSED)
    }
}
