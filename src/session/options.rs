//! Client and session options (spec §1.2, §1.4, §1.6): parsed from the JSON the JS wrapper
//! passes (functions such as `canUseTool` and `tools[].execute` stay in JS; the wrapper sends
//! `hasCanUseTool` and the tool definitions), validated with the reference's error texts.

use super::error::SessionError;
use crate::json::{Object, Value, WrongType};
use crate::protocol::commands::{ClientToolset, ExternalToolSpec};

/// Remote client options after validation.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Normalized WebSocket URL (spec §3.1).
    pub url: String,
    /// Sent only as `Authorization: Bearer <token>` on the upgrade.
    pub auth_token: Option<String>,
    /// Request and turn timeout; `None` = 30 000 ms for requests, no turn timeout.
    pub request_timeout_ms: Option<u64>,
    /// `pin_global` for created agents.
    pub pin_global_agent: Option<bool>,
}

/// Default request timeout when `requestTimeoutMs` is not set (letta-code's default).
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 30_000;

const PORTABLE_BACKEND_ERROR: &str = "The portable \"@letta-ai/letta-agent-sdk/client\" entry point supports backend: \"remote\" and backend: \"cloud\" only. Import from \"@letta-ai/letta-agent-sdk\" for local execution.";

/// Validates `new LettaAgentClient(options)`.
pub fn parse_client_options(json: &str) -> Result<ClientOptions, SessionError> {
    let o = Object::parse(json)
        .ok_or_else(|| SessionError::invalid("LettaAgentClient options must be an object."))?;
    match o.get("backend") {
        Value::Absent | Value::Null => return Err(SessionError::invalid(PORTABLE_BACKEND_ERROR)),
        Value::String(b) if b == "local" => {
            return Err(SessionError::invalid(PORTABLE_BACKEND_ERROR))
        }
        Value::String(b) if b == "remote" => {}
        Value::String(b) if b == "cloud" => {
            return Err(SessionError::unsupported(
                "backend: \"cloud\" is not supported by this client yet; use backend: \"remote\".",
            ))
        }
        other => {
            let shown = other.as_str().unwrap_or("?").to_owned();
            return Err(SessionError::invalid(format!(
                "Invalid Letta Code backend '{shown}'. Valid values: local, remote, cloud."
            )));
        }
    }
    for key in ["computer", "environment"] {
        if !o.get(key).is_nullish() {
            return Err(SessionError::invalid(format!(
                "LettaAgentClient {key} is only valid with backend: \"cloud\"; remote url selects the app-server runtime."
            )));
        }
    }
    if !o.get("sandbox").is_nullish() {
        return Err(SessionError::invalid(
            "LettaAgentClient sandbox options are only valid with backend: \"cloud\".",
        ));
    }
    let url = match o.get("url") {
        Value::String(u) if !u.trim().is_empty() => normalize_app_server_url(u.trim())?,
        _ => {
            return Err(SessionError::invalid(
                "LettaAgentClient remote backend requires a non-empty url.",
            ))
        }
    };
    let auth_token = match o.get("authToken") {
        Value::Absent | Value::Null => None,
        Value::String(t) if !t.trim().is_empty() => Some(t.as_ref().to_owned()),
        _ => {
            return Err(SessionError::invalid(
                "app-server auth token must not be empty",
            ))
        }
    };
    Ok(ClientOptions {
        url,
        auth_token,
        request_timeout_ms: positive_integer(o.get("requestTimeoutMs")).map_err(|_| {
            SessionError::invalid("Invalid requestTimeoutMs. Expected a positive integer.")
        })?,
        pin_global_agent: o.get("pinGlobalAgent").as_bool(),
    })
}

/// Absent/null → `None`; a positive integer → `Some`; anything else is [`WrongType`].
pub fn positive_integer(value: &Value<'_>) -> Result<Option<u64>, WrongType> {
    match *value {
        Value::Absent | Value::Null => Ok(None),
        Value::Number(n) if n >= 1.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => {
            Ok(Some(n as u64))
        }
        _ => Err(WrongType),
    }
}

