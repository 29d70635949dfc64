//! The Cloud binding: [`CloudClient`], one per `LettaAgentClient` with
//! `backend: "cloud"`. It holds the validated options and the `fetch` to use, and has one method
//! per management operation (spec §4.2): each builds its request with `crate::cloud`, performs
//! it through [`Fetch`] and resolves with the parsed result. Cloud sessions are made from it
//! too (`src/js/cloud_session.rs`).
//!
//! Options, bodies and queries cross as JSON text (the wrapper's one `JSON.stringify`), results
//! as JSON text (its one `JSON.parse`), not through serde-wasm-bindgen, for the browser build's
//! size (`src/js/session.rs`). A value of the wrong shape is a typed `LettaInvalidArgumentError`,
//! never a panic. The wrapper
//! (`pkg-template/lib/cloud.js`) maps the public camelCase options of the shared facades to the
//! wire names.

use super::error::cloud_error;
use crate::cloud::config::{CloudConfig, CloudEnv};
use crate::cloud::error::{CloudError, CloudResult};
use crate::cloud::http::{HttpRequest, HttpResponse, RequestBuilder};
use crate::cloud::rest::RepositoryPermissions;
use crate::cloud::selector::{self, ComputerSelector, Resolution};
use crate::cloud::{computers, decisions, management, messages, models, rest};
use crate::json::{self, Value};
use crate::transport::fetch::Fetch;
use js_sys::{Function, Promise};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// A JSON argument of the wrapper (`what` names it in the typed error of invalid text).
fn parsed<'t>(text: &'t str, what: &str) -> CloudResult<Value<'t>> {
    json::parse(text).ok_or_else(|| CloudError::invalid(format!("Invalid {what}.")))
}

/// A call in flight, resolving with a JS value.
type CallFuture = Pin<Box<dyn Future<Output = CloudResult<JsValue>>>>;

/// A Promise of `call`: its value, or the typed error.
fn settle(call: CallFuture) -> Promise {
    future_to_promise(async move { call.await.map_err(|e| cloud_error(&e)) })
}

