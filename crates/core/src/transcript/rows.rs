//! Row types (spec §2) and their JSON shape (camelCase, absent optional fields omitted).

use crate::json::{serialize_js_number, Object};
use serde::{Serialize, Serializer};

/// The family of a text row. Keys and aliases are scoped to it (spec §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextKind {
    User,
    Assistant,
    Reasoning,
}

impl TextKind {
    /// The kind's name as used in keys and in the row's `kind` field.
    pub fn as_str(self) -> &'static str {
        match self {
            TextKind::User => "user",
            TextKind::Assistant => "assistant",
            TextKind::Reasoning => "reasoning",
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// The `kind` of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Text(TextKind),
    ToolCall,
}

impl RowKind {
    /// `"user" | "assistant" | "reasoning" | "tool_call"`.
    pub fn as_str(self) -> &'static str {
        match self {
            RowKind::Text(k) => k.as_str(),
            RowKind::ToolCall => "tool_call",
        }
    }
}

/// The status of a tool row, derived from its arguments and result (spec §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolStatus {
    Streaming,
    Ready,
    Complete,
}

impl ToolStatus {
    /// `"streaming" | "ready" | "complete"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolStatus::Streaming => "streaming",
            ToolStatus::Ready => "ready",
            ToolStatus::Complete => "complete",
        }
    }
}

/// The result of a tool call. `uuid` is the envelope id of the tool_result message.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    pub content: String,
    pub is_error: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
}

/// The tool-specific part of a `tool_call` row.
#[derive(Debug, Clone)]
pub struct ToolRow {
    pub tool_call_id: String,
    pub tool_name: String,
    /// Best known parsed arguments; `None` means `{}`.
    pub tool_input: Option<Object<'static>>,
    /// Argument text in arrival order; absent when the wire never sent any.
    pub raw_arguments: Option<String>,
    pub arguments_complete: bool,
    pub result: Option<ToolResult>,
}

impl ToolRow {
    /// `"complete"` with a result, else `"ready"` once the arguments are complete, else `"streaming"`.
    pub fn status(&self) -> ToolStatus {
        if self.result.is_some() {
            ToolStatus::Complete
        } else if self.arguments_complete {
            ToolStatus::Ready
        } else {
            ToolStatus::Streaming
        }
    }
}

/// What a row holds besides its identity.
#[derive(Debug, Clone)]
pub enum RowBody {
    /// A text row's accumulated text.
    Text(String),
    Tool(ToolRow),
}

/// One render-ready transcript row.
#[derive(Debug, Clone)]
pub struct Row {
    /// Stable render key, namespaced by family (spec §3).
    pub key: String,
    pub kind: RowKind,
    /// Envelope id of the message that opened the row.
    pub uuid: Option<String>,
    /// Lineage id of the slice (newest non-empty wins).
    pub otid: Option<String>,
    /// The run that most recently contributed.
    pub run_id: Option<String>,
    /// Highest replay cursor seen for the row.
    pub seq_id: Option<f64>,
    pub body: RowBody,
    /// Written since the last patch was taken (change tracking, not part of the row's value).
    pub(super) written: bool,
}

impl Row {
    pub(super) fn new_text(key: String, kind: TextKind) -> Row {
        Row::new(key, RowKind::Text(kind), RowBody::Text(String::new()))
    }

    pub(super) fn new_tool(tool_call_id: &str, tool_name: &str) -> Row {
        let tool = ToolRow {
            tool_call_id: tool_call_id.to_owned(),
            tool_name: tool_name.to_owned(),
            tool_input: None,
            raw_arguments: None,
            arguments_complete: false,
            result: None,
        };
        let key = super::keys::row_key("tool_call", ":id:", tool_call_id);
        Row::new(key, RowKind::ToolCall, RowBody::Tool(tool))
    }

    fn new(key: String, kind: RowKind, body: RowBody) -> Row {
        Row {
            key,
            kind,
            uuid: None,
            otid: None,
            run_id: None,
            seq_id: None,
            body,
            written: false,
        }
    }

