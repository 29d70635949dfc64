//! The pure core of the Letta client: no I/O, no clocks, no wasm-bindgen. The wasm client
//! (the repository's root crate) binds it to JavaScript and drives it with real sockets and
//! timers; everything here is tested natively.
//!
//! - [`protocol`]: app-server wire frames, validation and wire → `SDKMessage` normalization;
//! - [`session`]: the sans-IO turn coordinator and session state machine;
//! - [`cloud`]: Letta Cloud's REST request builders, response parsers and status sockets, and
//!   its start and sandbox machines;
//! - [`transcript`]: the transcript accumulator (`apply` / `rebase` / `rows` / `reset`);
//! - [`json`]: the one JSON reader of the core (a borrowed tree) and its writer;
//! - [`error`]: the error catalogue (each kind's JS `name` and `code`).

pub mod cloud;
pub mod error;
pub mod json;
pub mod protocol;
pub mod session;
pub mod transcript;
