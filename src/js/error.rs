//! Typed errors built in Rust: JS `Error`s with the `name` and `code` the wrapper's
//! `errors.js` uses for the same cases.

use wasm_bindgen::JsValue;

/// An `Error` with the given name and code.
pub fn typed_error(name: &str, code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name(name);
    let _ = js_sys::Reflect::set(&error, &"code".into(), &code.into());
    error.into()
}

/// Use after close (`LettaClosedError`, `closed`).
pub fn closed_error(message: &str) -> JsValue {
    typed_error("LettaClosedError", "closed", message)
}
