//! `update_device_status` projection (spec §3.6), decoded only when someone asks for it.

use crate::json::{Object, Value};
use serde::Serialize;

/// The `device_status` object of an `update_device_status` frame, not yet projected.
#[derive(Debug, Clone)]
pub struct DeviceStatusFrame<'a> {
    /// The `device_status` object, as received.
    pub object: Object<'a>,
}

impl<'a> DeviceStatusFrame<'a> {
    /// `Some` when `value` is a JSON object.
    pub fn from_value(value: Value<'a>) -> Option<Self> {
        Some(DeviceStatusFrame {
            object: value.into_object()?,
        })
    }

    /// The `SessionDeviceStatus` projection, or `None` when the status fails validation
    /// (`is_online`/`is_processing` booleans, a known permission mode, a string-or-null cwd).
    /// Nested entries that fail validation are dropped where they fail.
    pub fn project(&self) -> Option<SessionDeviceStatus> {
        let status = &self.object;
        let permission_mode = normalize_permission_mode(status.get("current_permission_mode"))?;
        let cwd = status.get("current_working_directory");
        let working_directory = match cwd {
            Value::String(s) => Some(s.as_ref().to_owned()),
            Value::Null => None,
            _ => return None,
        };
        let is_online = status.bool("is_online")?;
        let is_processing = status.bool("is_processing")?;
        let pending = status.array("pending_control_requests").unwrap_or_default();
        let json = crate::json::to_string(&StatusJson {
            is_online,
            is_processing,
            permission_mode,
            working_directory: cwd,
            memory_directory: status.get("memory_directory").as_str(),
            pending_control_requests: objects(pending, pending_request),
            raw: status,
        });
        Some(SessionDeviceStatus {
            is_online,
            is_processing,
            permission_mode,
            working_directory,
            json,
        })
    }
}

/// Normalizes a permission mode as the reference does: missing or `default` → `standard`,
/// `bypassPermissions`/`fullAccess` → `unrestricted`, the four modes as-is, anything else → `None`.
pub fn normalize_permission_mode(mode: &Value<'_>) -> Option<&'static str> {
    match mode {
        Value::Absent => Some("standard"),
        Value::String(s) => match s.as_ref() {
            "default" | "standard" => Some("standard"),
            "bypassPermissions" | "fullAccess" | "unrestricted" => Some("unrestricted"),
            "acceptEdits" => Some("acceptEdits"),
            "strict" => Some("strict"),
            _ => None,
        },
        _ => None,
    }
}

/// A validated device status: the fields the session reads, and the JS `SessionDeviceStatus`
/// object (`isOnline`, `isProcessing`, `permissionMode`, `workingDirectory`, `memoryDirectory`,
/// `pendingControlRequests` with their `{id, text}` suggestions and diff previews, `raw`) as
/// JSON text, written while validating so no intermediate tree is built.
#[derive(Debug, Clone)]
pub struct SessionDeviceStatus {
    /// `is_online`.
    pub is_online: bool,
    /// `is_processing`.
    pub is_processing: bool,
    /// Normalized permission mode.
    pub permission_mode: &'static str,
    /// `current_working_directory` (string or null).
    pub working_directory: Option<String>,
    /// The JS object as JSON text.
    pub json: String,
}

/// The JS `SessionDeviceStatus` object, borrowing from the frame.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatusJson<'s, 'a> {
    is_online: bool,
    is_processing: bool,
    permission_mode: &'static str,
    /// A string or `null` (validated by the caller).
    working_directory: &'s Value<'a>,
    /// `null` unless a string.
    memory_directory: Option<&'s str>,
    pending_control_requests: Vec<PendingRequest<'s>>,
    raw: &'s Object<'a>,
}

/// A `pendingControlRequests` entry.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PendingRequest<'s> {
    request_id: &'s str,
    tool_name: &'s str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_input: Option<&'s Object<'s>>,
    permission_suggestions: Vec<Suggestion<'s>>,
    /// `null` unless a string.
    blocked_path: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diffs: Option<Vec<DiffPreview<'s>>>,
}

/// A `{id, text}` permission suggestion.
#[derive(Serialize)]
struct Suggestion<'s> {
    id: &'s str,
    text: &'s str,
}

/// A diff preview: `advanced` with `hunks`, or `fallback` / `unpreviewable` with a `reason`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiffPreview<'s> {
    mode: &'static str,
    file_name: &'s str,
    #[serde(skip_serializing_if = "Option::is_none")]
    hunks: Option<Vec<Hunk<'s>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'s str>,
}

/// A hunk: four finite numbers (written as parsed: integral ones as integers) and its lines.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Hunk<'s> {
    old_start: &'s Value<'s>,
    old_lines: &'s Value<'s>,
    new_start: &'s Value<'s>,
    new_lines: &'s Value<'s>,
    lines: Vec<DiffLine<'s>>,
}

/// A `context` / `add` / `remove` line.
#[derive(Serialize)]
struct DiffLine<'s> {
    #[serde(rename = "type")]
    line_type: &'s str,
    content: &'s str,
}

/// The object elements of `items` that `each` accepts, projected (other elements skipped).
fn objects<'s, T>(items: &'s [Value<'_>], each: fn(&'s Object<'_>) -> Option<T>) -> Vec<T> {
    items
        .iter()
        .filter_map(|item| item.as_object().and_then(each))
        .collect()
}

