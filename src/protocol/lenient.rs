//! Lenient, borrowing field decoders for wire frames.
//!
//! The reference client reads frames with `typeof x === "string" ? x : undefined` checks, so a field
//! of an unexpected JSON kind must never fail the whole frame. These types accept any JSON value,
//! keep what the protocol expects and skip the rest without allocating (nested arrays and objects
//! are skipped with `IgnoredAny`). Strings borrow from the frame text unless they contain escapes.

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Number;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// One scalar field as JS sees it: missing, `null`, a boolean, a number, a string, or anything else
/// (an array or object, skipped). `Missing` is the default for absent keys (`#[serde(default)]`).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Field<'a> {
    /// The key is absent.
    #[default]
    Missing,
    /// The key is present with `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number (kept exact: integer or float).
    Num(Number),
    /// A string (borrowed unless it had escapes).
    Str(Cow<'a, str>),
    /// An array or object (skipped).
    Other,
}

impl<'a> Field<'a> {
    /// The string value, if the field is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Field::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The string value if it is a non-empty string (JS truthiness of a string field).
    pub fn non_empty_str(&self) -> Option<&str> {
        self.as_str().filter(|s| !s.is_empty())
    }

    /// The boolean value, if the field is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Field::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if the field is a number.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Field::Num(n) => Some(n),
            _ => None,
        }
    }

    /// True when the field is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Field::Null)
    }

    /// Takes the string out (borrowed if it was borrowed).
    pub fn into_str(self) -> Option<Cow<'a, str>> {
        match self {
            Field::Str(s) => Some(s),
            _ => None,
        }
    }
}

struct FieldVisitor;

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = Field<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Field::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Field::Num(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Field::Num(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Number::from_f64(v).map_or(Field::Other, Field::Num))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Field::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Field::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Field::Str(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Field::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Field::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Field::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Field::Other)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Field<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FieldVisitor)
    }
}

/// `Some(T)` when the JSON value is an object (decoded as `T`), `None` for any other kind.
/// `T` should itself be lenient so that a present object never fails the frame.
#[derive(Debug, Clone)]
pub struct Obj<T>(pub Option<T>);

impl<T> Default for Obj<T> {
    fn default() -> Self {
        Obj(None)
    }
}

struct ObjVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
    type Value = Obj<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(|v| Obj(Some(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Obj(None))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Obj(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Obj(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Obj(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Obj(None))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Obj(None))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Obj(None))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Obj(None))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjVisitor(PhantomData))
    }
}

/// The elements of a JSON array (each decoded as `T`); any other kind decodes as an empty list
/// with `is_array == false`.
#[derive(Debug, Clone)]
pub struct List<T> {
    /// The decoded elements.
    pub items: Vec<T>,
    /// Whether the value was an array.
    pub is_array: bool,
}

impl<T> Default for List<T> {
    fn default() -> Self {
        List {
            items: Vec::new(),
            is_array: false,
        }
    }
}

impl<T> List<T> {
    /// The elements when the value was an array, else `None`.
    pub fn into_array(self) -> Option<Vec<T>> {
        self.is_array.then_some(self.items)
    }
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
    type Value = List<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element::<T>()? {
            out.push(item);
        }
        Ok(List {
            items: out,
            is_array: true,
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(List::default())
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(List::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(List::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(List::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(List::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(List::default())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(List::default())
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(List::default())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ListVisitor(PhantomData))
    }
}

/// "Text of content" (spec §5): a string as-is; an array → concatenation of string items and items'
/// string `text` (`None` when that is empty); an object with a string `text` → it; otherwise `None`.
#[derive(Debug, Clone, Default)]
pub struct Text<'a>(pub Option<Cow<'a, str>>);

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct TextPart<'a> {
    #[serde(borrow)]
    text: Field<'a>,
}

/// An array item: a bare string, or an object whose `text` is a string.
struct PartOrText<'a>(Option<Cow<'a, str>>);

struct PartOrTextVisitor;

impl<'de> Visitor<'de> for PartOrTextVisitor {
    type Value = PartOrText<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(PartOrText(Some(Cow::Borrowed(v))))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(PartOrText(Some(Cow::Owned(v.to_owned()))))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let part = TextPart::deserialize(MapAccessDeserializer::new(map))?;
        Ok(PartOrText(part.text.into_str()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(PartOrText(None))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(PartOrText(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(PartOrText(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(PartOrText(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(PartOrText(None))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(PartOrText(None))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for PartOrText<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PartOrTextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Text(Some(Cow::Borrowed(v))))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Text(Some(Cow::Owned(v.to_owned()))))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Text(Some(Cow::Owned(v))))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut joined: Option<Cow<'de, str>> = None;
        while let Some(part) = seq.next_element::<PartOrText<'de>>()? {
            let Some(piece) = part.0 else {
                continue;
            };
            joined = Some(match joined {
                None => piece,
                Some(prev) => Cow::Owned(prev.into_owned() + &piece),
            });
        }
        Ok(Text(joined.filter(|s| !s.is_empty())))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let part = TextPart::deserialize(MapAccessDeserializer::new(map))?;
        Ok(Text(part.text.into_str()))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Text(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Text(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Text(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Text(None))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Text(None))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Text(None))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

/// "Text of content" of a raw JSON value (`None` when it has no text, see [`Text`]).
pub fn text_of(raw: &serde_json::value::RawValue) -> Option<Cow<'_, str>> {
    serde_json::from_str::<Text<'_>>(raw.get())
        .ok()
        .and_then(|t| t.0)
}

/// The first element of a JSON array decoded as `T` (the rest skipped); `None` for an empty array
/// or any other JSON kind.
pub struct First<T>(pub Option<T>);

struct FirstVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for FirstVisitor<T> {
    type Value = First<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let first = seq.next_element::<T>()?;
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(First(first))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for First<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(FirstVisitor(PhantomData))
    }
}

/// True when the raw JSON text is an object (`{…}`), as opposed to an array, string, number, etc.
pub fn is_object(raw: &serde_json::value::RawValue) -> bool {
    raw.get().trim_start().starts_with('{')
}
