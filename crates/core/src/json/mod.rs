//! Lenient, borrowing JSON documents on top of `serde_json`.
//!
//! Every parser in the crate goes through this module instead of deriving `Deserialize` for
//! dozens of structs: a document is read in one pass into a tree of [`Value`]s by a single serde
//! visitor driven only by `deserialize_any` ([`de`]), and fields are then read and classified on
//! demand. That keeps the WebAssembly small (serde_json is instantiated for one visitor, and none
//! of serde's type-error reporting — with its number and string formatting — is linked), never
//! fails a whole message because one field has an unexpected JSON type (callers decide what a
//! wrong type means), and borrows strings from the input unless they contain escapes.
//!
//! Values that must travel on as JSON (a delta copied into `stream_event.event`, a tool call's
//! input, response pages) are written back by serde_json through their [`serde::Serialize`]
//! impls ([`ser`]): members in document order, integral numbers as integers, other numbers in
//! serde_json's shortest form. Everything else the crate writes derives `Serialize`.

mod de;
mod repair;
mod ser;
#[cfg(test)]
mod tests;

pub use ser::{serialize_js_number, to_string, write_u64};

use std::borrow::Cow;

/// A JSON value. Strings borrow from the parsed text unless they had escapes; arrays and objects
/// own their elements. [`Value::Absent`] stands for a missing member (it is never parsed).
#[derive(Debug, Default, Clone, PartialEq)]
pub enum Value<'a> {
    /// The member is not present.
    #[default]
    Absent,
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Object<'a>),
}

/// What a missing member reads as (borrowed by [`Object::get`]).
static ABSENT: Value<'static> = Value::Absent;

/// A member of the wrong JSON type for what the reader expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongType;

impl<'a> Value<'a> {
    /// A shared `Value::Absent` (what [`Object::get`] returns for a missing member).
    pub fn absent() -> &'static Value<'static> {
        &ABSENT
    }

    /// Absent or `null`.
    pub fn is_nullish(&self) -> bool {
        matches!(self, Value::Absent | Value::Null)
    }

    /// `Some(self)` unless absent or `null` (a member read with JS `??` semantics).
    pub fn non_null(self) -> Option<Value<'a>> {
        (!self.is_nullish()).then_some(self)
    }

    /// True for an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
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

    /// A copy of the string, if this is a string (borrowed strings stay borrowed).
    pub fn to_str(&self) -> Option<Cow<'a, str>> {
        match self {
            Value::String(s) => Some(s.clone()),
            _ => None,
        }
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

    /// The members of an object value.
    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The object, if this is an object.
    pub fn into_object(self) -> Option<Object<'a>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The elements of an array value.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn into_array(self) -> Option<Vec<Value<'a>>> {
        match self {
            Value::Array(items) => Some(items),
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
    pub fn opt_object(self) -> Result<Option<Object<'a>>, WrongType> {
        match self {
            Value::Absent | Value::Null => Ok(None),
            Value::Object(o) => Ok(Some(o)),
            _ => Err(WrongType),
        }
    }

    /// A deep copy that owns all its strings (for values kept beyond the parsed text).
    pub fn to_static(&self) -> Value<'static> {
        self.clone().into_static()
    }

    /// [`Value::to_static`], reusing the strings that are already owned.
    pub fn into_static(self) -> Value<'static> {
        match self {
            Value::Absent => Value::Absent,
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(n),
            Value::String(s) => Value::String(Cow::Owned(s.into_owned())),
            Value::Array(items) => {
                let mut owned = Vec::with_capacity(items.len());
                for item in items {
                    owned.push(item.into_static());
                }
                Value::Array(owned)
            }
            Value::Object(o) => Value::Object(o.into_static()),
        }
    }
}

/// The members of one JSON object, in document order (duplicates included).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Object<'a> {
    members: Vec<(Cow<'a, str>, Value<'a>)>,
}

impl<'a> Object<'a> {
    /// An object without members.
    pub const fn new() -> Self {
        Object {
            members: Vec::new(),
        }
    }

    /// Parses JSON text that must be an object. `None` for invalid JSON or another kind.
    pub fn parse(text: &'a str) -> Option<Object<'a>> {
        parse(text)?.into_object()
    }

    /// The member [`Object::get`] reads: with duplicate keys the last one wins, as in
    /// `JSON.parse`.
    fn find(&self, key: &str) -> Option<&Value<'a>> {
        self.members
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// A member (`Value::Absent` when missing). With duplicate keys the last one wins.
    pub fn get(&self, key: &str) -> &Value<'a> {
        self.find(key).unwrap_or(&ABSENT)
    }