/// Needs a string `request_id` and a `request` object with a string `tool_name`.
fn pending_request<'s>(entry: &'s Object<'_>) -> Option<PendingRequest<'s>> {
    let request_id = entry.get("request_id").as_str()?;
    let request = entry.object("request")?;
    Some(PendingRequest {
        request_id,
        tool_name: request.get("tool_name").as_str()?,
        tool_call_id: request.get("tool_call_id").as_str(),
        tool_input: request.object("input"),
        permission_suggestions: objects(
            request.array("permission_suggestions").unwrap_or_default(),
            permission_suggestion,
        ),
        blocked_path: request.get("blocked_path").as_str(),
        diffs: request
            .array("diffs")
            .map(|diffs| objects(diffs, diff_preview)),
    })
}

/// A suggestion with string `id` and `text`.
fn permission_suggestion<'s>(suggestion: &'s Object<'_>) -> Option<Suggestion<'s>> {
    Some(Suggestion {
        id: suggestion.get("id").as_str()?,
        text: suggestion.get("text").as_str()?,
    })
}

/// `{mode: "advanced", fileName, hunks}` (a `hunks` array required) or
/// `{mode: "fallback" | "unpreviewable", fileName, reason}` (a string `reason` required).
fn diff_preview<'s>(diff: &'s Object<'_>) -> Option<DiffPreview<'s>> {
    let file_name = diff.get("fileName").as_str()?;
    let (mode, hunks, reason) = match diff.get("mode").as_str() {
        Some("advanced") => (
            "advanced",
            Some(objects(diff.array("hunks")?, diff_hunk)),
            None,
        ),
        Some("fallback") => ("fallback", None, Some(diff.get("reason").as_str()?)),
        Some("unpreviewable") => ("unpreviewable", None, Some(diff.get("reason").as_str()?)),
        _ => return None,
    };
    Some(DiffPreview {
        mode,
        file_name,
        hunks,
        reason,
    })
}

/// Four finite numbers and a `lines` array.
fn diff_hunk<'s>(hunk: &'s Object<'_>) -> Option<Hunk<'s>> {
    let number = |key| {
        let value = hunk.get(key);
        value.as_f64().is_some_and(f64::is_finite).then_some(value)
    };
    Some(Hunk {
        old_start: number("oldStart")?,
        old_lines: number("oldLines")?,
        new_start: number("newStart")?,
        new_lines: number("newLines")?,
        lines: objects(hunk.array("lines")?, diff_line),
    })
}

/// A line of type `context`, `add` or `remove` with a string `content`.
fn diff_line<'s>(line: &'s Object<'_>) -> Option<DiffLine<'s>> {
    let line_type = line.get("type").as_str()?;
    let content = line.get("content").as_str()?;
    matches!(line_type, "context" | "add" | "remove").then_some(DiffLine { line_type, content })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries that fail validation are dropped at their own level: a diff without a `hunks`
    /// array, a hunk without a `lines` array or with a non-number, a line of an unknown type.
    #[test]
    fn invalid_entries_are_dropped_where_they_fail() {
        let text = r#"{"is_online":true,"is_processing":false,"current_working_directory":null,
            "pending_control_requests":[
              {"request_id":"a","request":{"tool_name":"t","diffs":[
                {"fileName":"no-hunks","mode":"advanced"},
                {"fileName":"f","mode":"advanced","hunks":[
                  {"oldStart":1,"oldLines":1,"newStart":1,"newLines":1},
                  {"oldStart":1,"oldLines":"1","newStart":1,"newLines":1,"lines":[]},
                  {"oldStart":1,"oldLines":2,"newStart":3,"newLines":4.5,"lines":[
                    {"type":"add","content":"+"},{"type":"other","content":"?"},
                    {"type":"remove"},7]}]},
                {"fileName":"r","mode":"fallback"}]}},
              {"request_id":"b","request":{"tool_name":"u","diffs":{}}},
              {"request_id":"c"}]}"#;
        let value = crate::json::parse(text).unwrap();
        let status = DeviceStatusFrame::from_value(value)
            .unwrap()
            .project()
            .unwrap();
        let json = status.json;
        let pending = json
            .split_once(r#""pendingControlRequests":"#)
            .and_then(|(_, rest)| rest.split_once(r#","raw":"#))
            .map(|(pending, _)| pending);
        assert_eq!(
            pending,
            Some(
                r#"[{"requestId":"a","toolName":"t","permissionSuggestions":[],"blockedPath":null,"diffs":[{"mode":"advanced","fileName":"f","hunks":[{"oldStart":1,"oldLines":2,"newStart":3,"newLines":4.5,"lines":[{"type":"add","content":"+"}]}]}]},{"requestId":"b","toolName":"u","permissionSuggestions":[],"blockedPath":null}]"#
            )
        );
        assert!(json.starts_with(
            r#"{"isOnline":true,"isProcessing":false,"permissionMode":"standard","workingDirectory":null,"memoryDirectory":null,"#
        ));
        let text = r#"{"is_online":false,"is_processing":true,"current_working_directory":"/w",
            "current_permission_mode":"fullAccess","memory_directory":"/m","x":[1.5,-0]}"#;
        let status = DeviceStatusFrame::from_value(crate::json::parse(text).unwrap())
            .unwrap()
            .project()
            .unwrap();
        assert_eq!(status.working_directory.as_deref(), Some("/w"));
        assert_eq!(
            status.json,
            r#"{"isOnline":false,"isProcessing":true,"permissionMode":"unrestricted","workingDirectory":"/w","memoryDirectory":"/m","pendingControlRequests":[],"raw":{"is_online":false,"is_processing":true,"current_working_directory":"/w","current_permission_mode":"fullAccess","memory_directory":"/m","x":[1.5,0]}}"#
        );
    }
}