/// Spec §3.1: `http:`→`ws:`, `https:`→`wss:`, other non-ws schemes rejected; an empty or `/`
/// path becomes `/ws`; a `channel` query parameter is removed; other parameters are kept.
pub fn normalize_app_server_url(url: &str) -> Result<String, SessionError> {
    let (scheme, rest) = split_scheme(url)
        .ok_or_else(|| SessionError::invalid(format!("Invalid app-server URL: {}", redact(url))))?;
    let scheme = match scheme.to_ascii_lowercase().as_str() {
        "ws" | "http" => "ws",
        "wss" | "https" => "wss",
        other => {
            return Err(SessionError::invalid(format!(
                "Unsupported app-server URL protocol: {other}:"
            )))
        }
    };
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let slash = rest.find('/').unwrap_or(rest.len());
    let authority = rest.get(..slash).unwrap_or(rest);
    let path = rest.get(slash..).unwrap_or("");
    if authority.rsplit('@').next().is_none_or(str::is_empty) {
        return Err(SessionError::invalid(format!(
            "Invalid app-server URL: {}",
            redact(url)
        )));
    }
    let path = if path.is_empty() || path == "/" {
        "/ws"
    } else {
        path
    };
    let mut out = format!("{scheme}://{authority}{path}");
    if let Some(query) = query {
        let kept: Vec<&str> = query
            .split('&')
            .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("channel"))
            .collect();
        if !kept.is_empty() {
            out.push('?');
            out.push_str(&kept.join("&"));
        }
    }
    if let Some(fragment) = fragment.filter(|f| !f.is_empty()) {
        out.push('#');
        out.push_str(fragment);
    }
    Ok(out)
}

/// A URL as it may appear in an error message: without user info or query (which may hold
/// credentials).
fn redact(url: &str) -> String {
    let without_query = url.split(['?', '#']).next().unwrap_or("");
    match split_scheme(without_query) {
        Some((scheme, rest)) => {
            let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
            format!("{scheme}://{host}")
        }
        None => String::from("(unparseable)"),
    }
}

/// `scheme://rest` → `(scheme, rest)` (a byte search: no substring searcher, no panicking slice).
fn split_scheme(url: &str) -> Option<(&str, &str)> {
    let i = url.as_bytes().windows(3).position(|w| w == b"://")?;
    Some((url.get(..i)?, url.get(i + 3..)?))
}

/// `dreaming` settings sent as `set_reflection_settings`.
#[derive(Debug, Clone, PartialEq)]
pub struct Dreaming {
    /// `off` | `step-count` | `compaction-event` (default `step-count`).
    pub trigger: String,
    /// Positive integer (default 5).
    pub step_count: u64,
}

/// Session options after validation (spec §1.4).
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// Permission mode, always sent (`standard` by default).
    pub mode: &'static str,
    pub cwd: Option<String>,
    pub stateless: bool,
    /// Deduplicated skill sources; `Some(vec![])` disables all.
    pub skill_sources: Option<Vec<String>>,
    /// Applied after start with `update_model`.
    pub model: Option<String>,
    pub reasoning_effort: Option<String>,
    /// Deduplicated `allowedTools`, sent per turn as `client_tool_allowlist`.
    pub allowed_tools: Option<Vec<String>>,
    /// Sent per turn as `client_toolset`.
    pub toolset: Option<ClientToolset>,
    pub dreaming: Option<Dreaming>,
    /// A `canUseTool` callback is registered (the wrapper keeps the function).
    pub has_can_use_tool: bool,
    /// SDK-hosted tools (the wrapper keeps their `execute`).
    pub tools: Vec<ExternalToolSpec>,
}

const SKILL_SOURCES: [&str; 4] = ["bundled", "global", "agent", "project"];
const REASONING_EFFORTS: [&str; 6] = ["none", "minimal", "low", "medium", "high", "xhigh"];
const DREAMING_TRIGGERS: [&str; 3] = ["off", "step-count", "compaction-event"];
const TOOLSET_BASES: [&str; 7] = [
    "auto",
    "codex",
    "codex_snake",
    "default",
    "gemini",
    "gemini_snake",
    "none",
];
const REMOVED_OPTIONS: [&str; 5] = [
    "systemPrompt",
    "disallowedTools",
    "systemInfoReminder",
    "includePartialMessages",
    "memfsStartup",
];

