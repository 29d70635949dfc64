//! The Cloud binding (feature `cloud`): [`CloudClient`], one per `LettaAgentClient` with
//! `backend: "cloud"`. It holds the validated options and the `fetch` to use, and has one method
//! per management operation (spec §4.2): each builds its request with `crate::cloud`, performs
//! it through [`Fetch`] and resolves with the parsed result. Cloud sessions are made from it
//! too (`src/js/cloud_session.rs`).
//!
//! Options, bodies, queries and structured results cross as JS values through
//! serde-wasm-bindgen (this build only: on the browser `/client` build it measured 18.7 KB gzip
//! more, see `src/js/session.rs`). A value of the wrong shape is a typed
//! `LettaInvalidArgumentError`, never a panic. The wrapper (`pkg-template/lib/cloud.js`) maps
//! the public camelCase options of the shared facades to the wire names.

use super::error::{cloud_error, typed_error};
use crate::cloud::config::{CloudConfig, CloudEnv};
use crate::cloud::error::CloudResult;
use crate::cloud::http::{HttpRequest, HttpResponse, RequestBuilder};
use crate::cloud::rest::RepositoryPermissions;
use crate::cloud::selector::{self, ComputerSelector, Resolution};
use crate::cloud::{computers, decisions, management, messages, models, repositories, rest};
use crate::transport::fetch::Fetch;
use js_sys::{Function, Promise};
use serde::Serialize;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[path = "cloud_values.rs"]
mod values;
use values::{arg, camel_cased, settle, to_js, ParseToJs};

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
    /// `options`: the client options (functions and the WebSocket constructor left out); `letta_api_key` / `letta_cloud_api_key`: the environment's keys (Node), the
    /// fallback when neither `apiKey` nor an `Authorization` header is given; `fetch`: the
    /// `fetch` option, else the platform's. Throws the typed validation error.
    #[wasm_bindgen(constructor)]
    pub fn new(
        options: JsValue,
        letta_api_key: Option<String>,
        letta_cloud_api_key: Option<String>,
        fetch: Option<Function>,
    ) -> Result<CloudClient, JsValue> {
        let env = CloudEnv {
            letta_api_key,
            letta_cloud_api_key,
        };
        let options = serde_wasm_bindgen::from_value::<Value>(options).map_err(|_| {
            typed_error(
                crate::error::ErrorKind::InvalidArgument,
                "LettaAgentClient options must be an object.",
            )
        })?;
        let config = CloudConfig::from_options(&options, &env).map_err(|e| cloud_error(&e))?;
        let fetch = Fetch::new(fetch.filter(|f| f.is_function())).map_err(|e| cloud_error(&e))?;
        Ok(CloudClient {
            context: Rc::new(CloudContext { config, fetch }),
        })
    }

    /// `createAgent(options)`: resolves with the new agent's id.
    #[wasm_bindgen(js_name = createAgent)]
    pub fn create_agent(&self, options: JsValue) -> Promise {
        let body = arg::<Value>(options, "createAgent() options")
            .and_then(|o| rest::create_agent_body(&o));
        let context = self.context.clone();
        settle(Box::pin(async move {
            let request = rest::create_agent(&context.request_builder(), &body?);
            to_js(&context.call(&request, rest::parse_created_agent).await?)
        }))
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

    /// `agents.list(query)` (wire-named query).
    #[wasm_bindgen(js_name = agentsList)]
    pub fn agents_list(&self, query: JsValue) -> Promise {
        self.json_call(
            |rb| {
                Ok(management::list_agents(
                    rb,
                    &arg::<Value>(query, "agents.list() options")?,
                ))
            },
            management::parse_json,
        )
    }

    /// `agents.retrieve(id)`.
    #[wasm_bindgen(js_name = agentsRetrieve)]
    pub fn agents_retrieve(&self, agent_id: &str) -> Promise {
        self.json_call(
            |rb| management::retrieve_agent(rb, agent_id),
            management::parse_json,
        )
    }

    /// `agents.update(id, body)` (wire-named body).
    #[wasm_bindgen(js_name = agentsUpdate)]
    pub fn agents_update(&self, agent_id: &str, body: JsValue) -> Promise {
        self.json_call(
            |rb| {
                management::update_agent(rb, agent_id, &arg::<Value>(body, "agents.update() body")?)
            },
            management::parse_json,
        )
    }

    /// `agents.delete(id)`.
    #[wasm_bindgen(js_name = agentsDelete)]
    pub fn agents_delete(&self, agent_id: &str) -> Promise {
        self.json_call(
            |rb| management::delete_agent(rb, agent_id),
            management::parse_json,
        )
    }

    /// `conversations.list(query)` (wire-named query).
    #[wasm_bindgen(js_name = conversationsList)]
    pub fn conversations_list(&self, query: JsValue) -> Promise {
        self.json_call(
            |rb| {
                Ok(management::list_conversations(
                    rb,
                    &arg::<Value>(query, "conversations.list() options")?,
                ))
            },
            management::parse_json,
        )
    }

    /// `conversations.retrieve(id)`.
    #[wasm_bindgen(js_name = conversationsRetrieve)]
    pub fn conversations_retrieve(&self, conversation_id: &str) -> Promise {
        self.json_call(
            |rb| management::retrieve_conversation(rb, conversation_id),
            management::parse_json,
        )
    }

    /// `conversations.create(body)` (wire-named body with `agent_id`).
    #[wasm_bindgen(js_name = conversationsCreate)]
    pub fn conversations_create(&self, body: JsValue) -> Promise {
        self.json_call(
            |rb| {
                management::create_conversation(
                    rb,
                    &arg::<Value>(body, "conversations.create() body")?,
                )
            },
            management::parse_json,
        )
    }

    /// `conversations.update(id, body)` (wire-named body).
    #[wasm_bindgen(js_name = conversationsUpdate)]
    pub fn conversations_update(&self, conversation_id: &str, body: JsValue) -> Promise {
        self.json_call(
            |rb| {
                management::update_conversation(
                    rb,
                    conversation_id,
                    &arg::<Value>(body, "conversations.update() body")?,
                )
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
        self.json_call(
            |rb| management::fork_conversation(rb, conversation_id, message_id.as_deref(), hidden),
            management::parse_fork,
        )
    }

    /// `conversations.listMessages(id, {before?, after?, order?, limit?})`: `{messages}`, the
    /// cursors swapped for descending order.
    #[wasm_bindgen(js_name = conversationsListMessages)]
    pub fn conversations_list_messages(&self, conversation_id: &str, options: JsValue) -> Promise {
        self.json_call(
            |rb| {
                messages::list_request(
                    rb,
                    conversation_id,
                    &arg(options, "conversations.listMessages() options")?,
                )
            },
            messages::parse_list,
        )
    }

    /// `models.list()`: `{entries, availableHandles}`, normalized, as JSON text: the shared
    /// facades (`agent-client.js`, `session.js`) take the model list as text from both backends.
    #[wasm_bindgen(js_name = modelsList)]
    pub fn models_list(&self) -> Promise {
        self.json_call(|rb| Ok(models::list_request(rb)), models::parse_list_json)
    }

    /// `computers.list({limit?, after?, onlineOnly?})`.
    #[wasm_bindgen(js_name = computersList)]
    pub fn computers_list(&self, options: JsValue) -> Promise {
        self.json_call(
            |rb| {
                Ok(computers::list_request(
                    rb,
                    &arg(options, "computers.list() options")?,
                ))
            },
            computers::parse_computer_list,
        )
    }

    /// `computers.get(deviceId)`.
    #[wasm_bindgen(js_name = computersGet)]
    pub fn computers_get(&self, device_id: &str) -> Promise {
        let device_id = device_id.to_owned();
        self.json_call(
            |rb| Ok(computers::get_request(rb, &device_id)),
            |response| computers::parse_record(response).map(computers::Computer::from),
        )
    }

    /// `computers.resolve(selector)`: `{connectionId, computer?}` (no call for `{connectionId}`).
    #[wasm_bindgen(js_name = computersResolve)]
    pub fn computers_resolve(&self, selector: JsValue) -> Promise {
        let selector = arg::<Value>(selector, "computer selector")
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
            to_js(&resolved)
        }))
    }

    /// `agents.repositories.list(agentId)`.
    #[wasm_bindgen(js_name = agentRepositoriesList)]
    pub fn agent_repositories_list(&self, agent_id: &str) -> Promise {
        self.json_call(
            |rb| Ok(rest::list_agent_repositories(rb, agent_id)),
            |r| rest::parse_agent_repositories(r).map(camel_cased),
        )
    }

    /// `agents.repositories.attach(agentId, repositoryId, {permissions?, recompile?})`: attaches,
    /// then recompiles the agent's prompt unless `recompile` is false.
    #[wasm_bindgen(js_name = agentRepositoriesAttach)]
    pub fn agent_repositories_attach(
        &self,
        agent_id: &str,
        repository_id: &str,
        permissions: JsValue,
        recompile: bool,
    ) -> Promise {
        let permissions = arg::<Option<RepositoryPermissions>>(
            permissions,
            "agents.repositories.attach() permissions",
        );
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
            to_js(&camel_cased(attached))
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

    /// `repositories.create({name})`.
    #[wasm_bindgen(js_name = repositoriesCreate)]
    pub fn repositories_create(&self, name: &str) -> Promise {
        self.json_call(|rb| Ok(repositories::create(rb, name)), repositories::parse)
    }

    /// `repositories.list({limit?, offset?})`: `{repositories, hasNextPage}`.
    #[wasm_bindgen(js_name = repositoriesList)]
    pub fn repositories_list(&self, limit: Option<u32>, offset: Option<u32>) -> Promise {
        self.json_call(
            |rb| Ok(repositories::list(rb, limit, offset)),
            repositories::parse_list,
        )
    }

    /// `repositories.get(id)`.
    #[wasm_bindgen(js_name = repositoriesGet)]
    pub fn repositories_get(&self, id: &str) -> Promise {
        self.json_call(|rb| repositories::get(rb, id), repositories::parse)
    }

    /// `repositories.delete(id)`.
    #[wasm_bindgen(js_name = repositoriesDelete)]
    pub fn repositories_delete(&self, id: &str) -> Promise {
        self.json_call(|rb| repositories::delete(rb, id), repositories::parse)
    }

    /// `repositories.files.list(id, {pathPrefix?, depth?, ref?})`.
    #[wasm_bindgen(js_name = repositoryFilesList)]
    pub fn repository_files_list(&self, id: &str, options: JsValue) -> Promise {
        self.json_call(
            |rb| {
                repositories::list_files(
                    rb,
                    id,
                    &arg(options, "repositories.files.list() options")?,
                )
            },
            repositories::parse,
        )
    }

    /// `repositories.files.create(id, {path, content})`.
    #[wasm_bindgen(js_name = repositoryFilesCreate)]
    pub fn repository_files_create(&self, id: &str, path: &str, content: &str) -> Promise {
        self.json_call(
            |rb| repositories::create_file(rb, id, path, content),
            repositories::parse,
        )
    }

    /// `repositories.files.read(id, {path, ref?})`.
    #[wasm_bindgen(js_name = repositoryFilesRead)]
    pub fn repository_files_read(
        &self,
        id: &str,
        path: &str,
        reference: Option<String>,
    ) -> Promise {
        self.json_call(
            |rb| repositories::read_file(rb, id, path, reference.as_deref()),
            repositories::parse,
        )
    }

    /// `repositories.files.update(id, {path, content?, newPath?, precondition?})`.
    #[wasm_bindgen(js_name = repositoryFilesUpdate)]
    pub fn repository_files_update(&self, id: &str, options: JsValue) -> Promise {
        self.json_call(
            |rb| {
                repositories::update_file(
                    rb,
                    id,
                    &arg(options, "repositories.files.update() options")?,
                )
            },
            repositories::parse,
        )
    }

    /// `repositories.files.delete(id, {path})`.
    #[wasm_bindgen(js_name = repositoryFilesDelete)]
    pub fn repository_files_delete(&self, id: &str, path: &str) -> Promise {
        self.json_call(
            |rb| repositories::delete_file(rb, id, path),
            repositories::parse,
        )
    }

    /// `repositories.versions.list(id, {path?, limit?})`: an array.
    #[wasm_bindgen(js_name = repositoryVersionsList)]
    pub fn repository_versions_list(
        &self,
        id: &str,
        path: Option<String>,
        limit: Option<u32>,
    ) -> Promise {
        self.json_call(
            |rb| repositories::list_versions(rb, id, path.as_deref(), limit),
            repositories::parse_versions,
        )
    }

    /// `repositories.versions.get(id, sha, {path?})`.
    #[wasm_bindgen(js_name = repositoryVersionsGet)]
    pub fn repository_versions_get(&self, id: &str, sha: &str, path: Option<String>) -> Promise {
        self.json_call(
            |rb| repositories::get_version(rb, id, sha, path.as_deref()),
            repositories::parse,
        )
    }
}

impl CloudClient {
    /// The options, `fetch` and request builder the client's sessions share.
    pub(crate) fn context(&self) -> Rc<CloudContext> {
        self.context.clone()
    }

    /// Builds a request now (argument errors reject the Promise), performs it, and resolves
    /// with the parsed result as a JS value. Only `parse` is generic: the request and the
    /// Promise share one future type for every method (one future per method measured
    /// 1.4–2.4 KB of wasm each, about 40 KB in all).
    fn json_call<T: Serialize>(
        &self,
        build: impl FnOnce(&RequestBuilder) -> CloudResult<HttpRequest>,
        parse: impl FnOnce(HttpResponse<'_>) -> CloudResult<T> + 'static,
    ) -> Promise {
        let request = build(&self.context.request_builder());
        let parse: Box<ParseToJs> =
            Box::new(move |response| parse(response).and_then(|v| to_js(&v)));
        let context = self.context.clone();
        settle(Box::pin(async move {
            let response = context.fetch.send(&request?, None).await?;
            parse(response.as_http())
        }))
    }
}
