//! Session errors as real JS `Error` objects with a stable `name` and `code`.

use crate::session::SessionError;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

/// A JS `Error` carrying the error's `name`, `code` and message.
pub fn to_js_error(error: &SessionError) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name(error.name);
    let _ = Reflect::set(
        &js,
        &JsValue::from_str("code"),
        &JsValue::from_str(error.code),
    );
    js.into()
}
