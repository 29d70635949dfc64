//! Moving strings from JS into wasm memory.
//!
//! wasm-bindgen copies a `&str` argument one UTF-16 unit at a time in JS (about 1 ns per
//! character — as much as `JSON.parse` costs for the same text). Long strings (socket frames,
//! history pages) go through `TextEncoder.encodeInto` into a buffer in wasm memory instead,
//! which encodes in native code.

use js_sys::{JsString, Uint8Array, WebAssembly};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Below this many UTF-16 units the plain copy is as fast.
const NATIVE_ENCODE_FROM: u32 = 256;

#[wasm_bindgen]
extern "C" {
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, source: &JsString, destination: &Uint8Array)
        -> EncodeResult;
    type EncodeResult;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeResult) -> u32;
}

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// The text of a JS string, as UTF-8 in wasm memory.
pub fn js_string(value: &JsString) -> String {
    let units = value.length();
    if units < NATIVE_ENCODE_FROM {
        return String::from(value);
    }
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    let capacity = units as usize * 3;
    let mut bytes = vec![0u8; capacity];
    let memory: WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    // The view is made after the buffer is allocated, and nothing allocates before encodeInto
    // has written through it, so wasm memory cannot grow (and detach it) in between.
    let view = Uint8Array::new_with_byte_offset_and_length(
        &memory.buffer(),
        bytes.as_mut_ptr() as u32,
        capacity as u32,
    );
    let written = ENCODER.with(|encoder| encoder.encode_into(value, &view).written());
    bytes.truncate(written as usize);
    // encodeInto writes valid UTF-8 (lone surrogates become U+FFFD).
    String::from_utf8(bytes).unwrap_or_default()
}
