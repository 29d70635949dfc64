//! Lenient, borrowing access to JSON values, on top of `serde_json`.
//!
//! Every parser in the crate goes through this module instead of deriving `Deserialize` for
//! dozens of structs: one object visitor collects `(key, raw value)` pairs, and fields are then
//! read and classified on demand. That keeps the WebAssembly small (serde_json is instantiated
//! for a handful of types only), never fails a whole message because one field has an
//! unexpected JSON type (callers decide what a wrong type means), borrows strings from the input
//! unless they contain escapes, and leaves nested containers unparsed until someone asks.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// A JSON value seen by its kind. Strings and numbers are decoded; arrays and objects stay raw
/// until they are read with [`Value::as_object`] / [`Value::as_array`].
#[derive(Debug, Clone, Default)]
pub enum Value<'a> {
    /// The member is not present.
    #[default]
    Absent,
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    Array(&'a RawValue),
    Object(&'a RawValue),
}

/// A member of the wrong JSON type for what the reader expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongType;

impl<'a> Value<'a> {
    /// Classifies raw JSON text that serde_json has already validated.
    pub fn classify(raw: &'a RawValue) -> Value<'a> {
        // serde_json's raw values carry no surrounding whitespace, and JSON whitespace is ASCII:
        // the ASCII trim is exact and much cheaper in wasm than the Unicode one.
        let text = raw.get().trim_ascii_start();
        match text.as_bytes().first() {
            Some(b'"') => Value::String(decode_string(raw)),
            Some(b'{') => Value::Object(raw),
            Some(b'[') => Value::Array(raw),
            Some(b't') => Value::Bool(true),
            Some(b'f') => Value::Bool(false),
            Some(b'n') => Value::Null,
            // serde_json's own number parser (already in the binary; std's pulls in big tables).
            Some(_) => serde_json::from_str::<f64>(text).map_or(Value::Null, Value::Number),
            None => Value::Absent,
        }
    }

    /// Absent or `null`.
    pub fn is_nullish(&self) -> bool {
        matches!(self, Value::Absent | Value::Null)
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The string, if this is a non-empty string (JavaScript truthiness of a string field).
    pub fn non_empty_str(&self) -> Option<&str> {
        self.as_str().filter(|s| !s.is_empty())
    }

    /// The string, owned or borrowed, if this is a string.
    pub fn into_str(self) -> Option<Cow<'a, str>> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The boolean, if this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The raw JSON text of an object or array member.
    pub fn raw(&self) -> Option<&'a RawValue> {
        match *self {
            Value::Object(raw) | Value::Array(raw) => Some(raw),
            _ => None,
        }
    }

    /// The members of an object value.
    pub fn as_object(&self) -> Option<Object<'a>> {
        match *self {
            Value::Object(raw) => Object::from_raw(raw),
            _ => None,
        }
    }

    /// The elements of an array value, each raw.
    pub fn as_array(&self) -> Option<Vec<&'a RawValue>> {
        match *self {
            Value::Array(raw) => parse_array(raw.get()),
            _ => None,
        }
    }

    /// Strict read: absent or `null` → `None`, a string → `Some`, anything else → [`WrongType`].
    pub fn opt_str(self) -> Result<Option<Cow<'a, str>>, WrongType> {
        match self {
            Value::Absent | Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s)),
            _ => Err(WrongType),
        }
    }

    /// Strict read of a finite number (absent or `null` → `None`).
    pub fn opt_f64(&self) -> Result<Option<f64>, WrongType> {
        match *self {
            Value::Absent | Value::Null => Ok(None),
            Value::Number(n) if n.is_finite() => Ok(Some(n)),
            _ => Err(WrongType),
        }
    }

    /// Strict read of a boolean (absent or `null` → `None`).
    pub fn opt_bool(&self) -> Result<Option<bool>, WrongType> {
        match *self {
            Value::Absent | Value::Null => Ok(None),
            Value::Bool(b) => Ok(Some(b)),
            _ => Err(WrongType),
        }
    }

    /// Strict read of an object (absent or `null` → `None`).
    pub fn opt_object(&self) -> Result<Option<&'a RawValue>, WrongType> {
        match *self {
            Value::Absent | Value::Null => Ok(None),
            Value::Object(raw) => Ok(Some(raw)),
            _ => Err(WrongType),
        }
    }
}

