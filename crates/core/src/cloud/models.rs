//! Cloud `models.list()` (spec §4.2): `GET /v1/models/` normalized into the `ListModelsResult`
//! that `session.listModels()` returns on the app server.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::Query;
use crate::json::{self, Object, Value};
use serde::Serialize;
use std::borrow::Cow;

/// `GET /v1/models/`.
pub fn list_request(rb: &RequestBuilder) -> HttpRequest {
    rb.request(Method::Get, "/v1/models/", &Query::new(), Body::None)
}

/// `ListModelsResult` on Cloud.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelList<'a> {
    /// One entry per model with a handle: the raw fields plus `id`, `handle`, `label`,
    /// `description`.
    pub entries: Vec<Object<'a>>,
    /// Every entry's handle, in order.
    pub available_handles: Vec<Cow<'a, str>>,
}

/// The list as JSON text, `{"entries":[…],"availableHandles":[…]}` (what the shared facades
/// take from both backends).
pub fn parse_list_json(response: HttpResponse<'_>) -> CloudResult<String> {
    parse_list(response).map(|list| json::to_string(&list))
}

/// Entries without a non-empty `handle` are dropped; `id` = `id` or the handle; `label` =
/// `display_name` ?? `name` ?? handle; `description` defaults to `""`; other fields are kept.
pub fn normalize(models: Vec<Value<'_>>) -> ModelList<'_> {
    let mut entries = Vec::new();
    let mut available_handles = Vec::new();
    for model in models {
        let Value::Object(mut entry) = model else {
            continue;
        };
        let Some(handle) = entry.get("handle").non_empty_str().map(str::to_owned) else {
            continue;
        };
        let id = entry
            .get("id")
            .non_empty_str()
            .unwrap_or(&handle)
            .to_owned();
        let label = [entry.get("display_name"), entry.get("name")]
            .into_iter()
            .find(|v| !v.is_nullish())
            .and_then(Value::as_str)
            .unwrap_or(&handle)
            .to_owned();
        let description = entry
            .get("description")
            .as_str()
            .unwrap_or_default()
            .to_owned();
        entry.set("id", Value::String(id.into()));
        entry.set("handle", Value::String(handle.clone().into()));
        entry.set("label", Value::String(label.into()));
        entry.set("description", Value::String(description.into()));
        available_handles.push(Cow::Owned(handle));
        entries.push(entry);
    }
    ModelList {
        entries,
        available_handles,
    }
}

/// Parses and normalizes the models response (an array).
pub fn parse_list(response: HttpResponse<'_>) -> CloudResult<ModelList<'_>> {
    match json::parse(response.ok()?) {
        Some(Value::Array(models)) => Ok(normalize(models)),
        _ => Err(CloudError::bad_response("Invalid Cloud models response.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_entries_without_handles_and_fills_id_label_description() {
        let text = r#"[
            {"handle": "openai/gpt-5", "display_name": "GPT-5", "name": "gpt-5", "context_window": 1},
            {"handle": "", "name": "blank"},
            {"name": "no-handle"},
            {"id": "m-2", "handle": "anthropic/claude", "name": "claude", "description": "d"},
            {"handle": "x/y", "display_name": null},
            "not an object"
        ]"#;
        let list = normalize(json::parse_array(text).unwrap());
        assert_eq!(
            list.available_handles,
            ["openai/gpt-5", "anthropic/claude", "x/y"]
        );
        let e = &list.entries;
        let text = |i: usize, key: &str| e[i].get(key).as_str().map(str::to_owned);
        assert_eq!(text(0, "id").as_deref(), Some("openai/gpt-5"));
        assert_eq!(text(0, "label").as_deref(), Some("GPT-5"));
        assert_eq!(text(0, "description").as_deref(), Some(""));
        assert_eq!(e[0].f64("context_window"), Some(1.0), "raw fields are kept");
        assert_eq!(text(1, "id").as_deref(), Some("m-2"));
        assert_eq!(text(1, "label").as_deref(), Some("claude"));
        assert_eq!(text(1, "description").as_deref(), Some("d"));
        assert_eq!(
            text(2, "label").as_deref(),
            Some("x/y"),
            "null display_name falls through to the handle"
        );
        let written = json::to_string(&list);
        assert!(written.starts_with(r#"{"entries":[{"handle":"openai/gpt-5","display_name":"GPT-5","name":"gpt-5","context_window":1,"id":"openai/gpt-5","label":"GPT-5","description":""}"#), "{written}");
        assert!(
            written.ends_with(r#""availableHandles":["openai/gpt-5","anthropic/claude","x/y"]}"#),
            "{written}"
        );
    }

    #[test]
    fn a_non_array_body_is_a_typed_error_and_a_500_keeps_its_status() {
        let error = parse_list(HttpResponse::new(200, "{}")).unwrap_err();
        assert_eq!(error.code(), "request_failed");
        let error = parse_list(HttpResponse::new(500, r#"{"error":"down"}"#)).unwrap_err();
        assert_eq!(
            (error.status, error.message.as_str()),
            (Some(500), r#"500 {"error":"down"}"#)
        );
    }
}
