//! Writing [`Value`] trees back as JSON, and [`ObjectWriter`] for assembling result objects.

use super::{Object, Value};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Absent | Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => serialize_number(*n, s),
            Value::String(text) => s.serialize_str(text),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(object) => object.serialize(s),
        }
    }
}

impl Serialize for Object<'_> {
    /// Members in document order, duplicates included (a reader keeps the last, as before).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.members.len()))?;
        for (key, value) in &self.members {
            map.serialize_entry(key.as_ref(), value)?;
        }
        map.end()
    }
}

/// A number as `JSON.stringify` would write it back: integral values as integers (`4`, never
/// `4.0`; `-0` as `0`), others in serde_json's shortest round-trip form; non-finite as `null`.
fn serialize_number<S: Serializer>(n: f64, s: S) -> Result<S::Ok, S::Error> {
    if n.fract() == 0.0 && n.abs() < 9.0e18 {
        // Exact: every integral f64 below 2^63 converts to i64 without loss.
        s.serialize_i64(n as i64)
    } else {
        s.serialize_f64(n)
    }
}

/// The JSON text of a value (a [`Value`], an [`Object`], …).
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    // Writing a tree with string keys into a String cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

/// Builds a JSON object text from members that are values to write, literal JSON, or strings
/// to escape. Keys are escaped when they need it.
#[derive(Debug)]
pub struct ObjectWriter {
    buf: Vec<u8>,
}

impl Default for ObjectWriter {
    fn default() -> Self {
        ObjectWriter::new()
    }
}

impl ObjectWriter {
    /// An empty object.
    pub fn new() -> Self {
        ObjectWriter { buf: vec![b'{'] }
    }

    fn key(&mut self, key: &str) {
        if self.buf.len() > 1 {
            self.buf.push(b',');
        }
        self.write(key);
        self.buf.push(b':');
    }

    fn write<T: Serialize + ?Sized>(&mut self, value: &T) {
        // Serializing strings and trees into memory cannot fail; a failure would only truncate.
        let _ = serde_json::to_writer(&mut self.buf, value);
    }

    /// A member whose value is literal JSON text (`null`, `[]`, …).
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.buf.extend_from_slice(json.as_bytes());
        self
    }

    /// A member whose value is written from a parsed (or built) value.
    pub fn value(&mut self, key: &str, value: &Value<'_>) -> &mut Self {
        self.key(key);
        self.write(value);
        self
    }

    /// A member whose value is any serializable Rust value (a list of strings, …).
    pub fn serialize<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> &mut Self {
        self.key(key);
        self.write(value);
        self
    }

    /// A string member (escaped).
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        self.serialize(key, value)
    }

    /// A boolean member.
    pub fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// The object text.
    pub fn finish(mut self) -> String {
        self.buf.push(b'}');
        // Only UTF-8 was written (keys and values come from `str`s and serde_json).
        String::from_utf8(self.buf).unwrap_or_default()
    }
}
