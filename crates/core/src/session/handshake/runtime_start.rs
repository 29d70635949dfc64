//! The `runtime_start` command of the start sequence, built from what the session is started
//! for (its target and options) — or, on a reopen, from the runtime it reopens.

use super::super::core::{SessionConfig, Target};
use crate::protocol::commands::{
    CreateAgent, CreateConversation, ExecutionSettings, ExternalToolGroup, RuntimeStart,
};
use crate::protocol::runtime::Runtime;

/// The `runtime_start` for `config`: the options' fields, then the target's agent and
/// conversation (`reopening`: the same conversation again, with everything the first start
/// set; `resolved_agent`: the agent `conversation_retrieve` named for a resumed conversation).
pub(super) fn runtime_start(
    request_id: &str,
    config: &SessionConfig,
    reopening: Option<&Runtime>,
    resolved_agent: Option<&String>,
) -> RuntimeStart {
    let options = &config.options;
    let mut start = match &config.target {
        Target::Cloud { runtime } => {
            crate::cloud::start::runtime_start(request_id, options.mode, runtime)
        }
        _ => RuntimeStart::new(request_id.to_owned(), options.mode),
    };
    if let Target::AgentFree {
        disable_memory_guard: true,
        ..
    } = &config.target
    {
        start.execution_settings = Some(ExecutionSettings::without_memory_guard());
    }
    start.cwd = options.cwd.clone();
    start.stateless = options.stateless.then_some(true);
    start.skill_sources = options.skill_sources.clone();
    if !options.tools.is_empty() {
        start.external_tools = Some(vec![ExternalToolGroup {
            tools: options.tools.clone(),
        }]);
    }
    if let Some(runtime) = reopening {
        start.agent_id = runtime.agent_id.clone();
        start.conversation_id = Some(runtime.conversation_id.clone());
        return start;
    }
    match &config.target {
        Target::CreateAgent {
            body,
            pin_global,
            memfs,
        } => {
            start.create_agent = Some(CreateAgent {
                body: body.clone(),
                pin_global: *pin_global,
                memfs: (!memfs).then_some(false),
            });
            start.create_conversation = Some(CreateConversation::default());
        }
        Target::NewConversation { agent_id } => {
            start.agent_id = Some(agent_id.clone());
            start.create_conversation = Some(CreateConversation::default());
        }
        Target::ResumeAgent { agent_id } => {
            start.agent_id = Some(agent_id.clone());
            start.conversation_id = Some(String::from("default"));
        }
        Target::ResumeConversation { conversation_id } => {
            start.agent_id = resolved_agent.cloned();
            start.conversation_id = Some(conversation_id.clone());
        }
        Target::AgentFree {
            body,
            conversation_id,
            ..
        } => match conversation_id {
            Some(id) => start.conversation_id = Some(id.clone()),
            None => {
                start.create_conversation = Some(CreateConversation {
                    body: body.clone().unwrap_or_default(),
                })
            }
        },
        Target::Management => {}
        Target::Cloud { .. } => {}
    }
    start
}
