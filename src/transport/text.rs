//! JS strings into Rust with one `TextEncoder.encodeInto` call.
//!
//! A `String` or `&str` argument of a wasm-bindgen function is copied by the generated glue
//! with a JavaScript loop over `charCodeAt` for as long as the text is ASCII (JSON almost
//! always is), and only the rest goes through `encodeInto`. On the recorded turn's frames that
//! loop costs a large share of a `JSON.parse` of the same frame, and one `encodeInto` over the
//! whole text a fraction of it (bench/RESULTS.md, "Session pipeline"). So the hot inputs (socket frames, REST bodies, the accumulator's messages and pages) cross as
//! `JsString` and are copied here.

use js_sys::{JsString, Uint8Array};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The platform's UTF-8 encoder (every engine the package supports has one: the
    /// wasm-bindgen glue itself needs it). Making one costs a few nanoseconds in Node.
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = TextEncoder)]
    fn new() -> Utf8Encoder;
    #[wasm_bindgen(method, js_class = TextEncoder, js_name = encodeInto)]
    fn encode_into(
        this: &Utf8Encoder,
        source: &JsString,
        destination: &Uint8Array,
    ) -> EncodeIntoResult;

    /// `{read, written}`: UTF-16 code units read, bytes written.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

/// The text of `text` as UTF-8 (lone surrogates become U+FFFD, as in any JS → Rust copy).
pub fn to_string(text: &JsString) -> String {
    let units = text.length();
    // Three bytes a UTF-16 unit is room for any text: encodeInto reads all of it.
    let room = units as usize * 3;
    let mut bytes: Vec<u8> = Vec::with_capacity(room);
    // Made before the view: taking a slot in the externref table may allocate in wasm.
    let encoder = Utf8Encoder::new();
    let written = loop {
        // SAFETY: the view covers the spare capacity. Wasm memory can grow (detaching the
        // view) only while the view's own table slot is taken, when the table's free list
        // grows: encodeInto then reads nothing, and the next view (whose slot is free by then)
        // is made on the grown memory.
        let view = unsafe { Uint8Array::view_mut_raw(bytes.as_mut_ptr(), room) };
        let result = encoder.encode_into(text, &view);
        if result.read() == units {
            break result.written() as usize;
        }
    };
    // SAFETY: encodeInto initialized `written <= room` bytes with whole UTF-8 sequences (the
    // Encoding standard's encoder emits nothing else).
    unsafe {
        bytes.set_len(written.min(room));
        String::from_utf8_unchecked(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::to_string;
    use js_sys::JsString;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn copies_ascii_and_non_ascii_text_whole() {
        let long = "ab😀é".repeat(1000);
        for text in [
            "",
            r#"{"type":"stream_delta"}"#,
            "héllo wörld — ✓ 😀",
            &long,
        ] {
            assert_eq!(to_string(&JsString::from(text)), text);
        }
    }

    #[wasm_bindgen_test]
    fn a_lone_surrogate_becomes_the_replacement_character() {
        let lone = JsString::from_char_code3(0x61, 0xd800, 0x62);
        assert_eq!(to_string(&lone), "a\u{fffd}b");
    }
}
