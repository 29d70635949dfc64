//! Writing JSON text: one small non-generic writer for every output of the crate.
//!
//! Strings are escaped in one place ([`write_str`]) and numbers formatted in one place each
//! ([`write_u64`], [`write_f64`]), exactly as `serde_json` writes them: `"`, `\` and control
//! characters escaped (`\n`, `\u001f`, …; nothing else), floats in serde_json's shortest
//! round-trip form and `null` when not finite. Types implement [`ToJson`]; objects are written
//! member by member with [`Members`] (or [`ObjectWriter`], which owns its text).

use super::{Object, Value};

/// A value that can write itself as JSON text.
pub trait ToJson {
    /// Appends the value's JSON text to `out`.
    fn write_json(&self, out: &mut String);
}

/// The JSON text of a value (a [`Value`], an [`Object`], a string, a message, …).
pub fn to_string<T: ToJson + ?Sized>(value: &T) -> String {
    let mut out = String::new();
    value.write_json(&mut out);
    out
}

/// Appends `text` as a JSON string, escaped as serde_json escapes it.
pub fn write_str(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let mut plain_from = 0;
    for (at, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'\n' => 'n',
            b'\r' => 'r',
            b'\t' => 't',
            0x08 => 'b',
            0x0c => 'f',
            0..=0x1f => 'u',
            _ => continue,
        };
        // Escaped bytes are ASCII, so `plain_from..at` always lies on char boundaries.
        out.push_str(text.get(plain_from..at).unwrap_or_default());
        out.push('\\');
        out.push(escape);
        if escape == 'u' {
            // `\u00XX` with lowercase hex digits; control characters are below 0x20.
            out.push_str(if byte < 0x10 { "000" } else { "001" });
            out.push(char::from(b"0123456789abcdef"[usize::from(byte & 0xf)]));
        }
        plain_from = at + 1;
    }
    out.push_str(text.get(plain_from..).unwrap_or_default());
    out.push('"');
}

/// Appends an unsigned integer in decimal.
pub fn write_u64(out: &mut String, n: u64) {
    if n >= 10 {
        write_u64(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Appends a signed integer in decimal.
pub fn write_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    write_u64(out, n.unsigned_abs());
}

/// Appends a float as serde_json writes an `f64`: its shortest round-trip form (`0.5`, `1e+21`,
/// `4.0`), or `null` when it is not finite.
pub fn write_f64(out: &mut String, n: f64) {
    if n.is_finite() {
        // The formatter serde_json's serializer uses for floats.
        out.push_str(zmij::Buffer::new().format_finite(n));
    } else {
        out.push_str("null");
    }
}

/// Appends a number as `JSON.stringify` would write it back when its integral values below
/// `integers_below` are to be written as integers (`4`, never `4.0`; `-0` as `0`); other
/// numbers go through [`write_f64`]. The bound must not exceed 2^63.
pub fn write_js_number(out: &mut String, n: f64, integers_below: f64) {
    if n.fract() == 0.0 && n.abs() < integers_below {
        // Exact: every integral f64 below 2^63 converts to i64 without loss.
        write_i64(out, n as i64);
    } else {
        write_f64(out, n);
    }
}

/// The bound below which [`Value`] numbers are written as integers.
const VALUE_INTEGERS_BELOW: f64 = 9.0e18;

impl ToJson for Value<'_> {
    /// Absent is written as `null`; numbers by [`write_js_number`].
    fn write_json(&self, out: &mut String) {
        match self {
            Value::Absent | Value::Null => out.push_str("null"),
            Value::Bool(b) => b.write_json(out),
            Value::Number(n) => write_js_number(out, *n, VALUE_INTEGERS_BELOW),
            Value::String(text) => write_str(out, text),
            Value::Array(items) => items.write_json(out),
            Value::Object(object) => object.write_json(out),
        }
    }
}

impl ToJson for Object<'_> {
    /// Members in document order, duplicates included (a reader keeps the last, as before).
    fn write_json(&self, out: &mut String) {
        let mut members = Members::open(out);
        for (key, value) in self.members() {
            members.value(key, value);
        }
        members.close();
    }
}

impl ToJson for str {
    fn write_json(&self, out: &mut String) {
        write_str(out, self);
    }
}

impl ToJson for String {
    fn write_json(&self, out: &mut String) {
        write_str(out, self);
    }
}

