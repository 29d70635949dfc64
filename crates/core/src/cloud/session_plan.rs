//! What one Cloud session will do, read from the wrapper's session config (spec §4.3–§4.5):
//! which conversation it runs in, the repositories it attaches, and where it runs (an explicit
//! computer or a managed sandbox, [`session_target`]).
//!
//! Reading the plan is where a session's Cloud options are checked, so it is pure: the
//! transport's connector starts from it, and the browser's small build checks a session's
//! options with it synchronously before the Cloud module is fetched (`src/js/cloud_check.rs`).

use super::config::CloudConfig;
use super::error::{CloudError, CloudResult};
use super::rest::EphemeralConversationBody;
use super::start::{Conversation, RepositoryResource};
use super::target::{session_target, SessionTarget};
use crate::json::{Object, Value};

/// Which conversation the session runs in, as the wrapper's session target says.
#[derive(Debug, Clone, PartialEq)]
pub enum ConversationPlan {
    /// `createSession` / `resumeSession(agentId)`: through the runtime resolver.
    Agent {
        /// The agent.
        agent_id: String,
        /// A new conversation, or the agent's default one.
        conversation: Conversation,
    },
    /// `resumeSession(conversationId)`: its agent is read first.
    Conversation(String),
    /// `query()` resuming an agent-free conversation.
    AgentFreeExisting(String),
    /// `query()` creating one (`POST /v1/conversations/ephemeral`).
    AgentFreeNew(EphemeralConversationBody),
}

/// A Cloud session's checked plan.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionPlan {
    /// The conversation.
    pub conversation: ConversationPlan,
    /// `resources`: repositories attached for the session and detached at close.
    pub resources: Vec<RepositoryResource>,
    /// Where it runs.
    pub target: SessionTarget,
}

fn text(value: &Object<'_>, key: &str) -> Option<String> {
    value.get(key).as_str().map(str::to_owned)
}

impl SessionPlan {
    /// Reads the wrapper's session config (`{target, cloud: {action, computer?, environment?,
    /// sandbox?, resources?}}`, JSON) against the client's `config`; the errors are the typed
    /// validation errors of the session's options.
    pub fn parse(config: &CloudConfig, session: &str) -> CloudResult<SessionPlan> {
        read_config(session, |target, cloud| {
            let conversation = conversation_plan(target)?;
            let (target, resources) = placement(config, target, cloud)?;
            Ok(SessionPlan {
                conversation,
                resources,
                target,
            })
        })
    }

    /// Checks what the caller chose in the session's options (`computer`, `environment`,
    /// `sandbox`, `resources`), as [`SessionPlan::parse`] does, without reading the rest: the
    /// check of a session made before the Cloud build is loaded (browsers; reading only the
    /// options keeps that build 0.5 KB smaller, bench/RESULTS.md).
    pub fn check_options(config: &CloudConfig, session: &str) -> CloudResult<()> {
        read_config(session, |target, cloud| {
            placement(config, target, cloud).map(drop)
        })
    }
}

/// The text of a session config that is not one (the wrapper builds it, so no caller sees it).
const INVALID_CONFIG: &str = "Invalid session configuration.";

/// Parses the session config and hands its `target` object and `cloud` value to `read`.
fn read_config<T>(
    session: &str,
    read: impl FnOnce(&Object<'_>, &Value<'_>) -> CloudResult<T>,
) -> CloudResult<T> {
    let invalid = || CloudError::invalid(INVALID_CONFIG);
    let session = Object::parse(session).ok_or_else(invalid)?;
    let target = session.object("target").ok_or_else(invalid)?;
    read(target, session.get("cloud"))
}

/// The conversation the session's `target` names.
fn conversation_plan(target: &Object<'_>) -> CloudResult<ConversationPlan> {
    let invalid = || CloudError::invalid(INVALID_CONFIG);
    let agent = || text(target, "agentId").ok_or_else(invalid);
    Ok(match target.get("kind").as_str() {
        Some("newConversation") => ConversationPlan::Agent {
            agent_id: agent()?,
            conversation: Conversation::New,
        },
        Some("resumeAgent") => ConversationPlan::Agent {
            agent_id: agent()?,
            conversation: Conversation::Default,
        },
        Some("resumeConversation") => {
            ConversationPlan::Conversation(text(target, "conversationId").ok_or_else(invalid)?)
        }
        Some("agentFree") => match (text(target, "conversationId"), target.object("body")) {
            (Some(id), _) => ConversationPlan::AgentFreeExisting(id),
            (None, Some(body)) => ConversationPlan::AgentFreeNew(ephemeral_body(body)),
            (None, None) => return Err(invalid()),
        },
        _ => {
            return Err(CloudError::invalid(
                "This session kind is not available with backend: \"cloud\".",
            ))
        }
    })
}

/// Where the session runs and what it attaches, from its `cloud` options (`action` names the
/// call in error texts; an agent-free `query()` needs a computer).
fn placement(
    config: &CloudConfig,
    target: &Object<'_>,
    cloud: &Value<'_>,
) -> CloudResult<(SessionTarget, Vec<RepositoryResource>)> {
    let no_options = Object::new();
    let cloud_options = cloud.as_object().unwrap_or(&no_options);
    let action = text(cloud_options, "action").unwrap_or_else(|| "createSession".to_owned());
    let agent_free = target.get("kind").as_str() == Some("agentFree");
    let target = session_target(&config.default_target, cloud, &action, agent_free)?;
    let resources = read_resources(cloud_options.get("resources"))?;
    Ok((target, resources))
}

/// The body of `POST /v1/conversations/ephemeral` from the wrapper's `query()` target.
fn ephemeral_body(body: &Object<'_>) -> EphemeralConversationBody {
    EphemeralConversationBody {
        model: text(body, "model").unwrap_or_default(),
        system: text(body, "system").unwrap_or_default(),
        model_settings: body
            .get("model_settings")
            .as_object()
            .map(|o| Value::Object(o.to_static())),
        context_window_limit: body
            .f64("context_window_limit")
            .filter(|n| *n >= 0.0 && n.fract() == 0.0)
            .map(|n| n as u64),
    }
}

/// `resources`: `[{type: "repository", repositoryId, recompile?}]`.
fn read_resources(value: &Value<'_>) -> CloudResult<Vec<RepositoryResource>> {
    if value.is_nullish() {
        return Ok(Vec::new());
    }
    let invalid = |i: usize| {
        CloudError::invalid(format!(
            "Invalid resources[{i}]. Expected {{type: \"repository\", repositoryId}}."
        ))
    };
    let list = value
        .as_array()
        .ok_or_else(|| CloudError::invalid("Invalid resources. Expected an array."))?;
    list.iter()
        .enumerate()
        .map(|(i, r)| {
            let r = r.as_object().ok_or_else(|| invalid(i))?;
            let id = r
                .get("repositoryId")
                .as_str()
                .filter(|id| !id.trim().is_empty() && r.get("type").as_str() == Some("repository"))
                .ok_or_else(|| invalid(i))?;
            Ok(RepositoryResource {
                repository_id: id.to_owned(),
                recompile: r.bool("recompile") != Some(false),
            })
        })
        .collect()
}

#[cfg(test)]
#[path = "tests_session_plan.rs"]
mod tests;
