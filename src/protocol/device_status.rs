//! `update_device_status` projection (spec §3.6), decoded only when someone asks for it.

use crate::json::{Members, Object, ToJson, Value};

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
        let mut json = String::new();
        let mut m = Members::open(&mut json);
        m.bool("isOnline", is_online)
            .bool("isProcessing", is_processing)
            .string("permissionMode", permission_mode)
            .value("workingDirectory", cwd);
        nullable_str(&mut m, "memoryDirectory", status.get("memory_directory"));
        let pending = status.array("pending_control_requests").unwrap_or_default();
        write_objects(m.key("pendingControlRequests"), pending, pending_request);
        m.serialize("raw", status);
        m.close();
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

impl ToJson for SessionDeviceStatus {
    fn write_json(&self, out: &mut String) {
        out.push_str(&self.json);
    }
}

/// Writes the object elements of `items` that `each` accepts as a JSON array (other elements
/// skipped). `each` validates an element before writing anything and returns whether it wrote.
fn write_objects(
    out: &mut String,
    items: &[Value<'_>],
    each: fn(&mut String, &Object<'_>) -> bool,
) {
    out.push('[');
    for item in items {
        if let Some(object) = item.as_object() {
            each(out, object);
        }
    }
    out.push(']');
}

/// Opens the object of an array element, after a comma unless it is the array's first.
fn open_element(out: &mut String) -> Members<'_> {
    if !out.ends_with('[') {
        out.push(',');
    }
    Members::open(out)
}

/// A string member when `value` is a string, else `null`.
fn nullable_str(m: &mut Members<'_>, key: &str, value: &Value<'_>) {
    match value.as_str() {
        Some(text) => m.string(key, text),
        None => m.raw(key, "null"),
    };
}

/// A `pendingControlRequests` entry: needs a string `request_id` and a `request` object with a
/// string `tool_name`.
fn pending_request(out: &mut String, entry: &Object<'_>) -> bool {
    let request_id = entry.get("request_id").as_str();
    let request = entry.object("request");
    let (Some(request_id), Some(request)) = (request_id, request) else {
        return false;
    };
    let Some(tool_name) = request.get("tool_name").as_str() else {
        return false;
    };
    let mut m = open_element(out);
    m.string("requestId", request_id)
        .string("toolName", tool_name);
    if let Some(id) = request.get("tool_call_id").as_str() {
        m.string("toolCallId", id);
    }
    if let Some(input) = request.object("input") {
        m.serialize("toolInput", input);
    }
    let suggestions = request.array("permission_suggestions").unwrap_or_default();
    write_objects(
        m.key("permissionSuggestions"),
        suggestions,
        permission_suggestion,
    );
    nullable_str(&mut m, "blockedPath", request.get("blocked_path"));
    if let Some(diffs) = request.array("diffs") {
        write_objects(m.key("diffs"), diffs, diff_preview);
    }
    m.close();
    true
}

/// A `{id, text}` suggestion with string fields.
fn permission_suggestion(out: &mut String, suggestion: &Object<'_>) -> bool {
    let id = suggestion.get("id").as_str();
    let text = suggestion.get("text").as_str();
    let (Some(id), Some(text)) = (id, text) else {
        return false;
    };
    let mut m = open_element(out);
    m.string("id", id).string("text", text);
    m.close();
    true
}

/// A diff preview: `{mode: "advanced", fileName, hunks}` (a `hunks` array required) or
/// `{mode: "fallback" | "unpreviewable", fileName, reason}` (a string `reason` required).
fn diff_preview(out: &mut String, diff: &Object<'_>) -> bool {
    let Some(file_name) = diff.get("fileName").as_str() else {
        return false;
    };
    let (mode, hunks, reason) = match diff.get("mode").as_str() {
        Some("advanced") => ("advanced", diff.array("hunks"), None),
        Some("fallback") => ("fallback", None, diff.get("reason").as_str()),
        Some("unpreviewable") => ("unpreviewable", None, diff.get("reason").as_str()),
        _ => return false,
    };
    if hunks.is_none() && reason.is_none() {
        return false;
    }
    let mut m = open_element(out);
    m.string("mode", mode).string("fileName", file_name);
    if let Some(hunks) = hunks {
        write_objects(m.key("hunks"), hunks, diff_hunk);
    }
    if let Some(reason) = reason {
        m.string("reason", reason);
    }
    m.close();
    true
}

/// The four position members of a hunk, in output order.
const HUNK_NUMBERS: [&str; 4] = ["oldStart", "oldLines", "newStart", "newLines"];

/// A hunk: four finite numbers (integral ones written as integers) and a `lines` array.
fn diff_hunk(out: &mut String, hunk: &Object<'_>) -> bool {
    for key in &HUNK_NUMBERS {
        if !hunk.get(key).as_f64().is_some_and(f64::is_finite) {
            return false;
        }
    }
    let Some(lines) = hunk.array("lines") else {
        return false;
    };
    let mut m = open_element(out);
    for key in &HUNK_NUMBERS {
        m.value(key, hunk.get(key));
    }
    write_objects(m.key("lines"), lines, diff_line);
    m.close();
    true
}

/// A line of type `context`, `add` or `remove` with a string `content`.
fn diff_line(out: &mut String, line: &Object<'_>) -> bool {
    let line_type = line.get("type").as_str();
    let content = line.get("content").as_str();
    let (Some(line_type @ ("context" | "add" | "remove")), Some(content)) = (line_type, content)
    else {
        return false;
    };
    let mut m = open_element(out);
    m.string("type", line_type).string("content", content);
    m.close();
    true
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
        let text = r#"{"is_online":false,"is_processing":true,"current_working_directory":"/w",
            "current_permission_mode":"fullAccess","memory_directory":"/m","x":[1.5,-0]}"#;
        let status = DeviceStatusFrame::from_value(crate::json::parse(text).unwrap())
            .unwrap()
            .project()
            .unwrap();
        assert_eq!(status.working_directory.as_deref(), Some("/w"));
        assert_eq!(
            crate::json::to_string(&status),
            r#"{"isOnline":false,"isProcessing":true,"permissionMode":"unrestricted","workingDirectory":"/w","memoryDirectory":"/m","pendingControlRequests":[],"raw":{"is_online":false,"is_processing":true,"current_working_directory":"/w","current_permission_mode":"fullAccess","memory_directory":"/m","x":[1.5,0]}}"#
        );
    }
}