/// Spec §1.6: legacy names are mapped; unknown values are dropped (→ `standard`).
pub fn normalize_permission_mode(mode: Option<&str>) -> &'static str {
    match mode {
        Some("acceptEdits") => "acceptEdits",
        Some("unrestricted" | "bypassPermissions" | "fullAccess") => "unrestricted",
        Some("strict") => "strict",
        _ => "standard",
    }
}

/// Validates the options of `createSession()` / `resumeSession()` for the remote backend.
/// `action` names the call in error texts (`createSession`, `resumeSession`).
pub fn parse_session_options(json: &str, action: &str) -> Result<SessionOptions, SessionError> {
    let o = match json.trim() {
        "" | "null" | "undefined" => Object::default(),
        text => Object::parse(text).ok_or_else(|| {
            SessionError::invalid(format!("{action}() options must be an object."))
        })?,
    };
    for removed in REMOVED_OPTIONS {
        if !o.get(removed).is_nullish() {
            return Err(SessionError::invalid(format!(
                "{removed} is not supported by the Letta Agent SDK."
            )));
        }
    }
    for cloud_only in ["computer", "environment", "sandbox"] {
        if !o.get(cloud_only).is_nullish() {
            return Err(SessionError::invalid(format!(
                "{action}() {cloud_only} options are only valid with backend: \"cloud\"."
            )));
        }
    }
    if o.get("resources").as_array().is_some_and(|r| !r.is_empty()) {
        return Err(SessionError::invalid(format!(
            "{action}() resources are only valid with backend: \"cloud\"."
        )));
    }
    if !o.get("filesystemConfinement").is_nullish() {
        return Err(SessionError::invalid(format!(
            "{action}() filesystemConfinement is not supported with backend: \"remote\"."
        )));
    }
    if !o.get("outputFormat").is_nullish() {
        return Err(SessionError::unsupported(
            "outputFormat (structured output) is not supported by this client yet.",
        ));
    }
    if !o.get("mcpServers").is_nullish() {
        return Err(SessionError::invalid(
            "Invalid mcpServers. MCP servers are not supported by the portable client; host the tools with the tools option.",
        ));
    }
    let stateless = match *o.get("stateless") {
        Value::Absent | Value::Null => false,
        Value::Bool(b) => b,
        _ => {
            return Err(SessionError::invalid(
                "Invalid stateless. Expected a boolean.",
            ))
        }
    };
    let model = optional_string(&o, "model")?;
    let reasoning_effort = optional_string(&o, "reasoningEffort")?;
    if let Some(effort) = &reasoning_effort {
        if !REASONING_EFFORTS.contains(&effort.as_str()) {
            return Err(SessionError::invalid(format!(
                "Invalid reasoningEffort '{effort}'. Valid values: {}.",
                REASONING_EFFORTS.join(", ")
            )));
        }
    }
    let dreaming = parse_dreaming(o.get("dreaming"))?;
    if stateless {
        for (key, set) in [
            ("model", model.is_some()),
            ("reasoningEffort", reasoning_effort.is_some()),
            ("dreaming", dreaming.is_some()),
            ("resources", !o.get("resources").is_nullish()),
        ] {
            if set {
                return Err(SessionError::invalid(format!(
                    "stateless sessions cannot set {key} because it changes persisted agent configuration."
                )));
            }
        }
    }
    let skill_sources = match o.get("skillSources") {
        Value::Absent | Value::Null => None,
        value => {
            let list = string_list(value).ok_or_else(|| {
                SessionError::invalid("Invalid skillSources. Expected an array of skill sources.")
            })?;
            for source in &list {
                if !SKILL_SOURCES.contains(&source.as_str()) {
                    return Err(SessionError::invalid(format!(
                        "Invalid skill source '{source}'. Valid values: {}.",
                        SKILL_SOURCES.join(", ")
                    )));
                }
            }
            Some(dedup(list))
        }
    };
    let allowed_tools = match o.get("allowedTools") {
        Value::Absent | Value::Null => None,
        value => Some(dedup(string_list(value).ok_or_else(|| {
            SessionError::invalid("Invalid allowedTools. Expected an array of tool names.")
        })?)),
    };
    let cwd = optional_string(&o, "cwd")?;
    Ok(SessionOptions {
        mode: normalize_permission_mode(o.get("permissionMode").as_str()),
        cwd,
        stateless,
        skill_sources,
        model,
        reasoning_effort,
        allowed_tools,
        toolset: parse_toolset(o.get("toolset"))?,
        dreaming,
        has_can_use_tool: o.get("hasCanUseTool").as_bool().unwrap_or(false),
        tools: parse_tools(o.get("tools"))?,
    })
}

