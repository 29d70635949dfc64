//! `update_device_status` projection (spec §3.6), decoded only when someone asks for it.

use super::wire::number;
use crate::json::{Members, Object, ToJson, Value};
use serde_json::Number;

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
    pub fn project(&self) -> Option<SessionDeviceStatus> {
        let status = &self.object;
        let permission_mode = normalize_permission_mode(status.get("current_permission_mode"))?;
        let working_directory = match status.get("current_working_directory") {
            Value::String(s) => Some(s.as_ref().to_owned()),
            Value::Null => None,
            _ => return None,
        };
        Some(SessionDeviceStatus {
            is_online: status.bool("is_online")?,
            is_processing: status.bool("is_processing")?,
            permission_mode,
            working_directory,
            memory_directory: string(status, "memory_directory"),
            pending_control_requests: objects(status, "pending_control_requests", pending_request)
                .unwrap_or_default(),
            raw: status.to_static(),
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

/// `SessionDeviceStatus` (JS shape).
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
    /// `memory_directory`, null when absent.
    pub memory_directory: Option<String>,
    /// Valid entries of `pending_control_requests`.
    pub pending_control_requests: Vec<PendingControlRequest>,
    /// The whole `device_status` object.
    pub raw: Object<'static>,
}

/// One pending approval of a device status.
#[derive(Debug, Clone)]
pub struct PendingControlRequest {
    /// `request_id`.
    pub request_id: String,
    /// `request.tool_name`.
    pub tool_name: String,
    /// `request.tool_call_id`.
    pub tool_call_id: Option<String>,
    /// `request.input` when an object.
    pub tool_input: Option<Object<'static>>,
    /// `{id, text}` suggestions with string fields.
    pub permission_suggestions: Vec<PermissionSuggestion>,
    /// `request.blocked_path` (string or null).
    pub blocked_path: Option<String>,
    /// Well-formed diff previews, when `diffs` is an array.
    pub diffs: Option<Vec<DiffPreview>>,
}

/// A permission suggestion.
#[derive(Debug, Clone)]
pub struct PermissionSuggestion {
    /// Suggestion id.
    pub id: String,
    /// Suggestion text.
    pub text: String,
}

/// A diff preview entry.
#[derive(Debug, Clone)]
pub enum DiffPreview {
    /// A full preview with hunks.
    Advanced {
        /// File name.
        file_name: String,
        /// Hunks.
        hunks: Vec<DiffHunk>,
    },
    /// No hunks, with a reason.
    Fallback {
        /// File name.
        file_name: String,
        /// Why there is no preview.
        reason: String,
    },
    /// Not previewable, with a reason.
    Unpreviewable {
        /// File name.
        file_name: String,
        /// Why there is no preview.
        reason: String,
    },
}

/// One diff hunk.
#[derive(Debug, Clone)]
pub struct DiffHunk {
    /// Old start line.
    pub old_start: Number,
    /// Old line count.
    pub old_lines: Number,
    /// New start line.
    pub new_start: Number,
    /// New line count.
    pub new_lines: Number,
    /// Lines (`context` | `add` | `remove`).
    pub lines: Vec<DiffLine>,
}

/// One diff line.
#[derive(Debug, Clone)]
pub struct DiffLine {
    /// `context`, `add` or `remove`.
    pub line_type: &'static str,
    /// Line text.
    pub content: String,
}

impl ToJson for SessionDeviceStatus {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.bool("isOnline", self.is_online)
            .bool("isProcessing", self.is_processing)
            .string("permissionMode", self.permission_mode)
            .nullable_string("workingDirectory", &self.working_directory)
            .nullable_string("memoryDirectory", &self.memory_directory)
            .serialize("pendingControlRequests", &self.pending_control_requests)
            .serialize("raw", &self.raw);
        m.close();
    }
}

impl ToJson for PendingControlRequest {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.string("requestId", &self.request_id)
            .string("toolName", &self.tool_name)
            .opt_string("toolCallId", &self.tool_call_id)
            .opt("toolInput", &self.tool_input)
            .serialize("permissionSuggestions", &self.permission_suggestions)
            .nullable_string("blockedPath", &self.blocked_path)
            .opt("diffs", &self.diffs);
        m.close();
    }
}

