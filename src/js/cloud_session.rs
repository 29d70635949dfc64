//! Cloud sessions: `CloudClient.createSessionDriver` returns the same
//! [`SessionDriver`] class the remote backend uses, whose transport is opened by a
//! [`CloudConnector`] (REST start, status sockets). The wrapper (`pkg-template/lib/session.js`)
//! drives both alike; `beforeTurn()` and `isIdleDisconnected()` are the Cloud-only steps.

use super::cloud::CloudClient;
use super::error::cloud_error;
use super::session::{Connector, SessionDriver, Shared};
use crate::transport::cloud_session::CloudConnector;
use js_sys::{Function, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, spawn_local};

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
        let connector = CloudConnector::new(context.config.clone(), context.fetch.clone(), config)
            .map_err(|e| cloud_error(&e))?;
        let connector = Connector::Cloud(Rc::new(connector));
        SessionDriver::with_connector(config, nonce, connector, web_socket, events)
    }
}

/// `connect()` of a Cloud session: the connector runs in the background; its failure rejects
/// the call `call` with the typed Cloud error and fails the start.
pub(super) fn connect(shared: &Rc<Shared>, connector: Rc<CloudConnector>, call: u32) {
    let weak = Rc::downgrade(shared);
    spawn_local(async move {
        let Some(shared) = weak.upgrade() else {
            return;
        };
        let driver = shared.driver.clone();
        let web_socket = shared.web_socket.clone();
        drop(shared);
        if let Err(error) = connector.connect(&driver, web_socket.as_ref()).await {
            if let Some(shared) = weak.upgrade() {
                shared.reject_call(call, &cloud_error(&error));
            }
            driver.connect_failed(&error.message);
        }
    });
}

/// `beforeTurn()`: the sandbox refresh; rejects with the typed error.
pub(super) fn before_turn(connector: Rc<CloudConnector>) -> Promise {
    future_to_promise(async move {
        connector
            .before_turn()
            .await
            .map(|()| JsValue::UNDEFINED)
            .map_err(|e| cloud_error(&e))
    })
}

/// On release: the connector's close runs in the background (errors swallowed).
pub(super) fn close(connector: Rc<CloudConnector>) {
    spawn_local(async move { connector.close().await });
}

fn unavailable() -> JsValue {
    cloud_error(&crate::cloud::files::computer_error())
}

/// `sandboxUpload`: the connector's upload as a Promise of JSON text.
pub(super) fn upload(connector: Option<Rc<CloudConnector>>, files: JsValue) -> Promise {
    future_to_promise(async move {
        let connector = connector.ok_or_else(unavailable)?;
        let json = connector
            .upload(&files)
            .await
            .map_err(|e| cloud_error(&e))?;
        Ok(json.into())
    })
}

/// `sandboxDownload`: the connector's download as a Promise of a `Uint8Array`.
pub(super) fn download(connector: Option<Rc<CloudConnector>>, path: String) -> Promise {
    future_to_promise(async move {
        let connector = connector.ok_or_else(unavailable)?;
        let bytes = connector
            .download(&path)
            .await
            .map_err(|e| cloud_error(&e))?;
        Ok(bytes.into())
    })
}
