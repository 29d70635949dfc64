//! `#[wasm_bindgen]` bindings (wasm32 only). Each file binds one exported class; every class has
//! as few methods as it can (each costs an export shim and glue): operation codes select what
//! a call does, arguments are numbers and strings, results are strings (JSON) or numbers.
//! The hand-written JS wrapper in `pkg-template/` is the public API; these names are internal.

pub mod error;
pub mod json_array;
pub mod session;
pub mod transcript;
