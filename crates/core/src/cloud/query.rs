//! Query strings as the generated client writes them (`qs` with `arrayFormat: "repeat"`):
//! members in insertion order, absent values skipped, arrays as repeated keys, RFC 3986
//! percent-encoding (a space is `%20`).

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Everything but the RFC 3986 unreserved characters is escaped.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// An ordered list of query parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// An empty query.
    pub fn new() -> Self {
        Query(Vec::new())
    }

    /// Adds `key=value`.
    pub fn push(mut self, key: &str, value: impl ToString) -> Self {
        self.0.push((key.to_owned(), value.to_string()));
        self
    }

    /// Adds `key=value` when a value is given.
    pub fn opt<T: ToString>(self, key: &str, value: Option<T>) -> Self {
        match value {
            Some(v) => self.push(key, v),
            None => self,
        }
    }

    /// Adds `key=v` once per element (`arrayFormat: "repeat"`).
    pub fn repeat<T: std::fmt::Display>(mut self, key: &str, values: &[T]) -> Self {
        for v in values {
            self = self.push(key, v);
        }
        self
    }

    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The parameters, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }

    /// `?k=v&…`, or `""` when empty.
    pub fn to_suffix(&self) -> String {
        let mut out = String::new();
        for (i, (k, v)) in self.0.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.extend(utf8_percent_encode(k, COMPONENT));
            out.push('=');
            out.extend(utf8_percent_encode(v, COMPONENT));
        }
        out
    }
}

/// One path segment, escaped (ids are interpolated into paths as the generated `path` tag does).
pub fn segment(text: &str) -> String {
    utf8_percent_encode(text, COMPONENT).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_in_order_with_repeats_and_rfc3986_escapes() {
        let q = Query::new()
            .push("agent_id", "agent-1")
            .opt::<u32>("limit", None)
            .repeat("tags", &["a b", "c&d"])
            .opt("order", Some("desc"));
        assert_eq!(
            q.to_suffix(),
            "?agent_id=agent-1&tags=a%20b&tags=c%26d&order=desc"
        );
        assert_eq!(Query::new().to_suffix(), "");
    }

    #[test]
    fn path_segments_are_escaped() {
        assert_eq!(segment("conv-1"), "conv-1");
        assert_eq!(segment("a/b?c"), "a%2Fb%3Fc");
    }
}
