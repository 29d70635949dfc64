//! The one serde visitor that reads a JSON document into a [`Value`] tree.
//!
//! It is driven only by `deserialize_any`, and implements every method serde_json's
//! `deserialize_any` calls (unit, bool, u64, i64, f64, borrowed and copied strings, sequences,
//! maps): no default `Visitor` method — each of which reports a type error through
//! `Error::invalid_type` and pulls serde's `Unexpected` formatting (floats included) into the
//! binary — is ever instantiated. Keys go through a seed whose visitor is driven by
//! `deserialize_any` too. Nested containers are read in the same pass.

use super::{Object, Value};
use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

impl<'de> Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value<'de>, E> {
        Ok(Value::Bool(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value<'de>, E> {
        Ok(Value::Number(v as f64))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value<'de>, E> {
        Ok(Value::Number(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value<'de>, E> {
        Ok(Value::Number(v))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value<'de>>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value<'de>, A::Error> {
        let mut object = Object::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            object.members.push((key, map.next_value::<Value<'de>>()?));
        }
        Ok(Value::Object(object))
    }
}

/// An object key, borrowed from the input unless it had escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}
