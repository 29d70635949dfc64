//! The error catalogue of the core: every kind of error a session, a Cloud call or the client
//! reports, with the `name` and `code` JavaScript branches on. `pkg-template/lib/errors.js`
//! maps each name to its exported class (the one map on the JavaScript side); the test below
//! keeps the two in step.

/// The message of a call on a closed session (`LettaClosedError`), whichever backend it runs on.
pub const SESSION_CLOSED: &str = "Session is closed";

/// One kind of error the core reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad options or arguments given by the caller.
    InvalidArgument,
    /// A request or wait that outlived its timeout.
    Timeout,
    /// The session (or client) was closed by the caller.
    Closed,
    /// The connection dropped or could not be opened.
    Connection,
    /// The server answered `success: false`, or something the call cannot use.
    RequestFailed,
    /// A call that is not valid in the current state.
    InvalidState,
    /// A feature this client does not offer on this backend.
    Unsupported,
    /// A Letta Cloud REST call answered with a non-2xx status.
    Api,
    /// A Cloud session's conversation-scoped managed sandbox expired.
    SandboxExpired,
}

impl ErrorKind {
    /// Every kind.
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::InvalidArgument,
        ErrorKind::Timeout,
        ErrorKind::Closed,
        ErrorKind::Connection,
        ErrorKind::RequestFailed,
        ErrorKind::InvalidState,
        ErrorKind::Unsupported,
        ErrorKind::Api,
        ErrorKind::SandboxExpired,
    ];

    /// The JS `error.name` (the exported class).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidArgument => "LettaInvalidArgumentError",
            ErrorKind::Timeout => "LettaTimeoutError",
            ErrorKind::Closed => "LettaClosedError",
            ErrorKind::Connection => "LettaConnectionError",
            ErrorKind::RequestFailed => "LettaRequestError",
            ErrorKind::InvalidState => "LettaStateError",
            ErrorKind::Unsupported => "LettaUnsupportedError",
            ErrorKind::Api => "APIError",
            ErrorKind::SandboxExpired => "CloudManagedSandboxExpiredError",
        }
    }

    /// The JS `error.code`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::InvalidArgument => "invalid_argument",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Closed => "closed",
            ErrorKind::Connection => "connection",
            ErrorKind::RequestFailed => "request_failed",
            ErrorKind::InvalidState => "invalid_state",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Api => "api_error",
            ErrorKind::SandboxExpired => "managed_sandbox_expired",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    /// The wrapper's map from error names to classes: every kind must be defined there with its
    /// code, or JavaScript would get a plain `Error`.
    const CLASSES: &str = include_str!("../../../pkg-template/lib/errors.js");

    fn defined(name: &str, code: &str) -> bool {
        let line = ["define(", name, ", \"", name, "\", \"", code, "\");"].concat();
        CLASSES.contains(&line)
    }

    #[test]
    fn every_kind_has_its_class_in_the_wrapper() {
        for kind in ErrorKind::ALL {
            assert!(defined(kind.name(), kind.code()), "{kind:?}");
        }
        assert!(!defined("NoSuchError", "nothing"), "the check can fail");
    }
}
