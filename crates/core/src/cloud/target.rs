//! Where a Cloud session runs (spec §1.3 `assertSessionBackend`, §4.7): an explicit computer or
//! an SDK-managed sandbox, from the client default and the session's own options.

use super::config::DefaultTarget;
use super::error::{CloudError, CloudResult};
use super::sandbox_options::SandboxOptions;
use super::selector::ComputerSelector;
use crate::json::Value;

/// The execution target of one session.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionTarget {
    /// Attach to this computer's connection.
    Computer(ComputerSelector),
    /// Create (or resume) a managed sandbox with these options.
    ManagedSandbox(SandboxOptions),
}

/// Decides the target of `<action>()` (e.g. `createSession`, `query`) from the client default
/// and the JSON view of the session options. `agent_free` is `query()`, which needs a computer.
pub fn session_target(
    client: &DefaultTarget,
    session: &Value<'_>,
    action: &str,
    agent_free: bool,
) -> CloudResult<SessionTarget> {
    let get = |key: &str| {
        session
            .as_object()
            .map(|o| o.get(key))
            .filter(|v| !v.is_nullish())
    };
    let (computer, environment, sandbox) = (get("computer"), get("environment"), get("sandbox"));
    if computer.is_some() && environment.is_some() {
        return Err(CloudError::invalid(format!(
            "{action}() cannot specify both computer and deprecated environment."
        )));
    }
    let own = computer
        .map(|v| ("computer", v))
        .or(environment.map(|v| ("environment", v)));
    let target = match (own, sandbox, client) {
        (Some((option, _)), Some(_), _) => {
            return Err(CloudError::invalid(format!(
                "Letta Cloud {action}() cannot specify both {option} and sandbox options."
            )))
        }
        (None, Some(_), DefaultTarget::Computer { option, .. }) => {
            return Err(CloudError::invalid(format!(
                "Letta Cloud {action}() cannot specify sandbox options when the client has a \
                 default {option}."
            )))
        }
        (Some((option, _)), None, DefaultTarget::Sandbox(_)) => {
            return Err(CloudError::invalid(format!(
                "Letta Cloud {action}() cannot specify {option} when the client has default \
                 sandbox options."
            )))
        }
        (Some((_, value)), None, _) => SessionTarget::Computer(ComputerSelector::from_json(value)?),
        (None, Some(value), _) => SessionTarget::ManagedSandbox(SandboxOptions::from_json(value)?),
        (None, None, DefaultTarget::Computer { selector, .. }) => {
            SessionTarget::Computer(selector.clone())
        }
        (None, None, DefaultTarget::Sandbox(options)) => {
            SessionTarget::ManagedSandbox(options.clone())
        }
        (None, None, DefaultTarget::None) => {
            SessionTarget::ManagedSandbox(SandboxOptions::default())
        }
    };
    if agent_free && matches!(target, SessionTarget::ManagedSandbox(_)) {
        return Err(CloudError::invalid(
            "Cloud query() requires an explicit computer; managed sandboxes are agent-scoped.",
        ));
    }
    Ok(target)
}
