//! The start sequence (spec §3.4): `conversation_retrieve` (resuming a conversation id), then
//! `runtime_start`, then — in order, each only when asked for — `enable_memfs`,
//! `set_reflection_settings` and `update_model`. Only then is the session initialized.

use super::coordinator::{CoordinatorConfig, TurnCoordinator};
use super::core::{Phase, SessionCore, Target};
use super::error::SessionError;
use super::options::text;
use super::requests::Purpose;
use super::responses::{check_success, response_error};
use crate::json::{Object, Value};
use crate::protocol::commands::{
    AgentRef, Command, ConversationRef, CreateAgent, CreateConversation, ExecutionSettings,
    ExternalToolGroup, ModelPayload, ReflectionSettings, RuntimeStart, SetReflectionSettings,
    UpdateModel,
};
use crate::protocol::frames::ParsedFrame;
use crate::protocol::runtime::Runtime;
use serde::Serialize;

pub(super) use sequence::StartSequence;

/// `enable_memfs` can take a while (it initializes a git repository).
const ENABLE_MEMFS_TIMEOUT_MS: u64 = 180_000;

impl SessionCore {
    /// First step once the socket is open.
    pub(super) fn start(&mut self, now: u64) {
        if self.connections.recovering().is_some() {
            // A reopen: the runtime is known, so there is nothing to look up.
            return self.send_runtime_start(now);
        }
        match &self.config.target {
            Target::Management => self.finish_start(),
            Target::ResumeConversation { conversation_id } => {
                let request_id = self.ids.next("conversation-retrieve");
                let command = Command::ConversationRetrieve(ConversationRef {
                    request_id: request_id.clone(),
                    conversation_id: conversation_id.clone(),
                });
                self.startup.enter(Phase::Retrieving);
                self.request(&command, request_id, Purpose::Handshake, None, now);
            }
            _ => self.send_runtime_start(now),
        }
    }

