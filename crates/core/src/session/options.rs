//! The session configuration the core is created with. Options have one home each:
//! - **checks** in the JS wrapper (`pkg-template/lib/options.js`, with the reference's error
//!   texts, spec §1.2, §1.4, §1.6, §3.1): checking the shapes of options is what JavaScript
//!   does in a few bytes, where the same checks in the core cost kilobytes of WebAssembly;
//! - **defaults and mappings** here, once: the wrapper leaves out what the caller left out.
//!
//! The configuration is JSON, `{"requestTimeoutMs"?, "target": {...}, "options": {...}}`
//! ([`read_session_config`]), and is read strictly: a member of another type counts as absent.
//! `options` holds `permissionMode`?, `cwd`?, `stateless`?, `skillSources`? (deduplicated),
//! `model`?, `reasoningEffort`?, `allowedTools`? (deduplicated), `toolset`? `{base?,
//! include?}`, `dreaming`? `{trigger?, stepCount?}`, `reconnect`? (`false`, `true` or
//! `{maxAttempts?, backoffMs?}`), `hasCanUseTool`, `tools` (`[{name, label?, description?,
//! parameters}]`) and `autoAllowedTools` (names allowed without asking). Functions such as
//! `canUseTool` and `tools[].execute` stay in JS.

use super::core::Target;
use super::reconnect::ReconnectPolicy;
use crate::json::{Object, Value, WrongType};
use crate::protocol::commands::{ClientToolset, CreateConversationBody, ExternalToolSpec};

/// Default request timeout when `requestTimeoutMs` is not set (letta-code's default).
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 30_000;

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
    /// Tools allowed without asking `canUseTool` (the wrapper's `StructuredOutput`).
    pub auto_allowed_tools: Vec<String>,
    /// SDK-hosted tools (the wrapper keeps their `execute`).
    pub tools: Vec<ExternalToolSpec>,
    /// `reconnect`: on by default; `false` keeps one socket and ends the session on a drop.
    pub reconnect: Option<ReconnectPolicy>,
}

/// Spec §1.6: legacy names are mapped; unknown values are dropped (→ `standard`).
pub fn normalize_permission_mode(mode: Option<&str>) -> &'static str {
    match mode {
        Some("acceptEdits") => "acceptEdits",
        Some("unrestricted" | "bypassPermissions" | "fullAccess") => "unrestricted",
        Some("strict") => "strict",
        _ => "standard",
    }
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

/// A validated session configuration, read.
#[derive(Debug, Clone)]
pub struct SessionSetup {
    /// The client's `requestTimeoutMs`.
    pub request_timeout_ms: Option<u64>,
    pub target: Target,
    pub options: SessionOptions,
}

/// Reads `{"requestTimeoutMs"?, "target", "options"}` as the wrapper writes it; `None` if it
/// is not that shape (the wrapper never sends anything else).
pub fn read_session_config(json: &str) -> Option<SessionSetup> {
    let config = Object::parse(json)?;
    let target = read_target(config.object("target")?)?;
    let none = Object::new();
    let options = match target {
        Target::Management => SessionOptions::default(),
        _ => SessionOptions::read(config.object("options").unwrap_or(&none)),
    };
    Some(SessionSetup {
        request_timeout_ms: positive_integer(config.get("requestTimeoutMs"))
            .ok()
            .flatten(),
        target,
        options,
    })
}

/// A string member, copied.
pub(super) fn text(o: &Object<'_>, key: &str) -> Option<String> {
    o.get(key).as_str().map(str::to_owned)
}

fn strings(o: &Object<'_>, key: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for item in o.array(key)? {
        if let Some(item) = item.as_str() {
            out.push(item.to_owned());
        }
    }
    Some(out)
}