/// A response parser that hands back the result as JSON text.
type ParseToText = dyn FnOnce(HttpResponse<'_>) -> CloudResult<String>;

/// What a client's calls and sessions share.
pub(crate) struct CloudContext {
    /// The validated client options.
    pub config: CloudConfig,
    /// The `fetch` of this client.
    pub fetch: Fetch,
}

impl CloudContext {
    /// Requests against this client's base URL, with its headers and key.
    pub fn request_builder(&self) -> RequestBuilder {
        RequestBuilder::new(&self.config)
    }

    /// Performs `request` and parses the response.
    pub async fn call<T>(
        &self,
        request: &HttpRequest,
        parse: impl FnOnce(HttpResponse<'_>) -> CloudResult<T>,
    ) -> CloudResult<T> {
        let response = self.fetch.send(request, None).await?;
        parse(response.as_http())
    }
}

/// A Letta Cloud client: options, `fetch`, and the management calls.
#[wasm_bindgen]
pub struct CloudClient {
    context: Rc<CloudContext>,
}

#[wasm_bindgen]
impl CloudClient {
    /// `options_json`: the client options as `lib/options.js` checked them (JSON; functions and
    /// the WebSocket constructor left out); `letta_api_key` / `letta_cloud_api_key`: the
    /// environment's keys (Node), the fallback when neither `apiKey` nor an `Authorization`
    /// header is given; `fetch`: the `fetch` option, else the platform's. Throws the typed
    /// validation error.
    #[wasm_bindgen(constructor)]
    pub fn new(
        options_json: &str,
        letta_api_key: Option<String>,
        letta_cloud_api_key: Option<String>,
        fetch: Option<Function>,
    ) -> Result<CloudClient, JsValue> {
        let env = CloudEnv {
            letta_api_key,
            letta_cloud_api_key,
        };
        let config = CloudConfig::from_json(options_json, &env).map_err(|e| cloud_error(&e))?;
        let fetch = Fetch::new(fetch.filter(|f| f.is_function())).map_err(|e| cloud_error(&e))?;
        Ok(CloudClient {
            context: Rc::new(CloudContext { config, fetch }),
        })
    }

    /// `createAgent(options)` (JSON, as `lib/agent-creation.js` built it): resolves with the
    /// new agent's id.
    #[wasm_bindgen(js_name = createAgent)]
    pub fn create_agent(&self, options_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let options = parsed(options_json, "createAgent() options")?;
                let options = options.as_object().cloned().unwrap_or_default();
                Ok(rest::create_agent(rb, &rest::create_agent_body(&options)?))
            },
            rest::parse_created_agent,
        )
    }

    /// `alpha.decisions.evaluate()`: sends the body `lib/decisions.js` built once, aborted by
    /// `signal`; resolves with the response's text for it to check.
    #[wasm_bindgen(js_name = decisionsEvaluate)]
    pub fn decisions_evaluate(&self, body_json: String, signal: JsValue) -> Promise {
        let context = self.context.clone();
        settle(Box::pin(async move {
            let request = decisions::evaluate_request(&context.request_builder(), body_json);
            let response = context.fetch.send_once(&request, &signal).await?;
            Ok(JsValue::from_str(response.as_http().ok()?))
        }))
    }

    /// `agents.list(query)` (wire-named query, JSON).
    #[wasm_bindgen(js_name = agentsList)]
    pub fn agents_list(&self, query_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let query = parsed(query_json, "agents.list() options")?;
                Ok(management::list_agents(rb, &query))
            },
            management::parse_json,
        )
    }

    /// `agents.retrieve(id)`.
    #[wasm_bindgen(js_name = agentsRetrieve)]
    pub fn agents_retrieve(&self, agent_id: &str) -> Promise {
        self.request_call(
            |rb| management::retrieve_agent(rb, agent_id),
            management::parse_json,
        )
    }

    /// `agents.update(id, body)` (wire-named body).
    #[wasm_bindgen(js_name = agentsUpdate)]
    pub fn agents_update(&self, agent_id: &str, body_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let body = parsed(body_json, "agents.update() body")?;
                Ok(management::update_agent(rb, agent_id, &body))
            },
            management::parse_json,
        )
    }

    /// `agents.delete(id)`.
    #[wasm_bindgen(js_name = agentsDelete)]
    pub fn agents_delete(&self, agent_id: &str) -> Promise {
        self.request_call(
            |rb| management::delete_agent(rb, agent_id),
            management::parse_json,
        )
    }

    /// `conversations.list(query)` (wire-named query).
    #[wasm_bindgen(js_name = conversationsList)]
    pub fn conversations_list(&self, query_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let query = parsed(query_json, "conversations.list() options")?;
                Ok(management::list_conversations(rb, &query))
            },
            management::parse_json,
        )
    }

    /// `conversations.retrieve(id)`.
    #[wasm_bindgen(js_name = conversationsRetrieve)]
    pub fn conversations_retrieve(&self, conversation_id: &str) -> Promise {
        self.request_call(
            |rb| management::retrieve_conversation(rb, conversation_id),
            management::parse_json,
        )
    }

    /// `conversations.create(body)` (wire-named body with `agent_id`).
    #[wasm_bindgen(js_name = conversationsCreate)]
    pub fn conversations_create(&self, body_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let body = parsed(body_json, "conversations.create() body")?;
                Ok(management::create_conversation(rb, &body))
            },
            management::parse_json,
        )
    }

    /// `conversations.update(id, body)` (wire-named body).
    #[wasm_bindgen(js_name = conversationsUpdate)]
    pub fn conversations_update(&self, conversation_id: &str, body_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let body = parsed(body_json, "conversations.update() body")?;
                Ok(management::update_conversation(rb, conversation_id, &body))
            },
            management::parse_json,
        )
    }

    /// `conversations.fork(id, {messageId?, hidden?})`: resolves with the fork's id (the
    /// wrapper retrieves it, so that a failed read is a `ConversationForkHydrationError`).
    #[wasm_bindgen(js_name = conversationsFork)]
    pub fn conversations_fork(
        &self,
        conversation_id: &str,
        message_id: Option<String>,
        hidden: Option<bool>,
    ) -> Promise {
        self.request_call(
            |rb| management::fork_conversation(rb, conversation_id, message_id.as_deref(), hidden),
            management::parse_fork,
        )
    }

    /// `conversations.listMessages(id, {before?, after?, order?, limit?})`: `{messages}`, the
    /// cursors swapped for descending order.
    #[wasm_bindgen(js_name = conversationsListMessages)]
    pub fn conversations_list_messages(
        &self,
        conversation_id: &str,
        options_json: &str,
    ) -> Promise {
        self.text_call(
            |rb| {
                let options = messages::ListMessagesOptions::from_json(options_json)?;
                Ok(messages::list_request(rb, conversation_id, &options))
            },
            messages::parse_list,
        )
    }

    /// `models.list()`: `{entries, availableHandles}`, normalized.
    #[wasm_bindgen(js_name = modelsList)]
    pub fn models_list(&self) -> Promise {
        self.text_call(|rb| Ok(models::list_request(rb)), models::parse_list_json)
    }

    /// `computers.list({limit?, after?, onlineOnly?})` (JSON).
    #[wasm_bindgen(js_name = computersList)]
    pub fn computers_list(&self, options_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let options = computers::ListComputersOptions::from_json(options_json)?;
                Ok(computers::list_request(rb, &options))
            },
            |r| computers::parse_computer_list(r).map(|list| json::to_string(&list)),
        )
    }

    /// `computers.get(deviceId)`.
    #[wasm_bindgen(js_name = computersGet)]
    pub fn computers_get(&self, device_id: &str) -> Promise {
        self.text_call(
            |rb| Ok(computers::get_request(rb, device_id)),
            |response| {
                let computer = computers::Computer::from(computers::parse_record(response)?);
                Ok(json::to_string(&computer))
            },
        )
    }

    /// `computers.resolve(selector)` (JSON): `{connectionId, computer?}` (no call for
    /// `{connectionId}`).
    #[wasm_bindgen(js_name = computersResolve)]
    pub fn computers_resolve(&self, selector_json: &str) -> Promise {
        let selector = parsed(selector_json, "computer selector")
            .and_then(|s| ComputerSelector::from_json(&s));
        let context = self.context.clone();
        settle(Box::pin(async move {
            let selector = selector?;
            let resolved = match selector::resolve(&context.request_builder(), &selector) {
                Resolution::Done(resolved) => resolved,
                Resolution::Fetch(request) => {
                    context
                        .call(&request, |r| selector::resolve_response(&selector, r))
                        .await?
                }
            };
            Ok(JsValue::from_str(&json::to_string(&resolved)))
        }))
    }

    /// `agents.repositories.list(agentId)`.
    #[wasm_bindgen(js_name = agentRepositoriesList)]
    pub fn agent_repositories_list(&self, agent_id: &str) -> Promise {
        self.text_call(
            |rb| Ok(rest::list_agent_repositories(rb, agent_id)),
            |r| rest::parse_agent_repositories(r).map(|list| json::to_string(&list)),
        )
    }

    /// `agents.repositories.attach(agentId, repositoryId, {permissions?, recompile?})`: attaches,
    /// then recompiles the agent's prompt unless `recompile` is false.
    #[wasm_bindgen(js_name = agentRepositoriesAttach)]
    pub fn agent_repositories_attach(
        &self,
        agent_id: &str,
        repository_id: &str,
        permissions: Option<String>,
        recompile: bool,
    ) -> Promise {
        let permissions = match permissions.as_deref() {
            None => Ok(None),
            Some(name) => RepositoryPermissions::from_name(name)
                .map(Some)
                .ok_or_else(|| {
                    CloudError::invalid("Invalid agents.repositories.attach() permissions.")
                }),
        };
        let rb = self.context.request_builder();
        let request =
            permissions.map(|p| rest::attach_agent_repository(&rb, agent_id, repository_id, p));
        let recompile = recompile.then(|| rest::recompile(&rb, agent_id, "default"));
        let context = self.context.clone();
        settle(Box::pin(async move {
            let attached = context
                .call(&request?, rest::parse_attached_repository)
                .await?;
            if let Some(recompile) = recompile {
                context.call(&recompile, |r| r.ok().map(|_| ())).await?;
            }
            Ok(JsValue::from_str(&json::to_string(&attached)))
        }))
    }

    /// `agents.repositories.detach(agentId, repositoryId, {recompile?})`.
    #[wasm_bindgen(js_name = agentRepositoriesDetach)]
    pub fn agent_repositories_detach(
        &self,
        agent_id: &str,
        repository_id: &str,
        recompile: bool,
    ) -> Promise {
        let rb = self.context.request_builder();
        let request = rest::detach_agent_repository(&rb, agent_id, repository_id);
        let recompile = recompile.then(|| rest::recompile(&rb, agent_id, "default"));
        let context = self.context.clone();
        settle(Box::pin(async move {
            context.call(&request, |r| r.ok().map(|_| ())).await?;
            if let Some(recompile) = recompile {
                context.call(&recompile, |r| r.ok().map(|_| ())).await?;
            }
            Ok(JsValue::UNDEFINED)
        }))
    }
}