fn optional_string(o: &Object<'_>, key: &str) -> Result<Option<String>, SessionError> {
    match o.get(key) {
        Value::Absent | Value::Null => Ok(None),
        Value::String(s) if !s.trim().is_empty() => Ok(Some(s.as_ref().to_owned())),
        _ => Err(SessionError::invalid(format!(
            "Invalid {key}. Expected a non-empty string."
        ))),
    }
}

fn string_list(value: &Value<'_>) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|item| item.as_str().map(str::to_owned))
        .collect()
}

fn dedup(list: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(list.len());
    for item in list {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

fn parse_dreaming(value: &Value<'_>) -> Result<Option<Dreaming>, SessionError> {
    if value.is_nullish() {
        return Ok(None);
    }
    let o = value
        .as_object()
        .ok_or_else(|| SessionError::invalid("Invalid dreaming. Expected an object."))?;
    if !o.get("behavior").is_nullish() {
        return Err(SessionError::invalid(
            "Invalid dreaming.behavior. dreaming.behavior is not supported; use dreaming.trigger.",
        ));
    }
    let trigger = match o.get("trigger") {
        Value::Absent | Value::Null => String::from("step-count"),
        Value::String(t) if DREAMING_TRIGGERS.contains(&t.as_ref()) => t.as_ref().to_owned(),
        other => {
            return Err(SessionError::invalid(format!(
                "Invalid dreaming.trigger '{}'. Valid values: {}.",
                other.as_str().unwrap_or("?"),
                DREAMING_TRIGGERS.join(", ")
            )))
        }
    };
    let step_count = positive_integer(o.get("stepCount"))
        .map_err(|_| {
            SessionError::invalid("Invalid dreaming.stepCount. Expected a positive integer.")
        })?
        .unwrap_or(5);
    Ok(Some(Dreaming {
        trigger,
        step_count,
    }))
}

fn parse_toolset(value: &Value<'_>) -> Result<Option<ClientToolset>, SessionError> {
    if value.is_nullish() {
        return Ok(None);
    }
    let o = value
        .as_object()
        .ok_or_else(|| SessionError::invalid("Invalid toolset. Expected an object."))?;
    let base = match o.get("base") {
        Value::Absent | Value::Null => None,
        Value::String(b) if TOOLSET_BASES.contains(&b.as_ref()) => Some(b.as_ref().to_owned()),
        other => {
            return Err(SessionError::invalid(format!(
                "Invalid toolset.base '{}'. Valid values: {}.",
                other.as_str().unwrap_or("?"),
                TOOLSET_BASES.join(", ")
            )))
        }
    };
    let include = match o.get("include") {
        Value::Absent | Value::Null => None,
        value => {
            let list = string_list(value)
                .filter(|l| l.iter().all(|s| !s.trim().is_empty()))
                .ok_or_else(|| {
                    SessionError::invalid(
                        "Invalid toolset.include. Expected an array of non-empty tool names.",
                    )
                })?;
            Some(dedup(list))
        }
    };
    Ok(Some(ClientToolset { base, include }))
}

fn parse_tools(value: &Value<'_>) -> Result<Vec<ExternalToolSpec>, SessionError> {
    if value.is_nullish() {
        return Ok(Vec::new());
    }
    let invalid = |i: usize| {
        SessionError::invalid(format!(
            "Invalid tools[{i}]. Expected {{name, description, parameters, execute}}."
        ))
    };
    let items = value
        .as_array()
        .ok_or_else(|| SessionError::invalid("Invalid tools. Expected an array."))?;
    let mut tools = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let o = item.as_object().ok_or_else(|| invalid(i))?;
        let name = o
            .str("name")
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| invalid(i))?;
        let parameters = o.object("parameters").ok_or_else(|| invalid(i))?;
        tools.push(ExternalToolSpec {
            label: o.str("label").unwrap_or_else(|| name.clone()).into_owned(),
            description: o.str("description").unwrap_or_default().into_owned(),
            name: name.into_owned(),
            parameters: parameters.to_static(),
        });
    }
    Ok(tools)
}

#[cfg(test)]
mod tests;
