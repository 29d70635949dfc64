//! Turning a response frame into the result of an API call (spec §3.5, §3.12): results are
//! JSON text assembled from the frame's parsed members (written back in document order), or
//! the frame text itself when the whole frame is the result.

use super::error::SessionError;
use super::requests::Shape;
use crate::json::{Object, Value};
use serde::Serialize;

/// The call's result for a response frame of the given shape.
pub fn shape_response(shape: Shape, frame_text: &str) -> Result<String, SessionError> {
    let mut frame = Object::parse(frame_text)
        .ok_or_else(|| SessionError::request_failed("Invalid response frame from runtime"))?;
    match shape {
        Shape::Frame => Ok(frame_text.to_owned()),
        Shape::Checked(what) => {
            check_success(&frame, what)?;
            Ok(frame_text.to_owned())
        }
        Shape::Abort => Ok(String::from("null")),
        Shape::ListMessages => reshape(&mut frame, "listMessages failed", LIST_MESSAGES),
        Shape::ListModels => reshape(&mut frame, "Failed to list models", LIST_MODELS),
        Shape::UpdateModel => reshape(&mut frame, "Failed to update model", UPDATE_MODEL),
        Shape::RemoveQueueItem => {
            let Value::Bool(removed) = *frame.get("success") else {
                return Err(SessionError::request_failed(
                    "Invalid remove_queue_item_response from runtime",
                ));
            };
            Ok(crate::json::to_string(&RemovedItem {
                item_id: frame.get("item_id").as_str().unwrap_or(""),
                removed,
            }))
        }
        Shape::RecoverApprovals => {
            let recovered = frame.bool("success") == Some(true);
            let detail = (!recovered).then(|| {
                let detail = frame.get("error").as_str();
                detail.unwrap_or("Failed to recover pending approvals")
            });
            Ok(crate::json::to_string(&Recovered {
                recovered,
                unsupported: false,
                detail,
            }))
        }
    }
}

/// The result of `removeQueueItem()`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RemovedItem<'f> {
    item_id: &'f str,
    removed: bool,
}

/// The result of `recoverPendingApprovals()`: `detail` only when not recovered.
#[derive(Serialize)]
struct Recovered<'f> {
    recovered: bool,
    unsupported: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'f str>,
}

/// `success: false` → the frame's `error`, else the fallback text.
pub fn check_success(frame: &Object<'_>, fallback: &str) -> Result<(), SessionError> {
    match frame.bool("success") {
        Some(false) => Err(response_error(frame, fallback)),
        _ => Ok(()),
    }
}

/// The failure of a request: the response's non-empty `error`, else the fallback text.
pub fn response_error(frame: &Object<'_>, fallback: &str) -> SessionError {
    let error = frame.get("error").non_empty_str();
    SessionError::request_failed(error.unwrap_or(fallback))
}

/// One member of a reshaped result: `to`, copied from the first present member of `from` (a
/// non-null one when there is one; `null` is kept, for example `availableHandles: null` means
/// the lookup failed), else `default` when given.
struct Field {
    to: &'static str,
    from: &'static [&'static str],
    default: Option<fn() -> Value<'static>>,
}

const fn field(to: &'static str, from: &'static [&'static str]) -> Field {
    Field {
        to,
        from,
        default: None,
    }
}

const LIST_MESSAGES: &[Field] = &[
    Field {
        to: "messages",
        from: &["messages"],
        default: Some(empty_list),
    },
    field("nextBefore", &["nextBefore", "next_before"]),
    field("hasMore", &["hasMore", "has_more"]),
];

const LIST_MODELS: &[Field] = &[
    Field {
        to: "entries",
        from: &["entries"],
        default: Some(empty_list),
    },
    field("availableHandles", &["available_handles"]),
    field("byokProviderAliases", &["byok_provider_aliases"]),
];

const UPDATE_MODEL: &[Field] = &[
    field("appliedTo", &["applied_to"]),
    field("modelId", &["model_id"]),
    field("modelHandle", &["model_handle"]),
    field("modelSettings", &["model_settings"]),
];

/// Checks `success`, then moves `fields` out of the frame's members into the result.
fn reshape(
    frame: &mut Object<'_>,
    fallback: &str,
    fields: &[Field],
) -> Result<String, SessionError> {
    check_success(frame, fallback)?;
    let mut out = Object::new();
    for field in fields {
        let mut found: Option<&str> = None;
        for &key in field.from {
            let value = frame.get(key);
            let found_null = found.is_none_or(|f| matches!(frame.get(f), Value::Null));
            if !matches!(value, Value::Absent) && found_null {
                found = Some(key);
            }
        }
        match (found, field.default) {
            (Some(key), _) => out.push(field.to, frame.take(key)),
            (None, Some(default)) => out.push(field.to, default()),
            (None, None) => {}
        }
    }
    Ok(crate::json::to_string(&out))
}

/// The default of a list member: `[]`.
fn empty_list() -> Value<'static> {
    Value::Array(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_messages_accepts_both_cursor_spellings() {
        let frame = r#"{"type":"conversation_messages_list_response","request_id":"r","success":true,"messages":[{"id":"m"}],"next_before":"m","has_more":false}"#;
        assert_eq!(
            shape_response(Shape::ListMessages, frame).unwrap(),
            r#"{"messages":[{"id":"m"}],"nextBefore":"m","hasMore":false}"#
        );
        let camel = r#"{"success":true,"messages":[],"nextBefore":null,"hasMore":true}"#;
        assert_eq!(
            shape_response(Shape::ListMessages, camel).unwrap(),
            r#"{"messages":[],"nextBefore":null,"hasMore":true}"#
        );
    }

    #[test]
    fn failures_carry_the_server_error_or_a_fallback() {
        let err = shape_response(Shape::ListMessages, r#"{"success":false}"#).unwrap_err();
        assert_eq!(err.message, "listMessages failed");
        let err =
            shape_response(Shape::UpdateModel, r#"{"success":false,"error":"nope"}"#).unwrap_err();
        assert_eq!(err.message, "nope");
        assert_eq!(err.code(), "request_failed");
    }

    #[test]
    fn remove_queue_item_needs_a_boolean_success() {
        assert_eq!(
            shape_response(
                Shape::RemoveQueueItem,
                r#"{"item_id":"q-1","success":true}"#
            )
            .unwrap(),
            r#"{"itemId":"q-1","removed":true}"#
        );
        let err = shape_response(Shape::RemoveQueueItem, r#"{"item_id":"q-1"}"#).unwrap_err();
        assert_eq!(
            err.message,
            "Invalid remove_queue_item_response from runtime"
        );
    }

    #[test]
    fn recover_approvals_reports_the_detail() {
        assert_eq!(
            shape_response(Shape::RecoverApprovals, r#"{"success":false}"#).unwrap(),
            r#"{"recovered":false,"unsupported":false,"detail":"Failed to recover pending approvals"}"#
        );
    }

    #[test]
    fn update_model_maps_snake_case() {
        let frame = r#"{"success":true,"applied_to":"conversation","model_handle":"p/m","model_id":"m","model_settings":{"a":1}}"#;
        assert_eq!(
            shape_response(Shape::UpdateModel, frame).unwrap(),
            r#"{"appliedTo":"conversation","modelId":"m","modelHandle":"p/m","modelSettings":{"a":1}}"#
        );
    }
}