impl CloudClient {
    /// The options, `fetch` and request builder the client's sessions share.
    pub(crate) fn context(&self) -> Rc<CloudContext> {
        self.context.clone()
    }

    /// [`Self::text_call`] of a request that always builds.
    pub(super) fn request_call(
        &self,
        build: impl FnOnce(&RequestBuilder) -> HttpRequest,
        parse: impl FnOnce(HttpResponse<'_>) -> CloudResult<String> + 'static,
    ) -> Promise {
        self.text_call(|rb| Ok(build(rb)), parse)
    }

    /// Builds a request now (argument errors reject the Promise), performs it, and resolves
    /// with the parsed result as text: JSON for the wrapper to parse once, or an id. Only
    /// `parse` is generic: the request and the Promise share one future type for every method
    /// (one future per method measured 1.4–2.4 KB of wasm each, about 40 KB in all).
    pub(super) fn text_call(
        &self,
        build: impl FnOnce(&RequestBuilder) -> CloudResult<HttpRequest>,
        parse: impl FnOnce(HttpResponse<'_>) -> CloudResult<String> + 'static,
    ) -> Promise {
        let request = build(&self.context.request_builder());
        let parse: Box<ParseToText> = Box::new(parse);
        let context = self.context.clone();
        settle(Box::pin(async move {
            let response = context.fetch.send(&request?, None).await?;
            parse(response.as_http()).map(|text| JsValue::from_str(&text))
        }))
    }
}
