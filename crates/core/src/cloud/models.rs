//! Cloud `models.list()` (spec §4.2): `GET /v1/models/` normalized into the `ListModelsResult`
//! that `session.listModels()` returns on the app server.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::Query;
use serde::Serialize;
use serde_json::{Map, Value};

/// `GET /v1/models/`.
pub fn list_request(rb: &RequestBuilder) -> HttpRequest {
    rb.request(Method::Get, "/v1/models/", &Query::new(), Body::None)
}

/// `ListModelsResult` on Cloud.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelList {
    /// One entry per model with a handle: the raw fields plus `id`, `handle`, `label`,
    /// `description`.
    pub entries: Vec<Map<String, Value>>,
    /// Every entry's handle, in order.
    pub available_handles: Vec<String>,
}

/// The list as JSON text, `{"entries":[…],"availableHandles":[…]}` (what the shared facades
/// take from both backends).
pub fn parse_list_json(response: HttpResponse<'_>) -> CloudResult<String> {
    let list = parse_list(response)?;
    serde_json::to_string(&list)
        .map_err(|_| CloudError::bad_response("Invalid Cloud JSON response."))
}

fn non_empty<'a>(entry: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    entry
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// Entries without a non-empty `handle` are dropped; `id` = `id` or the handle; `label` =
/// `display_name` ?? `name` ?? handle; `description` defaults to `""`; other fields are kept.
pub fn normalize(models: Vec<Value>) -> ModelList {
    let mut entries = Vec::new();
    let mut available_handles = Vec::new();
    for model in models {
        let Value::Object(mut entry) = model else {
            continue;
        };
        let Some(handle) = non_empty(&entry, "handle").map(str::to_owned) else {
            continue;
        };
        let id = non_empty(&entry, "id").unwrap_or(&handle).to_owned();
        let label = [entry.get("display_name"), entry.get("name")]
            .into_iter()
            .flatten()
            .find(|v| !v.is_null())
            .and_then(Value::as_str)
            .unwrap_or(&handle)
            .to_owned();
        let description = entry
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        entry.insert("id".into(), id.into());
        entry.insert("handle".into(), handle.clone().into());
        entry.insert("label".into(), label.into());
        entry.insert("description".into(), description.into());
        available_handles.push(handle);
        entries.push(entry);
    }
    ModelList {
        entries,
        available_handles,
    }
}

/// Parses and normalizes the models response (an array).
pub fn parse_list(response: HttpResponse<'_>) -> CloudResult<ModelList> {
    let body = response.ok()?;
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Array(models)) => Ok(normalize(models)),
        _ => Err(CloudError::bad_response("Invalid Cloud models response.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn drops_entries_without_handles_and_fills_id_label_description() {
        let list = normalize(vec![
            json!({"handle": "openai/gpt-5", "display_name": "GPT-5", "name": "gpt-5", "context_window": 1}),
            json!({"handle": "", "name": "blank"}),
            json!({"name": "no-handle"}),
            json!({"id": "m-2", "handle": "anthropic/claude", "name": "claude", "description": "d"}),
            json!({"handle": "x/y", "display_name": null}),
            json!("not an object"),
        ]);
        assert_eq!(
            list.available_handles,
            ["openai/gpt-5", "anthropic/claude", "x/y"]
        );
        let e = &list.entries;
        assert_eq!(e[0]["id"], "openai/gpt-5");
        assert_eq!(e[0]["label"], "GPT-5");
        assert_eq!(e[0]["description"], "");
        assert_eq!(e[0]["context_window"], 1, "raw fields are kept");
        assert_eq!(e[1]["id"], "m-2");
        assert_eq!(e[1]["label"], "claude");
        assert_eq!(e[1]["description"], "d");
        assert_eq!(
            e[2]["label"], "x/y",
            "null display_name falls through to the handle"
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