impl ToJson for bool {
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl ToJson for u64 {
    fn write_json(&self, out: &mut String) {
        write_u64(out, *self);
    }
}

impl ToJson for serde_json::Number {
    /// Integers in decimal, floats as serde_json writes them.
    fn write_json(&self, out: &mut String) {
        if let Some(n) = self.as_u64() {
            write_u64(out, n);
        } else if let Some(n) = self.as_i64() {
            write_i64(out, n);
        } else {
            write_f64(out, self.as_f64().unwrap_or(f64::NAN));
        }
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, out: &mut String) {
        (**self).write_json(out);
    }
}

impl<T: ToJson> ToJson for Option<T> {
    /// `None` is written as `null` (members that are omitted instead use the `opt_` writers).
    fn write_json(&self, out: &mut String) {
        match self {
            Some(value) => value.write_json(out),
            None => out.push_str("null"),
        }
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, out: &mut String) {
        out.push('[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            item.write_json(out);
        }
        out.push(']');
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut String) {
        self.as_slice().write_json(out);
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn write_json(&self, out: &mut String) {
        self.as_slice().write_json(out);
    }
}

/// The members of a JSON object being written into a shared text: [`Members::open`] writes `{`,
/// each member writer a (comma and) escaped key and the value, [`Members::close`] the `}`.
#[derive(Debug)]
pub struct Members<'o> {
    out: &'o mut String,
    /// Where the first member starts (a longer text means a comma is due).
    first: usize,
}

impl<'o> Members<'o> {
    /// Opens an object at the end of `out`.
    pub fn open(out: &'o mut String) -> Self {
        out.push('{');
        let first = out.len();
        Members { out, first }
    }

    /// Writes the closing `}`.
    pub fn close(self) {
        self.out.push('}');
    }

    /// Writes a member's key and returns the text for its value.
    pub fn key(&mut self, key: &str) -> &mut String {
        if self.out.len() > self.first {
            self.out.push(',');
        }
        write_str(self.out, key);
        self.out.push(':');
        self.out
    }

    /// A member whose value is literal JSON text (`null`, `[]`, …).
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key).push_str(json);
        self
    }

    /// A member whose value is anything that writes itself as JSON.
    pub fn serialize(&mut self, key: &str, value: &dyn ToJson) -> &mut Self {
        value.write_json(self.key(key));
        self
    }

    /// A member written only when `value` is `Some` (omitted otherwise).
    pub fn opt<T: ToJson>(&mut self, key: &str, value: &Option<T>) -> &mut Self {
        if let Some(value) = value {
            self.serialize(key, value);
        }
        self
    }

    /// A member whose value is written from a parsed (or built) value.
    pub fn value(&mut self, key: &str, value: &Value<'_>) -> &mut Self {
        value.write_json(self.key(key));
        self
    }

    /// A string member (escaped).
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        write_str(self.key(key), value);
        self
    }

    /// A string member written only when `value` is `Some`.
    pub fn opt_string(&mut self, key: &str, value: &Option<String>) -> &mut Self {
        if let Some(value) = value {
            self.string(key, value);
        }
        self
    }

    /// A string member that is `null` when `value` is `None`.
    pub fn nullable_string(&mut self, key: &str, value: &Option<String>) -> &mut Self {
        match value {
            Some(value) => self.string(key, value),
            None => self.raw(key, "null"),
        }
    }

    /// A boolean member.
    pub fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// A boolean member written only when `value` is `Some`.
    pub fn opt_bool(&mut self, key: &str, value: Option<bool>) -> &mut Self {
        if let Some(value) = value {
            self.bool(key, value);
        }
        self
    }

    /// An unsigned integer member.
    pub fn u64(&mut self, key: &str, value: u64) -> &mut Self {
        write_u64(self.key(key), value);
        self
    }
}

/// Builds a JSON object text from members that are values to write, literal JSON, or strings
/// to escape. Keys are escaped when they need it.
#[derive(Debug)]
pub struct ObjectWriter {
    text: String,
}

impl Default for ObjectWriter {
    fn default() -> Self {
        ObjectWriter::new()
    }
}

impl ObjectWriter {
    /// An empty object.
    pub fn new() -> Self {
        ObjectWriter {
            text: String::from("{"),
        }
    }

