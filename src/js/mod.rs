//! `#[wasm_bindgen]` bindings (wasm32 only): one file per exported class, one method per
//! operation, typed arguments, Promises for API calls and typed errors ([`error`]). The
//! hand-written JS wrapper in `pkg-template/` is the public API; these names are internal.

#[cfg(feature = "cloud")]
pub mod cloud;
mod cloud_check;
#[cfg(feature = "cloud")]
mod cloud_repositories;
#[cfg(feature = "cloud")]
mod cloud_session;
pub mod error;
pub mod session;
pub mod transcript;
