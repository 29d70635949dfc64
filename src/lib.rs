//! Portable Letta Agent SDK client.
//!
//! The crate is a pure Rust core (no I/O, no clocks, no wasm-bindgen) with thin
//! WebAssembly bindings on top:
//!
//! - [`protocol`]: app-server wire frames, validation and wire → `SDKMessage` normalization;
//! - [`session`]: the sans-IO turn coordinator and session state machine;
//! - [`cloud`]: Cloud REST request builders, response parsers and the status-relay logic;
//! - [`transcript`]: the transcript accumulator (`apply` / `rebase` / `rows` / `reset`);
//! - `transport` (wasm32 only): the only I/O: WebSocket, timers, the session driver;
//! - `js` (wasm32 only): `#[wasm_bindgen]` bindings, one module per exported class;
//! - `relay` (native only): the `letta-relay` server that lets browser pages reach a
//!   self-hosted app server.

pub mod cloud;
pub mod json;
pub mod protocol;
pub mod session;
pub mod transcript;

#[cfg(not(target_arch = "wasm32"))]
pub mod relay;

#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod js;

#[cfg(target_arch = "wasm32")]
pub mod transport;

pub mod small_blocks;

/// The wasm allocator: talc instead of Rust's default dlmalloc — about 6 KB less wasm
/// (2.7 KB gzip) and faster; it grows linear memory on demand and reuses what is freed. Small
/// blocks are recycled in front of it ([`small_blocks`]).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: small_blocks::SmallBlocks<talc::wasm::WasmDynamicTalc> =
    small_blocks::SmallBlocks::new(talc::wasm::new_wasm_dynamic_allocator());
