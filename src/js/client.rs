//! Client-level bindings: option validation at `new LettaAgentClient(options)`.

use super::errors::to_js_error;
use crate::session::parse_client_options;
use wasm_bindgen::prelude::*;

/// Throws the reference's typed error when the client options (JSON, functions removed) are
/// invalid; returns the backend name otherwise.
#[wasm_bindgen(js_name = validateClientOptions)]
pub fn validate_client_options(options_json: &str) -> Result<String, JsValue> {
    parse_client_options(options_json)
        .map(|_| String::from("remote"))
        .map_err(|e| to_js_error(&e))
}
