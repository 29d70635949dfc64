//! The wasm client of the Letta Agent SDK: the pure core ([`letta_core`], crates/core) bound to
//! JavaScript, with the only I/O of the project.
//!
//! - `transport` (wasm32): WebSocket, fetch, timers, the session driver that pumps the core;
//! - `js` (wasm32): `#[wasm_bindgen]` bindings, one module per exported class;
//! - [`small_blocks`]: the allocator's front.
//!
//! The core's modules are re-exported, so the bindings and the wasm tests name them as before
//! (`crate::session`, `letta_agent_wasm::transcript`).

pub use letta_core::{cloud, error, json, protocol, session, transcript};

#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod js;

#[cfg(target_arch = "wasm32")]
pub mod transport;

pub mod small_blocks;

/// The wasm allocator: talc instead of Rust's default dlmalloc, smaller and faster (figures in
/// bench/RESULTS.md); it grows linear memory on demand and reuses what is freed. Small blocks
/// are recycled in front of it ([`small_blocks`]).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: small_blocks::SmallBlocks<talc::wasm::WasmDynamicTalc> =
    small_blocks::SmallBlocks::new(talc::wasm::new_wasm_dynamic_allocator());
