//! Lenient JSON building blocks for the input, stream-event and history parsers.
//!
//! Everything here deserializes from any JSON value without failing on a wrong type, so callers
//! can decide afterwards whether a wrong type makes a message invalid (live input) or is simply
//! skipped (history, stream payloads). Strings are borrowed from the input when they contain no
//! escapes.

use serde::de::{Deserialize, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// The wrong JSON type for a known field; the message carrying it is invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongType;

/// A JSON value seen only for its type; strings, numbers and booleans keep their value.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Loose<'a> {
    /// The field was not present.
    #[default]
    Absent,
    Null,
    Str(Cow<'a, str>),
    Num(f64),
    Bool(bool),
    Array,
    Object,
}

impl<'a> Loose<'a> {
    /// Absent or null → `None`; a string → `Some`; anything else is the wrong type.
    pub fn into_opt_str(self) -> Result<Option<Cow<'a, str>>, WrongType> {
        match self {
            Loose::Absent | Loose::Null => Ok(None),
            Loose::Str(s) => Ok(Some(s)),
            _ => Err(WrongType),
        }
    }

    /// Absent or null → `None`; a finite number → `Some`; anything else is the wrong type.
    pub fn opt_num(&self) -> Result<Option<f64>, WrongType> {
        match *self {
            Loose::Absent | Loose::Null => Ok(None),
            Loose::Num(n) if n.is_finite() => Ok(Some(n)),
            _ => Err(WrongType),
        }
    }

    /// Absent or null → `None`; a boolean → `Some`; anything else is the wrong type.
    pub fn opt_bool(&self) -> Result<Option<bool>, WrongType> {
        match *self {
            Loose::Absent | Loose::Null => Ok(None),
            Loose::Bool(b) => Ok(Some(b)),
            _ => Err(WrongType),
        }
    }

    /// The string value, if this is a string (lenient: other types give `None`).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Loose::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The string value when it is a non-empty string.
    pub fn non_empty_str(&self) -> Option<&str> {
        self.as_str().filter(|s| !s.is_empty())
    }

    /// The number when it is a finite number (lenient).
    pub fn finite_num(&self) -> Option<f64> {
        self.opt_num().ok().flatten()
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Loose::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Loose::Num(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Loose::Num(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Loose::Num(v))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Loose::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Loose::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Loose::Str(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Loose::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Loose::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Loose::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Loose::Object)
    }
}

impl<'de> Deserialize<'de> for Loose<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

/// An object key, borrowed when it has no escapes.
pub struct Key<'a>(pub Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Loose::deserialize(d)? {
            Loose::Str(s) => Ok(Key(s)),
            _ => Err(D::Error::custom("object key must be a string")),
        }
    }
}

/// "Text of content" (spec §9 / §6.1): a string as is; an array → the concatenation of its
/// string items and its items' string `text` (`None` when that is empty); an object → its string
/// `text`; anything else → `None`.
#[derive(Debug, Default)]
pub struct ContentText<'a>(pub Option<Cow<'a, str>>);

struct ContentVisitor;

impl<'de> Visitor<'de> for ContentVisitor {
    type Value = ContentText<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(ContentText(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(ContentText(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(ContentText(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(ContentText(None))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(ContentText(None))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(ContentText(None))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(ContentText(Some(Cow::Borrowed(v))))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(ContentText(Some(Cow::Owned(v.to_owned()))))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(ContentText(Some(Cow::Owned(v))))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out: Option<Cow<'de, str>> = None;
        while let Some(part) = seq.next_element::<Part<'de>>()? {
            let Some(text) = part.0 else { continue };
            match &mut out {
                None => out = Some(text),
                Some(acc) => acc.to_mut().push_str(&text),
            }
        }
        Ok(ContentText(out.filter(|s| !s.is_empty())))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Ok(ContentText(text_field(map)?))
    }
}

impl<'de> Deserialize<'de> for ContentText<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ContentVisitor)
    }
}

/// One element of a content array: a bare string, or an object's string `text`.
struct Part<'a>(Option<Cow<'a, str>>);

impl<'de> Deserialize<'de> for Part<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PartVisitor;
        impl<'de> Visitor<'de> for PartVisitor {
            type Value = Part<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Part(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Part(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Part(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Part(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Part(None))
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Part(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Part(Some(Cow::Owned(v.to_owned()))))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Part(Some(Cow::Owned(v))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Part(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Ok(Part(text_field(map)?))
            }
        }
        d.deserialize_any(PartVisitor)
    }
}

/// Reads an object and returns its `text` member when that is a string (last one wins).
fn text_field<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Cow<'de, str>>, A::Error> {
    let mut text = None;
    while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
        if k == "text" {
            text = map
                .next_value::<Loose<'de>>()?
                .into_opt_str()
                .ok()
                .flatten();
        } else {
            map.next_value::<IgnoredAny>()?;
        }
    }
    Ok(text)
}