/// The members of one JSON object, in document order, with raw values.
#[derive(Debug, Clone, Default)]
pub struct Object<'a> {
    members: Vec<(Cow<'a, str>, &'a RawValue)>,
}

impl<'a> Object<'a> {
    /// Parses JSON text that must be an object. `None` for invalid JSON or another kind.
    pub fn parse(text: &'a str) -> Option<Object<'a>> {
        serde_json::from_str::<Object<'a>>(text).ok()
    }

    /// Reads the members of a raw value, if it is an object.
    pub fn from_raw(raw: &'a RawValue) -> Option<Object<'a>> {
        Object::parse(raw.get())
    }

    /// The raw value of a member. With duplicate keys the last one wins, as in `JSON.parse`.
    pub fn raw(&self, key: &str) -> Option<&'a RawValue> {
        self.members
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|&(_, raw)| raw)
    }

    /// A member, classified (`Value::Absent` when missing).
    pub fn get(&self, key: &str) -> Value<'a> {
        self.raw(key).map_or(Value::Absent, Value::classify)
    }

    /// A string member; other kinds read as `None`.
    pub fn str(&self, key: &str) -> Option<Cow<'a, str>> {
        self.get(key).into_str()
    }

    /// A number member; other kinds read as `None`.
    pub fn f64(&self, key: &str) -> Option<f64> {
        self.get(key).as_f64()
    }

    /// A boolean member; other kinds read as `None`.
    pub fn bool(&self, key: &str) -> Option<bool> {
        self.get(key).as_bool()
    }

    /// An object member; other kinds read as `None`.
    pub fn object(&self, key: &str) -> Option<Object<'a>> {
        self.get(key).as_object()
    }

    /// An array member's elements; other kinds read as `None`.
    pub fn array(&self, key: &str) -> Option<Vec<&'a RawValue>> {
        self.get(key).as_array()
    }

    /// True when the member is present (even `null`).
    pub fn has(&self, key: &str) -> bool {
        self.raw(key).is_some()
    }

    /// The members in document order (duplicates included).
    pub fn members(&self) -> impl Iterator<Item = (&str, &'a RawValue)> + '_ {
        self.members.iter().map(|(k, raw)| (k.as_ref(), *raw))
    }

    /// The number of members (duplicates included).
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// True when the object has no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
}

/// Parses JSON text that must be an array into its raw elements.
pub fn parse_array(text: &str) -> Option<Vec<&RawValue>> {
    serde_json::from_str(text).ok()
}

/// Parses any JSON text into a raw value (validating it).
pub fn parse_raw(text: &str) -> Option<&RawValue> {
    serde_json::from_str(text).ok()
}

/// True when `raw` is an object.
pub fn is_object(raw: &RawValue) -> bool {
    raw.get().trim_ascii_start().starts_with('{')
}

/// Decodes a validated JSON string literal, borrowing when it has no escapes.
fn decode_string(raw: &RawValue) -> Cow<'_, str> {
    let text = raw.get().trim_ascii();
    let inner = text
        .get(1..text.len().saturating_sub(1))
        .unwrap_or_default();
    // A plain byte loop: short strings are the common case, and `contains` goes through memchr.
    if !inner.bytes().any(|b| b == b'\\') {
        return Cow::Borrowed(inner);
    }
    // Escapes present: let serde_json decode them. Lone surrogates are rejected there; they
    // read as an empty string rather than failing the whole message.
    Cow::Owned(serde_json::from_str::<String>(text).unwrap_or_default())
}

