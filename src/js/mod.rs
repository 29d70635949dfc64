//! `#[wasm_bindgen]` bindings (wasm32 only). Each file binds one exported class or function
//! group; every method converts its arguments, calls the pure core and converts the result.
//! The hand-written JS wrapper in `pkg-template/` is the public API; these names are internal.

pub mod errors;
pub mod session;
pub mod transcript;
