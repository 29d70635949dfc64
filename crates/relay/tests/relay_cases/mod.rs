//! The cases of `tests/relay.rs` (this crate's), by concern.

mod cloud;
mod http;
mod limits;
mod tickets;
mod tls;
mod websocket;