/// If `json` is an object of exactly one member `raw` holding a string, returns that string.
/// This is the protocol's transitional `{ raw: "<fragment>" }` tool-input wrapper.
pub fn raw_wrapper(json: &str) -> Option<Cow<'_, str>> {
    struct Wrapper<'a>(Option<Cow<'a, str>>);
    impl<'de> Deserialize<'de> for Wrapper<'de> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Wrapper<'de>;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                    let mut keys = 0usize;
                    let mut raw = None;
                    while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                        keys += 1;
                        if k == "raw" {
                            raw = map
                                .next_value::<Loose<'de>>()?
                                .into_opt_str()
                                .ok()
                                .flatten();
                        } else {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                    Ok(Wrapper(if keys == 1 { raw } else { None }))
                }
            }
            d.deserialize_map(V)
        }
    }
    serde_json::from_str::<Wrapper<'_>>(json)
        .ok()
        .and_then(|w| w.0)
}

/// True when the (already valid) JSON text of an object has no members, e.g. `{}` or `{ }`.
pub fn is_empty_object(json: &str) -> bool {
    json.strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .is_some_and(|inner| inner.trim_matches(is_json_ws).is_empty())
}

fn is_json_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// Trims like JavaScript's `String.prototype.trim` (which `JSON.parse` callers use).
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}')
}

/// Parses `text` (trimmed the JavaScript way) as a JSON object and returns its raw JSON text.
/// Primitives and arrays never count as parsed (spec §5.1).
pub fn parse_object(text: &str) -> Option<Box<serde_json::value::RawValue>> {
    let t = js_trim(text);
    if !(t.starts_with('{') && t.ends_with('}')) {
        return None;
    }
    // A valid JSON value that starts with `{` is an object.
    serde_json::value::RawValue::from_string(t.to_owned()).ok()
}

/// Declares a lenient `Deserialize` for a struct with an `is_object` flag: an object runs the
/// action of each known member (`"name" => action`, others are skipped), and any other JSON value
/// gives `T::default()`. Member names are matched without allocating, escaped or not.
macro_rules! lenient_object {
    ($ty:ident, |$map:ident, $out:ident| { $($name:literal => $action:expr,)* }) => {
        const _: () = {
            use ::serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
            use ::std::fmt;

            const NAMES: &[&str] = &[$($name),*];

            /// The index of a known member name in `NAMES` (`usize::MAX` for others).
            struct Field(usize);
            struct FieldVisitor;
            impl<'de> Visitor<'de> for FieldVisitor {
                type Value = Field;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a member name")
                }
                fn visit_str<E>(self, v: &str) -> Result<Field, E> {
                    Ok(Field(NAMES.iter().position(|n| *n == v).unwrap_or(usize::MAX)))
                }
            }
            impl<'de> Deserialize<'de> for Field {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    d.deserialize_identifier(FieldVisitor)
                }
            }

            struct ObjectVisitor;
            impl<'de> Visitor<'de> for ObjectVisitor {
                type Value = $ty<'de>;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("any JSON value")
                }
                fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                    Ok($ty::default())
                }
                fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                    Ok($ty::default())
                }
                fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                    Ok($ty::default())
                }
                fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                    Ok($ty::default())
                }
                fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                    Ok($ty::default())
                }
                fn visit_unit<E>(self) -> Result<Self::Value, E> {
                    Ok($ty::default())
                }
                fn visit_none<E>(self) -> Result<Self::Value, E> {
                    Ok($ty::default())
                }
                fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                    d.deserialize_any(self)
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok($ty::default())
                }
                fn visit_map<A: MapAccess<'de>>(self, mut $map: A) -> Result<Self::Value, A::Error> {
                    let mut $out = $ty::default();
                    $out.is_object = true;
                    'members: while let Some(Field(index)) = $map.next_key::<Field>()? {
                        let mut _known = 0usize;
                        $(
                            if index == _known {
                                $action;
                                continue 'members;
                            }
                            _known += 1;
                        )*
                        $map.next_value::<IgnoredAny>()?;
                    }
                    Ok($out)
                }
            }
            impl<'de> Deserialize<'de> for $ty<'de> {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    d.deserialize_any(ObjectVisitor)
                }
            }
        };
    };
}
pub(super) use lenient_object;