/// Builds a JSON object text from members whose values are already JSON (raw slices of other
/// documents, literals) or strings to escape. Keys are escaped when they need it.
#[derive(Debug)]
pub struct ObjectWriter {
    buf: String,
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
            buf: String::from("{"),
        }
    }

    fn key(&mut self, key: &str) {
        if self.buf.len() > 1 {
            self.buf.push(',');
        }
        if key.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
            self.buf.push('"');
            self.buf.push_str(key);
            self.buf.push('"');
        } else {
            self.buf
                .push_str(&serde_json::to_string(key).unwrap_or_default());
        }
        self.buf.push(':');
    }

    /// A member whose value is JSON text (validated elsewhere).
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.buf.push_str(json);
        self
    }

    /// A string member (escaped).
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        self.buf
            .push_str(&serde_json::to_string(value).unwrap_or_else(|_| String::from("\"\"")));
        self
    }

    /// A boolean member.
    pub fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// The object text.
    pub fn finish(mut self) -> String {
        self.buf.push('}');
        self.buf
    }
}

impl<'de> Deserialize<'de> for Object<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ObjectVisitor)
    }
}

struct ObjectVisitor;

impl<'de> Visitor<'de> for ObjectVisitor {
    type Value = Object<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(8));
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            members.push((key, map.next_value::<&'de RawValue>()?));
        }
        Ok(Object { members })
    }
}

/// An object key, borrowed from the input unless it had escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(v.to_owned())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_members_by_kind() {
        let o = Object::parse(
            r#"{"s":"a\"b","n":-1.5e2,"t":true,"z":null,"o":{"x":1},"a":[1,"2"],"p":"plain"}"#,
        )
        .unwrap();
        assert_eq!(o.str("s").as_deref(), Some("a\"b"));
        assert!(matches!(o.str("p"), Some(Cow::Borrowed("plain"))));
        assert_eq!(o.f64("n"), Some(-150.0));
        assert_eq!(o.bool("t"), Some(true));
        assert!(matches!(o.get("z"), Value::Null));
        assert!(matches!(o.get("missing"), Value::Absent));
        assert_eq!(o.object("o").unwrap().f64("x"), Some(1.0));
        assert_eq!(o.array("a").unwrap().len(), 2);
        assert!(o.str("n").is_none(), "a number is not a string");
    }

    #[test]
    fn strict_reads_report_wrong_types() {
        let o = Object::parse(r#"{"s":"x","n":3,"z":null}"#).unwrap();
        assert!(o.get("n").opt_str().is_err());
        assert!(o.get("s").opt_f64().is_err());
        assert!(matches!(o.get("z").opt_str(), Ok(None)));
        assert!(o.get("absent").opt_bool() == Ok(None));
        assert!(o.get("n").opt_f64() == Ok(Some(3.0)));
    }

    #[test]
    fn last_duplicate_wins_as_in_json_parse() {
        let o = Object::parse(r#"{"k":1,"k":2}"#).unwrap();
        assert_eq!(o.f64("k"), Some(2.0));
    }

    #[test]
    fn rejects_what_is_not_an_object() {
        for text in ["[]", "1", "\"s\"", "null", "{", "{\"a\":}", ""] {
            assert!(Object::parse(text).is_none(), "{text}");
        }
        assert!(parse_array("{}").is_none());
        assert_eq!(parse_array("[1, {\"a\":2}]").unwrap().len(), 2);
    }

    #[test]
    fn object_writer_builds_objects() {
        let mut w = ObjectWriter::new();
        w.raw("a", "[1,2]").string("s", "q\"x").bool("b", false);
        assert_eq!(w.finish(), r#"{"a":[1,2],"s":"q\"x","b":false}"#);
        assert_eq!(ObjectWriter::new().finish(), "{}");
    }

    #[test]
    fn escaped_keys_and_strings_decode() {
        let o = Object::parse(r#"{"ty\u0070e":"caf\u00e9"}"#).unwrap();
        assert_eq!(o.str("type").as_deref(), Some("café"));
    }
}
