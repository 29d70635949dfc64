//! Writing JSON text with serde: every output of the crate is a `#[derive(Serialize)]` type (or
//! a parsed [`Value`] passed on), written by `serde_json`. This module holds the [`Serialize`]
//! impls of the parsed tree and the number rule shared by every JS-facing number.

use super::{Object, Value};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// The JSON text of any serializable value (a message, a command, a [`Value`], …).
///
/// The crate's types only have string keys and infallible `Serialize` impls, so serde_json
/// cannot fail on them; should it ever, the text is empty rather than a panic.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Appends an unsigned integer in decimal (itoa, serde_json's own integer writer: one
/// formatter in the wasm instead of core's as well; bench/RESULTS.md).
pub fn write_u64(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Serializes a number as `JSON.stringify` would write it back when its integral values below
/// `integers_below` are to be integers (`4`, never `4.0`; `-0` as `0`); other numbers as an
/// `f64` (serde_json's shortest round-trip form, `null` when not finite). The bound must not
/// exceed 2^63.
pub fn serialize_js_number<S: Serializer>(
    n: f64,
    integers_below: f64,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if n.fract() == 0.0 && n.abs() < integers_below {
        // Exact: every integral f64 below 2^63 converts to i64 without loss.
        serializer.serialize_i64(n as i64)
    } else {
        serializer.serialize_f64(n)
    }
}

/// The bound below which [`Value`] numbers are written as integers.
const VALUE_INTEGERS_BELOW: f64 = 9.0e18;

impl Serialize for Value<'_> {
    /// Absent is written as `null`; numbers by [`serialize_js_number`].
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Absent | Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => serialize_js_number(*n, VALUE_INTEGERS_BELOW, serializer),
            Value::String(text) => serializer.serialize_str(text),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(object) => object.serialize(serializer),
        }
    }
}

impl Serialize for Object<'_> {
    /// Members in document order, duplicates included (a reader keeps the last, as before).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (key, value) in self.members() {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(n: f64, below: f64) -> String {
        let mut out = Vec::new();
        serialize_js_number(n, below, &mut serde_json::Serializer::new(&mut out)).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Integral numbers below the bound are integers, others floats; the bounds differ per use.
    #[test]
    fn js_numbers_switch_to_floats_at_their_bound() {
        const ROW: f64 = 9_007_199_254_740_992.0;
        assert_eq!(js(-0.0, ROW), "0");
        assert_eq!(js(-42.0, ROW), "-42");
        assert_eq!(js(9_007_199_254_740_991.0, ROW), "9007199254740991");
        assert_eq!(js(ROW, ROW), serde_json::to_string(&ROW).unwrap());
        assert_eq!(js(ROW, 9.0e18), "9007199254740992");
        assert_eq!(js(-8.9e18, 9.0e18), "-8900000000000000000");
        assert_eq!(js(9.0e18, 9.0e18), serde_json::to_string(&9.0e18).unwrap());
        assert_eq!(js(0.5, ROW), "0.5");
        assert_eq!(js(f64::INFINITY, 9.0e18), "null");
        assert_eq!(js(f64::NAN, ROW), "null");
    }

    /// Integers append in plain decimal, the largest included.
    #[test]
    fn integers_append() {
        let mut out = String::from("[");
        write_u64(&mut out, u64::MAX);
        assert_eq!(out, format!("[{}", u64::MAX));
    }
}
