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

/// A Cloud error as JS sees it: `name`, `code`, and `status` (HTTP errors) or `sandboxId` and
/// `conversationId` (`CloudManagedSandboxExpiredError`) when set.
#[cfg(feature = "cloud")]
pub fn cloud_error(error: &crate::cloud::CloudError) -> JsValue {
    let value = typed_error(error.name, error.code, &error.message);
    if let Some(status) = error.status {
        let _ = js_sys::Reflect::set(&value, &"status".into(), &f64::from(status).into());
    }
    if let Some((sandbox_id, conversation_id)) = &error.sandbox {
        let _ = js_sys::Reflect::set(&value, &"sandboxId".into(), &sandbox_id.into());
        let _ = js_sys::Reflect::set(&value, &"conversationId".into(), &conversation_id.into());
    }
    value
}