    fn send_runtime_start(&mut self, now: u64) {
        let request_id = self.ids.next("runtime-start");
        let options = &self.config.options;
        let mut start = match &self.config.target {
            Target::Cloud { runtime } => {
                crate::cloud::start::runtime_start(&request_id, options.mode, runtime)
            }
            _ => RuntimeStart::new(request_id.clone(), options.mode),
        };
        if let Target::AgentFree {
            disable_memory_guard: true,
            ..
        } = &self.config.target
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
        let reopening = self
            .connections
            .recovering()
            .filter(|_| self.is_remote_target());
        if let Some(runtime) = reopening {
            // The same conversation again, with everything the first start set.
            start.agent_id = runtime.agent_id.clone();
            start.conversation_id = Some(runtime.conversation_id.clone());
            self.startup.enter(Phase::Starting);
            let command = Command::RuntimeStart(start);
            return self.request(&command, request_id, Purpose::Handshake, None, now);
        }
        match &self.config.target {
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
                start.agent_id = self.startup.resolved_agent().cloned();
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
        self.startup.enter(Phase::Starting);
        self.request(
            &Command::RuntimeStart(start),
            request_id,
            Purpose::Handshake,
            None,
            now,
        );
    }

    /// A response to the current start step.
    pub(super) fn on_start_response(&mut self, frame: &ParsedFrame<'_>, now: u64) {
        let Some(response) = Object::parse(frame.raw) else {
            return self.fail_start(SessionError::request_failed(
                "Invalid response from runtime",
            ));
        };
        let result = match self.startup.phase() {
            Phase::Retrieving => self.on_retrieved(&response, now),
            Phase::Starting => self.on_started(&response, now),
            Phase::EnablingMemfs => {
                check_success(&response, "Failed to enable memfs").map(|()| self.after_memfs(now))
            }
            Phase::Reflecting => check_success(&response, "Failed to set reflection settings")
                .map(|()| self.after_reflection(now)),
            Phase::UpdatingModel => check_success(&response, "Failed to update model").map(|()| {
                if let Some(handle) = response.get("model_handle").non_empty_str() {
                    self.model = handle.to_owned();
                }
                self.finish_start();
            }),
            _ => Ok(()),
        };
        if let Err(error) = result {
            self.fail_start(error);
        }
    }

    fn on_retrieved(&mut self, response: &Object<'_>, now: u64) -> Result<(), SessionError> {
        let agent = match response.bool("success") {
            Some(true) => response
                .object("conversation")
                .and_then(|c| c.get("agent_id").as_str()),
            _ => None,
        };
        let Some(agent) = agent else {
            let conversation_id = match &self.config.target {
                Target::ResumeConversation { conversation_id } => conversation_id.as_str(),
                _ => "",
            };
            let fallback = "Failed to retrieve conversation ".to_owned() + conversation_id;
            return Err(response_error(response, &fallback));
        };
        self.startup.resolve_agent(agent.to_owned());
        self.send_runtime_start(now);
        Ok(())
    }

    fn on_started(&mut self, response: &Object<'_>, now: u64) -> Result<(), SessionError> {
        let runtime = match response.bool("success") {
            Some(true) => response.object("runtime").and_then(|r| {
                Some(Runtime {
                    conversation_id: text(r, "conversation_id")?,
                    agent_id: text(r, "agent_id"),
                })
            }),
            _ => None,
        };
        let Some(runtime) = runtime else {
            return Err(response_error(
                response,
                "Failed to start app-server runtime",
            ));
        };
        let agent = response.object("agent");
        let conversation = response.object("conversation");
        let model = agent
            .and_then(model_of)
            .or_else(|| conversation.and_then(model_of));
        self.model = model.unwrap_or_default().to_owned();
        let mut tools = Vec::new();
        for tool in agent.and_then(|a| a.array("tools")).unwrap_or_default() {
            let name = match tool {
                Value::String(name) => Some(name.as_ref()),
                Value::Object(tool) => tool.get("name").as_str(),
                _ => None,
            };
            if let Some(name) = name {
                tools.push(name.to_owned());
            }
        }
        for tool in &self.config.options.tools {
            tools.push(tool.name.clone());
        }
        self.tools = tools;
        if let Some(outcome) = self.cloud_started(&runtime) {
            return outcome;
        }
        if let Some(outcome) = self.remote_reopened(&runtime) {
            return outcome;
        }
        let options = &self.config.options;
        let coordinator = CoordinatorConfig {
            label: self.config.label.to_owned(),
            request_timeout_ms: self.config.request_timeout_ms,
            auto_handles_tool_approvals: options.has_can_use_tool
                || !options.auto_allowed_tools.is_empty()
                || options.mode == "unrestricted",
        };
        self.coordinator = Some(TurnCoordinator::new(coordinator, runtime.clone()));
        self.startup.started_on(runtime);
        match &self.config.target {
            Target::CreateAgent { memfs: true, .. } => {
                let agent_id = self
                    .runtime()
                    .and_then(|r| r.agent_id.clone())
                    .unwrap_or_default();
                let request_id = self.ids.next("enable-memfs");
                let command = Command::EnableMemfs(AgentRef {
                    request_id: request_id.clone(),
                    agent_id,
                });
                self.startup.enter(Phase::EnablingMemfs);
                self.request(
                    &command,
                    request_id,
                    Purpose::Handshake,
                    Some(ENABLE_MEMFS_TIMEOUT_MS),
                    now,
                );
            }
            _ => self.after_memfs(now),
        }
        Ok(())
    }

    fn after_memfs(&mut self, now: u64) {
        let options = &self.config.options;
        match (&options.dreaming, options.stateless, self.startup.runtime()) {
            (Some(dreaming), false, Some(runtime)) => {
                let request_id = self.ids.next("set-reflection-settings");
                let command = Command::SetReflectionSettings(SetReflectionSettings {
                    request_id: request_id.clone(),
                    runtime: runtime.clone(),
                    settings: ReflectionSettings {
                        trigger: dreaming.trigger.clone(),
                        step_count: dreaming.step_count,
                    },
                    scope: "both",
                });
                self.startup.enter(Phase::Reflecting);
                self.request(&command, request_id, Purpose::Handshake, None, now);
            }
            _ => self.after_reflection(now),
        }
    }

    fn after_reflection(&mut self, now: u64) {
        let options = &self.config.options;
        let wants_model = options.model.is_some() || options.reasoning_effort.is_some();
        match (wants_model, self.startup.runtime()) {
            (true, Some(runtime)) => {
                let request_id = self.ids.next("update-model");
                let mut payload = options
                    .model
                    .as_deref()
                    .map(ModelPayload::from_model)
                    .unwrap_or_default();
                payload.reasoning_effort = options.reasoning_effort.clone();
                let command = Command::UpdateModel(UpdateModel {
                    request_id: request_id.clone(),
                    runtime: runtime.clone(),
                    payload,
                });
                self.startup.enter(Phase::UpdatingModel);
                self.request(&command, request_id, Purpose::Handshake, None, now);
            }
            _ => self.finish_start(),
        }
    }

    pub(super) fn finish_start(&mut self) {
        self.startup.finish();
        self.connections_ready();
        let info = self.init_info();
        self.settle_init(Ok(info));
        self.open_standby_if_wanted();
    }

    /// Whether the session runs on an app server's own socket (not Cloud's status sockets).
    pub(super) fn is_remote_target(&self) -> bool {
        if matches!(self.config.target, Target::Cloud { .. }) {
            return false;
        }
        true
    }

    /// The start failed: settle `initialize()` with the error and drop the connection.
    pub(super) fn fail_start(&mut self, error: SessionError) {
        if !self.startup.fail() {
            return;
        }
        self.settle_init(Err(error));
        self.emit(super::core::Effect::CloseTransport);
    }

    /// `SDKInitMessage`-like identity: `{type:"init", agentId, sessionId, conversationId, model,
    /// tools?, skillSources?}`.
    pub fn init_info(&self) -> String {
        let (agent, conversation) = match self.runtime() {
            Some(r) => (r.agent_id.as_deref(), r.conversation_id.as_str()),
            None => (None, ""),
        };
        let session_id = match agent {
            Some(a) => a.to_owned() + ":" + conversation,
            None => conversation.to_owned(),
        };
        crate::json::to_string(&InitInfo {
            message_type: "init",
            agent_id: agent,
            session_id: &session_id,
            conversation_id: conversation,
            model: &self.model,
            tools: &self.tools,
            skill_sources: self.config.options.skill_sources.as_deref(),
        })
    }
}

/// What [`super::core::SessionCore::init_info`] returns; `tools` omitted when empty.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitInfo<'s> {
    #[serde(rename = "type")]
    message_type: &'static str,
    /// `null` for agent-free sessions.
    agent_id: Option<&'s str>,
    session_id: &'s str,
    conversation_id: &'s str,
    model: &'s str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    tools: &'s [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    skill_sources: Option<&'s [String]>,
}

/// A non-empty `model` of the started agent or conversation.
fn model_of<'o>(o: &'o Object<'_>) -> Option<&'o str> {
    o.get("model").non_empty_str()
}

mod sequence;
