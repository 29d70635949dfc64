//! A JSON array written straight into a `String`: what the bindings hand out (effect batches,
//! message batches, errors). Elements are strings to escape, JSON texts, numbers or nested
//! arrays; no `format!` and no intermediate vectors on the way.

/// A JSON array under construction; empty arrays are not written at all ([`Self::finish`]).
#[derive(Debug, Default)]
pub struct JsonArray {
    out: String,
}

impl JsonArray {
    /// An array with no element yet.
    pub fn new() -> Self {
        JsonArray::default()
    }

    /// Starts the next element: `[` before the first one, `,` between two.
    fn next(&mut self) -> &mut String {
        if self.out.is_empty() {
            self.out.push('[');
        } else if !self.out.ends_with('[') {
            self.out.push(',');
        }
        &mut self.out
    }

    /// Appends `text` as a JSON string.
    pub fn string(&mut self, text: &str) -> &mut Self {
        crate::json::write_str(self.next(), text);
        self
    }

    /// Appends a JSON text as it is.
    pub fn raw(&mut self, json: &str) -> &mut Self {
        // Room for the separator and the closing bracket too: a batch of one message is then
        // one allocation instead of three (growth was 3 % of bench/turn's profile).
        self.out.reserve(json.len() + 2);
        self.next().push_str(json);
        self
    }

    /// Appends a non-negative integer.
    pub fn number(&mut self, value: u64) -> &mut Self {
        crate::json::write_u64(self.next(), value);
        self
    }

    /// Opens a nested array: the next elements go into it until [`Self::close`].
    pub fn array(&mut self) -> &mut Self {
        self.next().push('[');
        self
    }

    /// Closes the array opened last by [`Self::array`].
    pub fn close(&mut self) {
        self.out.push(']');
    }

    /// The array's JSON text, or `None` when it has no element.
    pub fn finish(mut self) -> Option<String> {
        if self.out.is_empty() {
            return None;
        }
        self.out.push(']');
        Some(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::JsonArray;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn writes_nested_arrays_of_strings_numbers_and_json() {
        assert_eq!(JsonArray::new().finish(), None);
        let mut batch = JsonArray::new();
        batch
            .array()
            .string("ok")
            .number(1207)
            .raw(r#"{"a":[]}"#)
            .close();
        batch.array().string("close").close();
        batch.raw("0").string("q\"\n");
        assert_eq!(
            batch.finish().as_deref(),
            Some(r#"[["ok",1207,{"a":[]}],["close"],0,"q\"\n"]"#)
        );
    }
}
