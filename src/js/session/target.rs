//! What a driver starts, from the wrapper's description: `{"kind": "createSession", "agentId"}`,
//! `{"kind": "resumeSession", "id"}`, `{"kind": "createAgent", "options"}` or
//! `{"kind": "management"}`.

use crate::json::{Object, Value};
use crate::protocol::commands::CreateConversationBody;
use crate::session::{SessionError, Target};
use std::borrow::Cow;

/// The target and the name of the call that created it (for error texts).
pub fn parse(
    json: &str,
    pin_global_agent: Option<bool>,
) -> Result<(Target, &'static str), SessionError> {
    let o = Object::parse(json).ok_or_else(|| SessionError::invalid("Invalid session target."))?;
    let id = |key: &str, action: &str| {
        o.str(key)
            .filter(|id| !id.trim().is_empty())
            .map(|id| id.into_owned())
            .ok_or_else(|| {
                SessionError::invalid(format!("{action}() requires a non-empty agent id."))
            })
    };
    match o.str("kind").as_deref() {
        Some("createSession") => Ok((
            Target::NewConversation {
                agent_id: id("agentId", "createSession")?,
            },
            "createSession",
        )),
        Some("resumeSession") => {
            let id = id("id", "resumeSession")?;
            // Spec §1.3: the prefix alone decides whether this is a conversation id.
            let target = if id.starts_with("conv-") || id.starts_with("local-conv-") {
                Target::ResumeConversation {
                    conversation_id: id,
                }
            } else {
                Target::ResumeAgent { agent_id: id }
            };
            Ok((target, "resumeSession"))
        }
        Some("createAgent") => {
            let none = Object::new();
            let options = o.object("options").unwrap_or(&none);
            create_agent(options, pin_global_agent).map(|t| (t, "createAgent"))
        }
        Some("query") => Ok((agent_free(&o)?, "query")),
        Some("management") => Ok((Target::Management, "management")),
        _ => Err(SessionError::invalid("Invalid session target.")),
    }
}

/// `createAgent(options)`: the `create_agent.body` sent with `runtime_start`.
fn create_agent(
    options: &Object<'_>,
    pin_global_agent: Option<bool>,
) -> Result<Target, SessionError> {
    if !options.get("environment").is_nullish() {
        return Err(SessionError::invalid(
            "createAgent() does not accept environment. Set a client default or pass environment to resumeSession()/createSession().",
        ));
    }
    let mut body = Object::new();
    let text = |s: &str| Value::String(Cow::Owned(s.to_owned()));
    for key in ["name", "description", "model", "embedding"] {
        match options.get(key) {
            Value::Absent | Value::Null => {}
            Value::String(value) if !value.trim().is_empty() => {
                body.push(key, text(value));
            }
            _ => {
                return Err(SessionError::invalid(format!(
                    "Invalid createAgent() {key}. Expected a non-empty string."
                )))
            }
        }
    }
    match options.get("systemPrompt") {
        Value::Absent | Value::Null => {}
        Value::String(system) => {
            body.push("system", text(system));
        }
        _ => {
            return Err(SessionError::unsupported(
                "createAgent() does not yet support system prompt presets for this backend",
            ))
        }
    }
    if options.has("tags") {
        let tags = options.get("tags");
        let valid = tags
            .as_array()
            .is_some_and(|t| t.iter().all(|tag| tag.as_str().is_some()));
        if !valid {
            return Err(SessionError::invalid(
                "Invalid createAgent() tags. Expected an array of strings.",
            ));
        }
        body.push("tags", tags.to_static());
    }
    let hidden = options.bool("hidden");
    if let Some(hidden) = hidden {
        body.push("hidden", Value::Bool(hidden));
    }
    Ok(Target::CreateAgent {
        body,
        pin_global: pin_global_agent.unwrap_or(hidden != Some(true)),
        memfs: options.bool("memfs") != Some(false),
    })
}

/// `query()`: `{"kind": "query", "conversationId"?, "body": {model, system, …}}` (wire names).
fn agent_free(o: &Object<'_>) -> Result<Target, SessionError> {
    if let Some(id) = o.str("conversationId").filter(|id| !id.trim().is_empty()) {
        return Ok(Target::AgentFree {
            body: None,
            conversation_id: Some(id.into_owned()),
        });
    }
    let none = Object::new();
    let body = o.object("body").unwrap_or(&none);
    let text = |key: &str| body.str(key).map(|v| v.into_owned());
    let model = text("model").filter(|m| !m.trim().is_empty());
    let model =
        model.ok_or_else(|| SessionError::invalid("query() requires a non-empty model."))?;
    let system =
        text("system").ok_or_else(|| SessionError::invalid("query() requires a system prompt."))?;
    Ok(Target::AgentFree {
        body: Some(CreateConversationBody {
            model: Some(model),
            system: Some(system),
            parent_agent_id: text("parent_agent_id"),
            name: text("name"),
            is_subagent: body.bool("is_subagent"),
            model_settings: body.object("model_settings").map(Object::to_static),
            context_window_limit: body
                .f64("context_window_limit")
                .filter(|n| *n >= 1.0 && n.fract() == 0.0)
                .map(|n| n as u64),
        }),
        conversation_id: None,
    })
}