    /// The text of a text row.
    pub fn text(&self) -> Option<&str> {
        match &self.body {
            RowBody::Text(t) => Some(t),
            RowBody::Tool(_) => None,
        }
    }

    /// The tool part of a tool row.
    pub fn tool(&self) -> Option<&ToolRow> {
        match &self.body {
            RowBody::Tool(t) => Some(t),
            RowBody::Text(_) => None,
        }
    }

    /// Folds the identity fields of one write into the row: a missing `uuid` takes the first one
    /// supplied, the newest non-empty `otid` and the newest defined `runId` win, and `seqId` is the
    /// maximum.
    pub(super) fn merge_identity(&mut self, ids: &Ids<'_>) {
        if self.uuid.is_none() {
            self.uuid = ids.uuid.map(str::to_owned);
        }
        if let Some(otid) = ids.otid.filter(|o| !o.is_empty()) {
            set_str(&mut self.otid, otid);
        }
        if let Some(run) = ids.run_id {
            set_str(&mut self.run_id, run);
        }
        if let Some(seq) = ids.seq_id {
            self.seq_id = Some(self.seq_id.map_or(seq, |prev| prev.max(seq)));
        }
    }
}

/// The identity fields carried by one write.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ids<'s> {
    pub uuid: Option<&'s str>,
    pub otid: Option<&'s str>,
    pub run_id: Option<&'s str>,
    pub seq_id: Option<f64>,
}

/// Replaces `slot` with `value` without reallocating when it already holds it.
fn set_str(slot: &mut Option<String>, value: &str) {
    match slot {
        Some(s) if s == value => {}
        Some(s) => {
            s.clear();
            s.push_str(value);
        }
        None => *slot = Some(value.to_owned()),
    }
}

/// Row numbers (`seqId`) below 2^53 that are integral are written as integers (`2`, not `2.0`).
const ROW_INTEGERS_BELOW: f64 = 9_007_199_254_740_992.0;

impl Serialize for Row {
    /// The row object: camelCase members, absent optional members omitted.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let body = match &self.body {
            RowBody::Text(text) => BodyJson::Text { text },
            RowBody::Tool(t) => BodyJson::Tool {
                tool_call_id: &t.tool_call_id,
                tool_name: &t.tool_name,
                tool_input: t.tool_input.as_ref().unwrap_or(&EMPTY_OBJECT),
                raw_arguments: t.raw_arguments.as_deref(),
                arguments_complete: t.arguments_complete,
                result: t.result.as_ref(),
                status: t.status(),
            },
        };
        RowJson {
            key: &self.key,
            kind: self.kind.as_str(),
            uuid: self.uuid.as_deref(),
            otid: self.otid.as_deref(),
            run_id: self.run_id.as_deref(),
            seq_id: self.seq_id,
            body,
        }
        .serialize(serializer)
    }
}

/// What a tool row without parsed arguments shows as `toolInput`.
static EMPTY_OBJECT: Object<'static> = Object::new();

/// The JSON shape of a [`Row`].
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RowJson<'r> {
    key: &'r str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    uuid: Option<&'r str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    otid: Option<&'r str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<&'r str>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "row_number")]
    seq_id: Option<f64>,
    #[serde(flatten)]
    body: BodyJson<'r>,
}

/// The members of a row that depend on its kind.
#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum BodyJson<'r> {
    Text {
        text: &'r str,
    },
    Tool {
        tool_call_id: &'r str,
        tool_name: &'r str,
        tool_input: &'r Object<'static>,
        #[serde(skip_serializing_if = "Option::is_none")]
        raw_arguments: Option<&'r str>,
        arguments_complete: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        result: Option<&'r ToolResult>,
        status: ToolStatus,
    },
}

/// A `seqId` (only called when present).
fn row_number<S: Serializer>(seq: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match *seq {
        Some(n) => serialize_js_number(n, ROW_INTEGERS_BELOW, serializer),
        None => serializer.serialize_none(),
    }
}