impl SessionOptions {
    /// The normalized options (see the module's documentation), with their defaults.
    pub fn read(o: &Object<'_>) -> SessionOptions {
        let mut tools = Vec::new();
        for tool in o.array("tools").unwrap_or_default() {
            if let Some(tool) = tool.as_object().and_then(read_tool) {
                tools.push(tool);
            }
        }
        SessionOptions {
            mode: normalize_permission_mode(o.get("permissionMode").as_str()),
            cwd: text(o, "cwd"),
            stateless: o.bool("stateless") == Some(true),
            skill_sources: strings(o, "skillSources"),
            model: text(o, "model"),
            reasoning_effort: text(o, "reasoningEffort"),
            allowed_tools: strings(o, "allowedTools"),
            toolset: o.object("toolset").map(|t| ClientToolset {
                base: text(t, "base"),
                include: strings(t, "include"),
            }),
            dreaming: o.object("dreaming").map(|d| Dreaming {
                trigger: text(d, "trigger").unwrap_or_else(|| String::from("step-count")),
                step_count: positive_integer(d.get("stepCount"))
                    .ok()
                    .flatten()
                    .unwrap_or(5),
            }),
            has_can_use_tool: o.bool("hasCanUseTool") == Some(true),
            auto_allowed_tools: strings(o, "autoAllowedTools").unwrap_or_default(),
            tools,
            reconnect: read_reconnect(o.get("reconnect")),
        }
    }
}

/// `reconnect` as options.js validated it: `false`, `true` / absent (the defaults), or
/// `{maxAttempts?, backoffMs?}`.
fn read_reconnect(value: &Value<'_>) -> Option<ReconnectPolicy> {
    let defaults = ReconnectPolicy::default();
    match value {
        Value::Bool(false) => None,
        Value::Object(policy) => Some(ReconnectPolicy {
            max_attempts: positive_integer(policy.get("maxAttempts"))
                .ok()
                .flatten()
                .map_or(defaults.max_attempts, |n| n.min(u64::from(u32::MAX)) as u32),
            backoff_ms: positive_integer(policy.get("backoffMs"))
                .ok()
                .flatten()
                .unwrap_or(defaults.backoff_ms),
        }),
        _ => Some(defaults),
    }
}

/// One `tools[]` definition: `name` and `parameters` are required.
fn read_tool(tool: &Object<'_>) -> Option<ExternalToolSpec> {
    let name = text(tool, "name")?;
    Some(ExternalToolSpec {
        label: text(tool, "label").unwrap_or_else(|| name.clone()),
        description: text(tool, "description").unwrap_or_default(),
        parameters: tool.object("parameters")?.to_static(),
        name,
    })
}

/// `{"kind": "createAgent" | "newConversation" | "resumeAgent" | "resumeConversation" |
/// "agentFree" | "management", …}`.
fn read_target(o: &Object<'_>) -> Option<Target> {
    Some(match o.get("kind").as_str()? {
        "createAgent" => Target::CreateAgent {
            body: o.object("body").map(Object::to_static).unwrap_or_default(),
            pin_global: o.bool("pinGlobal").unwrap_or(true),
            memfs: o.bool("memfs") != Some(false),
        },
        "newConversation" => Target::NewConversation {
            agent_id: text(o, "agentId")?,
        },
        "resumeAgent" => Target::ResumeAgent {
            agent_id: text(o, "agentId")?,
        },
        "resumeConversation" => Target::ResumeConversation {
            conversation_id: text(o, "conversationId")?,
        },
        "agentFree" => Target::AgentFree {
            conversation_id: text(o, "conversationId"),
            disable_memory_guard: o.bool("disableMemoryGuard") == Some(true),
            body: o.object("body").map(|b| CreateConversationBody {
                model: text(b, "model"),
                system: text(b, "system"),
                parent_agent_id: text(b, "parent_agent_id"),
                name: text(b, "name"),
                is_subagent: b.bool("is_subagent"),
                model_settings: b.object("model_settings").map(Object::to_static),
                context_window_limit: positive_integer(b.get("context_window_limit"))
                    .ok()
                    .flatten(),
            }),
        },
        "management" => Target::Management,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