    /// Moves a member out (the one [`Object::get`] reads), leaving `Value::Absent` in its place.
    pub fn take(&mut self, key: &str) -> Value<'a> {
        match self.members.iter_mut().rev().find(|(k, _)| k == key) {
            Some((_, v)) => std::mem::take(v),
            None => Value::Absent,
        }
    }

    /// A string member; other kinds read as `None`.
    pub fn str(&self, key: &str) -> Option<Cow<'a, str>> {
        self.get(key).to_str()
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
    pub fn object(&self, key: &str) -> Option<&Object<'a>> {
        self.get(key).as_object()
    }

    /// An array member's elements; other kinds read as `None`.
    pub fn array(&self, key: &str) -> Option<&[Value<'a>]> {
        self.get(key).as_array()
    }

    /// True when the member is present (even `null`).
    pub fn has(&self, key: &str) -> bool {
        self.find(key).is_some()
    }

    /// The members in document order (duplicates included).
    pub fn members(&self) -> impl Iterator<Item = (&str, &Value<'a>)> + '_ {
        self.members.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// The members by value, in document order (duplicates included).
    pub fn into_members(self) -> impl Iterator<Item = (Cow<'a, str>, Value<'a>)> {
        self.members.into_iter()
    }

    /// Replaces the member [`Object::get`] reads, or appends one when there is none.
    pub fn set(&mut self, key: impl Into<Cow<'a, str>>, value: Value<'a>) {
        let key = key.into();
        match self.members.iter_mut().rev().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.members.push((key, value)),
        }
    }

    /// Appends a member (no check for duplicates).
    pub fn push(&mut self, key: impl Into<Cow<'a, str>>, value: Value<'a>) {
        self.members.push((key.into(), value));
    }

    /// The number of members (duplicates included).
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// True when the object has no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// A deep copy that owns all its strings.
    pub fn to_static(&self) -> Object<'static> {
        self.clone().into_static()
    }

    /// [`Object::to_static`], reusing the strings that are already owned.
    pub fn into_static(self) -> Object<'static> {
        let mut members = Vec::with_capacity(self.members.len());
        for (key, value) in self.members {
            members.push((Cow::Owned(key.into_owned()), value.into_static()));
        }
        Object { members }
    }
}

/// "Text of content" (spec §5 and transcript §6.1), one rule for frames and history: a string as
/// is; an array → the concatenation of its string items and of its object items' string `text`
/// (`None` when that is empty); an object → its string `text`; anything else → `None`.
pub fn content_text<'t>(value: &'t Value<'_>) -> Option<Cow<'t, str>> {
    let Value::Array(list) = value else {
        return text_piece(value).map(Cow::Borrowed);
    };
    // The first piece stays borrowed until a second one comes.
    let mut first: Option<&str> = None;
    let mut joined = String::new();
    for item in list {
        let Some(piece) = text_piece(item) else {
            continue;
        };
        match first {
            None => first = Some(piece),
            Some(first) => {
                if joined.is_empty() {
                    joined.push_str(first);
                }
                joined.push_str(piece);
            }
        }
    }
    if joined.is_empty() {
        first.filter(|s| !s.is_empty()).map(Cow::Borrowed)
    } else {
        Some(Cow::Owned(joined))
    }
}

/// A string itself, or an object's string `text`.
fn text_piece<'t>(value: &'t Value<'_>) -> Option<&'t str> {
    match value {
        Value::String(s) => Some(s),
        Value::Object(obj) => obj.get("text").as_str(),
        _ => None,
    }
}

/// Parses any JSON text. `None` for invalid JSON.
///
/// Lone-surrogate escapes (`"\ud800"`, which `JSON.parse` accepts but a Rust string cannot hold)
/// read as U+FFFD instead of failing the whole document.
pub fn parse(text: &str) -> Option<Value<'_>> {
    match serde_json::from_str::<Value<'_>>(text) {
        Ok(value) => Some(value),
        Err(_) => repair::parse_repaired(text),
    }
}

/// Parses JSON text that must be an array into its elements.
pub fn parse_array(text: &str) -> Option<Vec<Value<'_>>> {
    parse(text)?.into_array()
}
