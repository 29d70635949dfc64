//! Typed errors built in Rust. The wrapper hands over its `errorFromRust(name, message, fields)`
//! (`pkg-template/lib/errors.js`, the one map from error names to the exported classes) when it
//! installs the module, so an error made here is an instance of the same class as one made in
//! JavaScript. Without it (the wasm-bindgen tests) a plain `Error` with `name` and `code`.

use crate::error::ErrorKind;
use js_sys::{Function, Object, Reflect};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The wrapper's `errorFromRust`, once installed.
    static FACTORY: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// `setErrorFactory(errorFromRust)`: called once by the wrapper's loader (`lib/runtime.js`).
#[wasm_bindgen(js_name = setErrorFactory)]
pub fn set_error_factory(factory: Function) {
    FACTORY.with(|f| *f.borrow_mut() = Some(factory));
}

/// An error of `kind`'s class (with its `name` and `code` when no factory is installed) and
/// extra `fields`.
fn error_with(kind: ErrorKind, message: &str, fields: Option<&Object>) -> JsValue {
    let (name, code) = (kind.name(), kind.code());
    let made = FACTORY.with(|f| {
        let factory = f.borrow();
        let fields = fields.map_or(JsValue::UNDEFINED, JsValue::from);
        factory.as_ref().and_then(|make| {
            make.call3(&JsValue::NULL, &name.into(), &message.into(), &fields)
                .ok()
        })
    });
    if let Some(error) = made {
        return error;
    }
    let error = js_sys::Error::new(message);
    error.set_name(name);
    let _ = Reflect::set(&error, &"code".into(), &code.into());
    if let Some(fields) = fields {
        let _ = Object::assign(&error, fields);
    }
    error.into()
}

/// An `Error` of `kind`'s class.
pub fn typed_error(kind: ErrorKind, message: &str) -> JsValue {
    error_with(kind, message, None)
}

/// Use after close (`LettaClosedError`, `closed`).
pub fn closed_error(message: &str) -> JsValue {
    typed_error(ErrorKind::Closed, message)
}

/// A Cloud error as JS sees it: its class, with `status` (HTTP errors) or `sandboxId` and
/// `conversationId` (`CloudManagedSandboxExpiredError`) when set.
pub fn cloud_error(error: &crate::cloud::CloudError) -> JsValue {
    let fields = Object::new();
    if let Some(status) = error.status {
        let _ = Reflect::set(&fields, &"status".into(), &f64::from(status).into());
    }
    if let Some((sandbox_id, conversation_id)) = &error.sandbox {
        let _ = Reflect::set(&fields, &"sandboxId".into(), &sandbox_id.into());
        let _ = Reflect::set(&fields, &"conversationId".into(), &conversation_id.into());
    }
    error_with(error.kind, &error.message, Some(&fields))
}
