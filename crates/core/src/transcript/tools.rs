//! Tool rows (spec §5): merging calls and results by `toolCallId`, and argument accumulation.

use super::rows::{Ids, Row, RowBody, ToolResult, ToolRow};
use super::TranscriptAccumulator;
use crate::json::Object;

/// How argument text is merged: live fragments append, history replaces (spec §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ArgsMode {
    Fragment,
    Whole,
}

/// One tool-call write.
pub(super) struct CallWrite<'s> {
    pub tool_call_id: &'s str,
    pub tool_name: Option<&'s str>,
    /// The incoming `toolInput` object.
    pub tool_input: Option<&'s Object<'s>>,
    /// The incoming `rawArguments` fragment.
    pub frag: Option<&'s str>,
    pub ids: Ids<'s>,
}

/// One tool-result write.
pub(super) struct ResultWrite<'s> {
    pub tool_call_id: &'s str,
    pub content: &'s str,
    pub is_error: bool,
    /// Envelope id of the tool_result message (goes to `result.uuid`).
    pub uuid: Option<&'s str>,
    pub run_id: Option<&'s str>,
    pub seq_id: Option<f64>,
}

impl TranscriptAccumulator {
    /// Finds the row of `tool_call_id`, creating it (name `"?"` unless given) at the end.
    fn tool_row(&mut self, tool_call_id: &str, tool_name: Option<&str>) -> usize {
        if let Some(i) = self.aliases.tool(tool_call_id) {
            return i;
        }
        let index = self.push_row(Row::new_tool(tool_call_id, tool_name.unwrap_or("?")));
        self.aliases.bind_tool(tool_call_id, index);
        index
    }

    /// Merges a tool call into its row and returns the row index.
    pub(super) fn write_tool_call(&mut self, call: &CallWrite<'_>, mode: ArgsMode) -> usize {
        let index = self.tool_row(call.tool_call_id, call.tool_name);
        if let Some(RowBody::Tool(tool)) = self.write_row(index, &call.ids) {
            if let Some(name) = call.tool_name.filter(|n| !n.is_empty() && *n != "?") {
                if tool.tool_name != name {
                    tool.tool_name.clear();
                    tool.tool_name.push_str(name);
                }
            }
            merge_arguments(tool, call.frag, call.tool_input, mode);
        }
        index
    }

    /// Merges a tool result into its row (creating an orphan row) and returns the row index.
    pub(super) fn write_tool_result(&mut self, res: &ResultWrite<'_>) -> usize {
        let index = self.tool_row(res.tool_call_id, None);
        // The result's envelope id belongs to the result, never to the row.
        let ids = Ids {
            uuid: None,
            otid: None,
            run_id: res.run_id,
            seq_id: res.seq_id,
        };
        if let Some(RowBody::Tool(tool)) = self.write_row(index, &ids) {
            tool.result = Some(ToolResult {
                content: res.content.to_owned(),
                is_error: res.is_error,
                uuid: res.uuid.map(str::to_owned),
            });
        }
        index
    }
}

/// Spec §5.1: `toolInput` changes only on a successful parse or a non-empty decoded object.
fn merge_arguments(
    tool: &mut ToolRow,
    frag: Option<&str>,
    input: Option<&Object<'_>>,
    mode: ArgsMode,
) {
    if let Some(frag) = frag.filter(|f| !f.is_empty()) {
        if let Some(parsed) = parse_object(frag) {
            // A self-contained object is the whole, final value: replace, never append.
            tool.raw_arguments = Some(frag.to_owned());
            tool.tool_input = Some(parsed);
            tool.arguments_complete = true;
        } else if tool.arguments_complete {
            // A trailing or replayed partial after completion changes nothing.
        } else if mode == ArgsMode::Whole {
            if tool.raw_arguments.is_none() {
                tool.raw_arguments = Some(frag.to_owned());
            }
        } else {
            let raw = tool.raw_arguments.get_or_insert_with(String::new);
            raw.push_str(frag);
            if let Some(parsed) = parse_object(raw) {
                tool.tool_input = Some(parsed);
                tool.arguments_complete = true;
            }
        }
        return;
    }
    let Some(input) = input else {
        return;
    };
    if input.is_empty() {
        if tool.raw_arguments.is_none() {
            // A call that genuinely has no arguments.
            tool.arguments_complete = true;
        }
        return;
    }
    // The protocol's transitional `{ raw: "<fragment>" }` wrapper is not decoded arguments.
    let is_wrapper = input.len() == 1
        && input
            .get("raw")
            .as_str()
            .is_some_and(|raw| frag.is_none_or(|f| f == raw));
    if !is_wrapper {
        tool.tool_input = Some(input.to_static());
        tool.arguments_complete = true;
    }
}

/// Trims like JavaScript's `String.prototype.trim` (which `JSON.parse` callers use).
fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}')
}

/// Parses `text` (trimmed the JavaScript way) as a JSON object. Primitives and arrays never
/// count as parsed (spec §5.1).
fn parse_object(text: &str) -> Option<Object<'static>> {
    let braced = |t: &str| t.starts_with('{') && t.ends_with('}');
    // Trimming is a no-op on text that is already braced (the common complete case).
    let t = if braced(text) { text } else { js_trim(text) };
    if !braced(t) {
        return None;
    }
    Object::parse(t).map(Object::into_static)
}
