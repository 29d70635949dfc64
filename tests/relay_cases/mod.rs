//! The cases of `tests/relay.rs`, by concern.

mod http;
mod websocket;
