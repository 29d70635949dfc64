//! `update_device_status` projection (spec §3.6), decoded only when someone asks for it.

use super::lenient::{is_object, Field, List, Obj};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Number;

/// The `device_status` object of an `update_device_status` frame, not yet projected.
#[derive(Debug, Clone, Copy)]
pub struct DeviceStatusFrame<'a> {
    /// The `device_status` object, verbatim.
    pub raw: &'a RawValue,
}

impl<'a> DeviceStatusFrame<'a> {
    /// `Some` when `raw` is a JSON object.
    pub fn from_raw(raw: &'a RawValue) -> Option<Self> {
        is_object(raw).then_some(DeviceStatusFrame { raw })
    }

    /// The `SessionDeviceStatus` projection, or `None` when the status fails validation
    /// (`is_online`/`is_processing` booleans, a known permission mode, a string-or-null cwd).
    pub fn project(&self) -> Option<SessionDeviceStatus> {
        let wire = serde_json::from_str::<DeviceStatusWire<'_>>(self.raw.get()).ok()?;
        let permission_mode = normalize_permission_mode(&wire.current_permission_mode)?;
        let working_directory = match wire.current_working_directory {
            Field::Str(s) => Some(s.into_owned()),
            Field::Null => None,
            _ => return None,
        };
        Some(SessionDeviceStatus {
            is_online: wire.is_online.as_bool()?,
            is_processing: wire.is_processing.as_bool()?,
            permission_mode,
            working_directory,
            memory_directory: wire.memory_directory.into_str().map(|s| s.into_owned()),
            pending_control_requests: wire
                .pending_control_requests
                .items
                .into_iter()
                .filter_map(|entry| pending_request(entry.0?))
                .collect(),
            raw: self.raw.to_owned(),
        })
    }
}

