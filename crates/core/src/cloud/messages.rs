//! `client.conversations.listMessages()` on Cloud (spec §4.2): `GET
//! /v1/conversations/<id>/messages` with the cursor swap. The SDK's `before` means "older";
//! the REST cursors are relative to the order, which defaults to `desc`, so for `desc` (or no
//! order) `before` becomes `after` and `after` becomes `before`.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use crate::json::{self, Object, Value};
use serde::Serialize;

/// `listMessages(id, options)` options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListMessagesOptions {
    /// Messages older than this id.
    pub before: Option<String>,
    /// Messages newer than this id.
    pub after: Option<String>,
    /// `asc` or `desc` (the REST default).
    pub order: Option<String>,
    /// Page size.
    pub limit: Option<u32>,
}

impl ListMessagesOptions {
    /// Reads `{before?, after?, order?, limit?}` (the wire-named query of the facade, JSON).
    pub fn from_json(text: &str) -> CloudResult<Self> {
        let invalid = || CloudError::invalid("Invalid conversations.listMessages() options.");
        let o = Object::parse(text).ok_or_else(invalid)?;
        let text = |key: &str| {
            o.get(key)
                .clone()
                .opt_str()
                .map(|s| s.map(String::from))
                .map_err(|_| invalid())
        };
        let limit = match o.get("limit").opt_f64().map_err(|_| invalid())? {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Some(n as u32),
            Some(_) => return Err(invalid()),
            None => None,
        };
        Ok(ListMessagesOptions {
            before: text("before")?,
            after: text("after")?,
            order: text("order")?,
            limit,
        })
    }
}

/// The request, with cursors swapped for descending order.
pub fn list_request(
    rb: &RequestBuilder,
    conversation_id: &str,
    options: &ListMessagesOptions,
) -> HttpRequest {
    let descending = options.order.as_deref().is_none_or(|o| o == "desc");
    let (before, after) = if descending {
        (options.after.as_deref(), options.before.as_deref())
    } else {
        (options.before.as_deref(), options.after.as_deref())
    };
    let query = Query::new()
        .opt("before", before)
        .opt("after", after)
        .opt("order", options.order.as_deref())
        .opt("limit", options.limit);
    let path = format!("/v1/conversations/{}/messages", segment(conversation_id));
    rb.request(Method::Get, &path, &query, Body::None)
}

/// `{messages}`: the only field the Cloud call returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MessagePage<'a> {
    /// The page, as the API sent it.
    pub messages: Vec<Value<'a>>,
}

/// Parses the page (an array; `{messages: [...]}` is accepted too).
pub fn parse_page(response: HttpResponse<'_>) -> CloudResult<MessagePage<'_>> {
    let messages = match json::parse(response.ok()?) {
        Some(Value::Array(list)) => list,
        Some(Value::Object(mut o)) => match o.take("messages") {
            Value::Array(list) => list,
            _ => return Err(CloudError::bad_response("Invalid Cloud messages response.")),
        },
        _ => return Err(CloudError::bad_response("Invalid Cloud messages response.")),
    };
    Ok(MessagePage { messages })
}

/// The page as the JSON text `{"messages":[…]}`.
pub fn parse_list(response: HttpResponse<'_>) -> CloudResult<String> {
    parse_page(response).map(|page| json::to_string(&page))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::http::test_support::builder;

    fn url(options: ListMessagesOptions) -> String {
        list_request(&builder(), "conv-1", &options).url
    }

    #[test]
    fn cursors_swap_for_descending_or_default_order_only() {
        let base = "https://api.letta.com/v1/conversations/conv-1/messages";
        let opts = |order: Option<&str>| ListMessagesOptions {
            before: Some("m-old".into()),
            after: Some("m-new".into()),
            order: order.map(str::to_owned),
            limit: Some(5),
        };
        assert_eq!(
            url(opts(None)),
            format!("{base}?before=m-new&after=m-old&limit=5")
        );
        assert_eq!(
            url(opts(Some("desc"))),
            format!("{base}?before=m-new&after=m-old&order=desc&limit=5")
        );
        assert_eq!(
            url(opts(Some("asc"))),
            format!("{base}?before=m-old&after=m-new&order=asc&limit=5")
        );
        let only_before = ListMessagesOptions {
            before: Some("m-1".into()),
            ..Default::default()
        };
        assert_eq!(url(only_before), format!("{base}?after=m-1"));
    }

    #[test]
    fn pages_parse() {
        let page = parse_list(HttpResponse::new(200, r#"[{"id":"m-1"}]"#)).unwrap();
        assert_eq!(page, r#"{"messages":[{"id":"m-1"}]}"#);
        let wrapped = parse_list(HttpResponse::new(200, r#"{"messages":[1]}"#)).unwrap();
        assert_eq!(wrapped, r#"{"messages":[1]}"#);
        assert!(parse_list(HttpResponse::new(200, "3")).is_err());
        let options =
            ListMessagesOptions::from_json(r#"{"before":"m-1","limit":5,"order":null}"#).unwrap();
        assert_eq!(
            (options.before.as_deref(), options.limit),
            (Some("m-1"), Some(5))
        );
        assert!(ListMessagesOptions::from_json(r#"{"limit":"5"}"#).is_err());
    }
}
