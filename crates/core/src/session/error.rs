//! Errors the session reports to callers: a stable `name` and `code` (what JS code branches on)
//! and a human-readable message. Texts quoted by the spec are reproduced exactly.

/// A typed error of the client or a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionError {
    /// The JS `error.name`, e.g. `"LettaTimeoutError"`.
    pub name: &'static str,
    /// The JS `error.code`, e.g. `"timeout"`.
    pub code: &'static str,
    /// The message.
    pub message: String,
}

impl SessionError {
    fn new(name: &'static str, code: &'static str, message: impl Into<String>) -> Self {
        SessionError {
            name,
            code,
            message: message.into(),
        }
    }

    /// Bad options or arguments given by the caller.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new("LettaInvalidArgumentError", "invalid_argument", message)
    }

    /// A request or wait that outlived its timeout.
    pub fn timeout(message: impl Into<String>) -> Self {
        Self::new("LettaTimeoutError", "timeout", message)
    }

    /// The session (or client) was closed by the caller.
    pub fn closed(message: impl Into<String>) -> Self {
        Self::new("LettaClosedError", "closed", message)
    }

    /// The connection dropped or could not be opened.
    pub fn connection(message: impl Into<String>) -> Self {
        Self::new("LettaConnectionError", "connection", message)
    }

    /// The server answered a request with `success: false` (or an unusable response).
    pub fn request_failed(message: impl Into<String>) -> Self {
        Self::new("LettaRequestError", "request_failed", message)
    }

    /// A call that is not valid in the session's current state.
    pub fn state(message: impl Into<String>) -> Self {
        Self::new("LettaStateError", "invalid_state", message)
    }

    /// A feature this client does not offer.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new("LettaUnsupportedError", "unsupported", message)
    }

    /// `Session is closed`.
    pub fn session_closed() -> Self {
        Self::closed("Session is closed")
    }
}

#[cfg(test)]
mod tests {
    use super::SessionError;

    /// The wrapper's map from error names to classes (`lib/errors.js`): every name and code the
    /// core reports must be defined there, or JS would get a plain `Error`.
    const CLASSES: &str = include_str!("../../../../pkg-template/lib/errors.js");

    fn defined(name: &str, code: &str) -> bool {
        let line = ["define(", name, ", \"", name, "\", \"", code, "\");"].concat();
        CLASSES.contains(&line)
    }

    #[test]
    fn every_session_error_has_its_class_in_the_wrapper() {
        for error in [
            SessionError::invalid(""),
            SessionError::timeout(""),
            SessionError::closed(""),
            SessionError::connection(""),
            SessionError::request_failed(""),
            SessionError::state(""),
            SessionError::unsupported(""),
        ] {
            assert!(defined(error.name, error.code), "{error:?}");
        }
    }

    #[test]
    fn every_cloud_error_has_its_class_in_the_wrapper() {
        use crate::cloud::CloudError;
        for error in [
            CloudError::invalid(""),
            CloudError::bad_response(""),
            CloudError::connection(""),
            CloudError::api(500, ""),
            CloudError::sandbox_expired("s", "c"),
        ] {
            assert!(defined(error.name, error.code), "{error:?}");
        }
        assert!(!defined("NoSuchError", "nothing"), "the check can fail");
    }
}
