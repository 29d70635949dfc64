//! Cloud sessions: `CloudClient.createSessionDriver` returns the same [`SessionDriver`] class
//! the remote backend uses, whose driver also pumps the session's Cloud connection
//! (`transport::cloud_session`: REST start, status sockets, sandbox refreshes, release). The
//! wrapper (`pkg-template/lib/session.js`) drives both alike; `beforeTurn()`,
//! `isIdleDisconnected()` and the sandbox's file transfers are the Cloud-only steps.

use super::cloud::CloudClient;
use super::error::cloud_error;
use super::session::{Connector, SessionDriver};
use crate::cloud::files;
use crate::cloud::http::RequestBuilder;
use crate::transport::cloud_session::CloudSession;
use crate::transport::fetch::ResponseBody;
use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

#[wasm_bindgen]
impl CloudClient {
    /// A session driver for the wrapper's validated `config` (JSON: `{target, options, cloud:
    /// {action, computer?, environment?, sandbox?, resources?}}`); `web_socket`: the injected
    /// constructor (header auth needs one; `webSocketAuth: "query"` works with the platform's
    /// own); `events`: as for `new SessionDriver`. Throws the typed target errors.
    #[wasm_bindgen(js_name = createSessionDriver)]
    pub fn create_session_driver(
        &self,
        config: &str,
        nonce: &str,
        web_socket: Option<Function>,
        events: Function,
    ) -> Result<SessionDriver, JsValue> {
        let context = self.context();
        let web_socket = web_socket.filter(|f| f.is_function());
        let cloud = CloudSession::new(
            context.config.clone(),
            context.fetch.clone(),
            config,
            web_socket.clone(),
        )
        .map_err(|e| cloud_error(&e))?;
        let driver = SessionDriver::with_connector(
            config,
            nonce,
            Connector::Cloud(context),
            web_socket,
            events,
        )?;
        if let Some(shared) = driver.live() {
            shared.driver.set_cloud(cloud);
        }
        Ok(driver)
    }
}

fn unavailable() -> JsValue {
    cloud_error(&files::computer_error())
}

/// The managed sandbox's id after a refresh (file transfers refresh first, spec §4.8).
/// The call starts now; the future only waits for its outcome.
fn refreshed_sandbox(
    session: &SessionDriver,
) -> impl std::future::Future<Output = Result<String, JsValue>> + 'static {
    let call = JsFuture::from(session.cloud_call(|cloud, call| cloud.transfer(call)));
    async move { call.await?.as_string().ok_or_else(unavailable) }
}

/// `sandboxUpload`: `files` is `[{name, content}]` (content a Blob, bytes or text); resolves
/// with the validated `{files}` response as JSON text.
pub(super) fn upload(session: &SessionDriver, list: JsValue) -> Promise {
    let context = session.cloud_context();
    let names: Vec<Option<String>> = Array::from(&list)
        .iter()
        .map(|file| Reflect::get(&file, &"name".into()).ok()?.as_string())
        .collect();
    let transfer = context.map(|context| {
        let rb = RequestBuilder::new(&context.config);
        let names: Vec<Option<&str>> = names.iter().map(Option::as_deref).collect();
        // The names are checked before any request (the refresh included).
        files::upload(&rb, "-", &names).map(|_| (context, rb))
    });
    let sandbox = match &transfer {
        Some(Ok(_)) => Some(refreshed_sandbox(session)),
        _ => None,
    };
    future_to_promise(async move {
        let (context, rb) = transfer
            .ok_or_else(unavailable)?
            .map_err(|e| cloud_error(&e))?;
        let sandbox_id = sandbox.ok_or_else(unavailable)?.await?;
        let names: Vec<Option<&str>> = names.iter().map(Option::as_deref).collect();
        let request = files::upload(&rb, &sandbox_id, &names).map_err(|e| cloud_error(&e))?;
        let response = context
            .fetch
            .send(&request, Some(&list))
            .await
            .map_err(|e| cloud_error(&e))?;
        let uploaded = files::parse_upload(response.as_http()).map_err(|e| cloud_error(&e))?;
        Ok(crate::json::to_string(&uploaded).into())
    })
}

/// `sandboxDownload`: the file's bytes as a `Uint8Array`.
pub(super) fn download(session: &SessionDriver, path: String) -> Promise {
    let context = session.cloud_context();
    let checked = context.map(|context| {
        let rb = RequestBuilder::new(&context.config);
        files::download(&rb, "-", &path).map(|_| (context, rb))
    });
    let sandbox = match &checked {
        Some(Ok(_)) => Some(refreshed_sandbox(session)),
        _ => None,
    };
    future_to_promise(async move {
        let (context, rb) = checked
            .ok_or_else(unavailable)?
            .map_err(|e| cloud_error(&e))?;
        let sandbox_id = sandbox.ok_or_else(unavailable)?.await?;
        let request = files::download(&rb, &sandbox_id, &path).map_err(|e| cloud_error(&e))?;
        let response = context
            .fetch
            .send(&request, None)
            .await
            .map_err(|e| cloud_error(&e))?;
        files::check_download(response.as_http()).map_err(|e| cloud_error(&e))?;
        let bytes = match response.body {
            ResponseBody::Bytes(bytes) => bytes,
            ResponseBody::Text(text) => Uint8Array::from(text.as_bytes()),
        };
        Ok(bytes.into())
    })
}