/// Normalizes a permission mode as the reference does: missing or `default` → `standard`,
/// `bypassPermissions`/`fullAccess` → `unrestricted`, the four modes as-is, anything else → `None`.
pub fn normalize_permission_mode(mode: &Field<'_>) -> Option<&'static str> {
    match mode {
        Field::Missing => Some("standard"),
        Field::Str(s) => match s.as_ref() {
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
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
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
    pub raw: Box<RawValue>,
}

/// One pending approval of a device status.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingControlRequest {
    /// `request_id`.
    pub request_id: String,
    /// `request.tool_name`.
    pub tool_name: String,
    /// `request.tool_call_id`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// `request.input` when an object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<Box<RawValue>>,
    /// `{id, text}` suggestions with string fields.
    pub permission_suggestions: Vec<PermissionSuggestion>,
    /// `request.blocked_path` (string or null).
    pub blocked_path: Option<String>,
    /// Well-formed diff previews, when `diffs` is an array.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diffs: Option<Vec<DiffPreview>>,
}

/// A permission suggestion.
#[derive(Debug, Clone, Serialize)]
pub struct PermissionSuggestion {
    /// Suggestion id.
    pub id: String,
    /// Suggestion text.
    pub text: String,
}

/// A diff preview entry.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "mode", rename_all = "camelCase")]
pub enum DiffPreview {
    /// A full preview with hunks.
    Advanced {
        /// File name.
        #[serde(rename = "fileName")]
        file_name: String,
        /// Hunks.
        hunks: Vec<DiffHunk>,
    },
    /// No hunks, with a reason.
    Fallback {
        /// File name.
        #[serde(rename = "fileName")]
        file_name: String,
        /// Why there is no preview.
        reason: String,
    },
    /// Not previewable, with a reason.
    Unpreviewable {
        /// File name.
        #[serde(rename = "fileName")]
        file_name: String,
        /// Why there is no preview.
        reason: String,
    },
}

/// One diff hunk.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
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
#[derive(Debug, Clone, Serialize)]
pub struct DiffLine {
    /// `context`, `add` or `remove`.
    #[serde(rename = "type")]
    pub line_type: &'static str,
    /// Line text.
    pub content: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct DeviceStatusWire<'a> {
    #[serde(borrow)]
    is_online: Field<'a>,
    #[serde(borrow)]
    is_processing: Field<'a>,
    #[serde(borrow)]
    current_permission_mode: Field<'a>,
    #[serde(borrow)]
    current_working_directory: Field<'a>,
    #[serde(borrow)]
    memory_directory: Field<'a>,
    #[serde(borrow)]
    pending_control_requests: List<Obj<PendingWire<'a>>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PendingWire<'a> {
    #[serde(borrow)]
    request_id: Field<'a>,
    #[serde(borrow)]
    request: Obj<PendingRequestWire<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PendingRequestWire<'a> {
    #[serde(borrow)]
    tool_name: Field<'a>,
    #[serde(borrow)]
    tool_call_id: Field<'a>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    #[serde(borrow)]
    permission_suggestions: List<Obj<SuggestionWire<'a>>>,
    #[serde(borrow)]
    blocked_path: Field<'a>,
    #[serde(borrow)]
    diffs: List<Obj<DiffWire<'a>>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SuggestionWire<'a> {
    #[serde(borrow)]
    id: Field<'a>,
    #[serde(borrow)]
    text: Field<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct DiffWire<'a> {
    #[serde(borrow)]
    mode: Field<'a>,
    #[serde(rename = "fileName", borrow)]
    file_name: Field<'a>,
    #[serde(borrow)]
    hunks: List<Obj<HunkWire<'a>>>,
    #[serde(borrow)]
    reason: Field<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct HunkWire<'a> {
    #[serde(rename = "oldStart", borrow)]
    old_start: Field<'a>,
    #[serde(rename = "oldLines", borrow)]
    old_lines: Field<'a>,
    #[serde(rename = "newStart", borrow)]
    new_start: Field<'a>,
    #[serde(rename = "newLines", borrow)]
    new_lines: Field<'a>,
    #[serde(borrow)]
    lines: List<Obj<LineWire<'a>>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct LineWire<'a> {
    #[serde(rename = "type", borrow)]
    line_type: Field<'a>,
    #[serde(borrow)]
    content: Field<'a>,
}

fn pending_request(entry: PendingWire<'_>) -> Option<PendingControlRequest> {
    let request_id = entry.request_id.into_str()?.into_owned();
    let request = entry.request.0?;
    let tool_name = request.tool_name.into_str()?.into_owned();
    Some(PendingControlRequest {
        request_id,
        tool_name,
        tool_call_id: request.tool_call_id.into_str().map(|s| s.into_owned()),
        tool_input: request
            .input
            .filter(|r| is_object(r))
            .map(RawValue::to_owned),
        permission_suggestions: request
            .permission_suggestions
            .items
            .into_iter()
            .filter_map(|s| {
                let s = s.0?;
                Some(PermissionSuggestion {
                    id: s.id.into_str()?.into_owned(),
                    text: s.text.into_str()?.into_owned(),
                })
            })
            .collect(),
        blocked_path: request.blocked_path.into_str().map(|s| s.into_owned()),
        diffs: request.diffs.into_array().map(|list| {
            list.into_iter()
                .filter_map(|d| diff_preview(d.0?))
                .collect()
        }),
    })
}

fn diff_preview(diff: DiffWire<'_>) -> Option<DiffPreview> {
    let file_name = diff.file_name.into_str()?.into_owned();
    match diff.mode.as_str()? {
        "advanced" => Some(DiffPreview::Advanced {
            file_name,
            hunks: diff
                .hunks
                .into_array()?
                .into_iter()
                .filter_map(|h| diff_hunk(h.0?))
                .collect(),
        }),
        mode @ ("fallback" | "unpreviewable") => {
            let reason = diff.reason.into_str()?.into_owned();
            Some(if mode == "fallback" {
                DiffPreview::Fallback { file_name, reason }
            } else {
                DiffPreview::Unpreviewable { file_name, reason }
            })
        }
        _ => None,
    }
}

fn diff_hunk(hunk: HunkWire<'_>) -> Option<DiffHunk> {
    Some(DiffHunk {
        old_start: hunk.old_start.as_number()?.clone(),
        old_lines: hunk.old_lines.as_number()?.clone(),
        new_start: hunk.new_start.as_number()?.clone(),
        new_lines: hunk.new_lines.as_number()?.clone(),
        lines: hunk
            .lines
            .into_array()?
            .into_iter()
            .filter_map(|line| {
                let line = line.0?;
                let line_type = match line.line_type.as_str()? {
                    "context" => "context",
                    "add" => "add",
                    "remove" => "remove",
                    _ => return None,
                };
                Some(DiffLine {
                    line_type,
                    content: line.content.into_str()?.into_owned(),
                })
            })
            .collect(),
    })
}
