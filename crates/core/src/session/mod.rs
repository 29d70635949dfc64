//! Sans-IO session core: the turn coordinator and the session state machine.
//!
//! Nothing here does I/O or reads a clock. The transport's driver (`src/transport/driver.rs`)
//! feeds frames, socket events and "now"; the core answers with effects
//! (frames to write, calls to settle, callbacks to run) and `SDKMessage`s for `stream()`.

mod approvals;
mod calls;
mod chat_feed;
mod cloud;
pub mod coordinator;
mod core;
mod device;
mod drain;
pub mod error;
mod handlers;
mod handshake;
pub mod ids;
mod intake;
pub mod options;
mod reconnect;
mod repeats;
pub mod requests;
mod responses;

pub use self::core::{Effect, SessionConfig, SessionCore, Target};
pub use approvals::APPROVAL_CACHE_SIZE;
pub use chat_feed::Fed;
pub use drain::CLOSE_DRAIN_MS;
pub use error::SessionError;
pub use options::{read_session_config, SessionOptions, SessionSetup};
pub use reconnect::{LinkEffect, ReconnectPolicy, STANDBY_WAIT_MS};
pub use repeats::{RecentFrames, REPEAT_WINDOW};
pub use requests::CallId;