    /// The members written so far (the opening `{` is already in the text).
    fn members(&mut self) -> Members<'_> {
        Members {
            out: &mut self.text,
            first: 1,
        }
    }

    /// A member whose value is literal JSON text (`null`, `[]`, …).
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.members().raw(key, json);
        self
    }

    /// A member whose value is written from a parsed (or built) value.
    pub fn value(&mut self, key: &str, value: &Value<'_>) -> &mut Self {
        self.members().value(key, value);
        self
    }

    /// A member whose value is any Rust value that writes itself as JSON (a list of strings, …).
    pub fn serialize<T: ToJson + ?Sized>(&mut self, key: &str, value: &T) -> &mut Self {
        self.members().serialize(key, &value);
        self
    }

    /// A string member (escaped).
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        self.members().string(key, value);
        self
    }

    /// A boolean member.
    pub fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.members().bool(key, value);
        self
    }

    /// The object text.
    pub fn finish(self) -> String {
        let mut text = self.text;
        text.push('}');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings with every ASCII byte, multi-byte characters and separators, written exactly as
    /// serde_json writes them (only `"`, `\` and control characters escaped, lowercase hex).
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let ascii: String = (0u8..0x80).map(char::from).collect();
        let samples = [
            "",
            "plain",
            ascii.as_str(),
            "é ü 中文 😀",
            "\u{2028}\u{2029}\u{fffd}\u{7f}",
            "\"\\/\u{8}\u{c}\n\r\t\u{b}\u{0}\u{1f}",
            "ends with escape\n",
            "\néscape first",
        ];
        for text in samples {
            assert_eq!(
                to_string(text),
                serde_json::to_string(text).unwrap(),
                "{text:?}"
            );
        }
        assert_eq!(to_string("\u{1}\u{1f}"), r#""\u0001\u001f""#);
    }

    /// Floats take serde_json's form; non-finite ones are `null`.
    #[test]
    fn floats_are_formatted_as_serde_json_formats_them() {
        let samples = [
            0.5,
            -1.5,
            0.1,
            1e21,
            1e-7,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            4.0,
            -0.0,
            1e16,
            9_007_199_254_740_992.0,
            123_456_789.125,
        ];
        for n in samples {
            let mut out = String::new();
            write_f64(&mut out, n);
            assert_eq!(out, serde_json::to_string(&n).unwrap(), "{n}");
        }
        for n in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut out = String::new();
            write_f64(&mut out, n);
            assert_eq!(out, "null");
        }
    }

    /// Integral numbers below the bound are integers, others floats; the bounds differ per use.
    #[test]
    fn js_numbers_switch_to_floats_at_their_bound() {
        let js = |n: f64, below: f64| {
            let mut out = String::new();
            write_js_number(&mut out, n, below);
            out
        };
        const ROW: f64 = 9_007_199_254_740_992.0;
        assert_eq!(js(-0.0, ROW), "0");
        assert_eq!(js(-42.0, ROW), "-42");
        assert_eq!(js(9_007_199_254_740_991.0, ROW), "9007199254740991");
        assert_eq!(js(ROW, ROW), serde_json::to_string(&ROW).unwrap());
        assert_eq!(js(ROW, 9.0e18), "9007199254740992");
        assert_eq!(js(-8.9e18, 9.0e18), "-8900000000000000000");
        assert_eq!(js(9.0e18, 9.0e18), serde_json::to_string(&9.0e18).unwrap());
        assert_eq!(js(f64::INFINITY, 9.0e18), "null");
        assert_eq!(js(f64::NAN, ROW), "null");
        let mut out = String::new();
        write_i64(&mut out, i64::MIN);
        write_u64(&mut out, u64::MAX);
        assert_eq!(out, format!("{}{}", i64::MIN, u64::MAX));
    }

    /// serde_json numbers keep their kind: unsigned, negative and float.
    #[test]
    fn serde_json_numbers_keep_their_kind() {
        for text in [
            "0",
            "18446744073709551615",
            "-9223372036854775808",
            "2.5",
            "1e300",
        ] {
            let number: serde_json::Number = serde_json::from_str(text).unwrap();
            assert_eq!(to_string(&number), serde_json::to_string(&number).unwrap());
        }
    }

    /// Omitted, `null` and present members; keys are escaped like strings.
    #[test]
    fn members_are_omitted_or_null_as_asked() {
        let mut out = String::new();
        let mut m = Members::open(&mut out);
        m.opt_string("absent", &None)
            .opt_string("present", &Some("v".to_owned()))
            .nullable_string("null", &None)
            .opt_bool("no", None)
            .opt("none", &None::<u64>)
            .opt("list", &Some(vec!["a\n".to_owned()]))
            .serialize("nothing", &None::<bool>)
            .u64("n", 7)
            .string("k\"\u{1}", "");
        m.close();
        assert_eq!(
            out,
            r#"{"present":"v","null":null,"list":["a\n"],"nothing":null,"n":7,"k\"\u0001":""}"#
        );
        let mut out = String::new();
        Members::open(&mut out).close();
        assert_eq!(out, "{}");
    }
}
