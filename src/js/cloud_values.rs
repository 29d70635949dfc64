//! How the Cloud binding's arguments and results cross (serde-wasm-bindgen), and the Promise
//! of a call.

use crate::cloud::error::{CloudError, CloudResult};
use crate::cloud::http::HttpResponse;
use crate::cloud::repositories;
use crate::js::error::cloud_error;
use js_sys::Promise;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// A JS argument as `T`; `what` names it in the typed error of a value of the wrong shape
/// (`Invalid computers.list() options: invalid type: string "5", expected u32`).
pub(super) fn arg<T: DeserializeOwned>(value: JsValue, what: &str) -> CloudResult<T> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|error| CloudError::invalid(format!("Invalid {what}: {error}")))
}

/// A response parser that hands back the result as a JS value.
pub(super) type ParseToJs = dyn FnOnce(HttpResponse<'_>) -> CloudResult<JsValue>;

/// A call in flight, resolving with a JS value.
pub(super) type CallFuture = Pin<Box<dyn Future<Output = CloudResult<JsValue>>>>;

/// `value` as a JS value: objects as plain objects (not `Map`s), as `JSON.parse` would give.
pub(super) fn to_js<T: Serialize + ?Sized>(value: &T) -> CloudResult<JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|_| CloudError::bad_response("Invalid Cloud JSON response."))
}

/// A serializable value with camelCase member names (the JS view of snake_case records).
pub(super) fn camel_cased<T: Serialize>(value: T) -> Value {
    repositories::camel_case(serde_json::to_value(value).unwrap_or(Value::Null))
}

/// A Promise of `call`: its value, or the typed error.
pub(super) fn settle(call: CallFuture) -> Promise {
    future_to_promise(async move { call.await.map_err(|e| cloud_error(&e)) })
}