impl ToJson for PermissionSuggestion {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.string("id", &self.id).string("text", &self.text);
        m.close();
    }
}

impl ToJson for DiffPreview {
    /// `{"mode": "advanced" | "fallback" | "unpreviewable", "fileName": …, …}`.
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        match self {
            DiffPreview::Advanced { file_name, hunks } => {
                m.string("mode", "advanced")
                    .string("fileName", file_name)
                    .serialize("hunks", hunks);
            }
            DiffPreview::Fallback { file_name, reason }
            | DiffPreview::Unpreviewable { file_name, reason } => {
                let mode = match self {
                    DiffPreview::Fallback { .. } => "fallback",
                    _ => "unpreviewable",
                };
                m.string("mode", mode)
                    .string("fileName", file_name)
                    .string("reason", reason);
            }
        }
        m.close();
    }
}

impl ToJson for DiffHunk {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.serialize("oldStart", &self.old_start)
            .serialize("oldLines", &self.old_lines)
            .serialize("newStart", &self.new_start)
            .serialize("newLines", &self.new_lines)
            .serialize("lines", &self.lines);
        m.close();
    }
}

impl ToJson for DiffLine {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::open(out);
        m.string("type", self.line_type)
            .string("content", &self.content);
        m.close();
    }
}

/// `each` applied to the object elements of an array member, keeping its `Some` results (other
/// elements skipped); `None` when the member is not an array. One plain loop per element type.
fn objects<T>(
    object: &Object<'_>,
    key: &str,
    each: fn(&Object<'_>) -> Option<T>,
) -> Option<Vec<T>> {
    let mut out = Vec::new();
    for item in object.array(key)? {
        if let Some(value) = item.as_object().and_then(each) {
            out.push(value);
        }
    }
    Some(out)
}

/// A string member, owned (`None` when absent or not a string).
fn string(object: &Object<'_>, key: &str) -> Option<String> {
    object.get(key).as_str().map(str::to_owned)
}

fn pending_request(entry: &Object<'_>) -> Option<PendingControlRequest> {
    let request_id = string(entry, "request_id")?;
    let request = entry.object("request")?;
    let tool_name = string(request, "tool_name")?;
    Some(PendingControlRequest {
        request_id,
        tool_name,
        tool_call_id: string(request, "tool_call_id"),
        tool_input: request.object("input").map(Object::to_static),
        permission_suggestions: objects(request, "permission_suggestions", permission_suggestion)
            .unwrap_or_default(),
        blocked_path: string(request, "blocked_path"),
        diffs: objects(request, "diffs", diff_preview),
    })
}

fn permission_suggestion(suggestion: &Object<'_>) -> Option<PermissionSuggestion> {
    Some(PermissionSuggestion {
        id: string(suggestion, "id")?,
        text: string(suggestion, "text")?,
    })
}

fn diff_preview(diff: &Object<'_>) -> Option<DiffPreview> {
    let file_name = string(diff, "fileName")?;
    match diff.get("mode").as_str()? {
        "advanced" => Some(DiffPreview::Advanced {
            file_name,
            hunks: objects(diff, "hunks", diff_hunk)?,
        }),
        mode @ ("fallback" | "unpreviewable") => {
            let reason = string(diff, "reason")?;
            Some(if mode == "fallback" {
                DiffPreview::Fallback { file_name, reason }
            } else {
                DiffPreview::Unpreviewable { file_name, reason }
            })
        }
        _ => None,
    }
}

fn diff_hunk(hunk: &Object<'_>) -> Option<DiffHunk> {
    let field = |key: &str| number(hunk.get(key));
    Some(DiffHunk {
        old_start: field("oldStart")?,
        old_lines: field("oldLines")?,
        new_start: field("newStart")?,
        new_lines: field("newLines")?,
        lines: objects(hunk, "lines", diff_line)?,
    })
}

fn diff_line(line: &Object<'_>) -> Option<DiffLine> {
    let line_type = match line.get("type").as_str()? {
        "context" => "context",
        "add" => "add",
        "remove" => "remove",
        _ => return None,
    };
    Some(DiffLine {
        line_type,
        content: string(line, "content")?,
    })
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
        let json = crate::json::to_string(&status);
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
    }
}
