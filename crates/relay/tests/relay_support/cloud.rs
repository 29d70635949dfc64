//! A loopback stand-in for Letta Cloud as `letta-relay --cloud` sees it: every `/v1/...` call and
//! status-relay upgrade needs `Authorization: Bearer <key>` (401 `{"message":"Invalid API key"}`
//! otherwise) and is recorded with its headers and body.
//!
//! Routes: `GET /v1/sandboxes/<id>/files` answers [`DOWNLOAD`] as `application/octet-stream`
//! with a `Set-Cookie`; `GET /v1/slow` answers after 5 s (before the key check); every other call answers
//! `{"ok":true}` as JSON. The status socket sends its request's query first, then echoes.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, SET_COOKIE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use http_body_util::BodyExt;

/// The bytes of the fake download (not UTF-8, with a NUL).
pub const DOWNLOAD: &[u8] = b"\x89PNG\r\n\x1a\n\0\xff\xfe binary";

/// One call the fake Cloud saw.
#[derive(Debug, Clone)]
pub struct Call {
    /// Method.
    pub method: String,
    /// Path and query as received.
    pub target: String,
    /// Every header, `(lowercase name, value)`.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Call {
    /// The first value of header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug)]
struct Shared {
    key: String,
    calls: Mutex<Vec<Call>>,
}

/// A running fake Cloud (its task ends with the test's runtime).
pub struct FakeCloud {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    /// `127.0.0.1:<port>`.
    pub authority: String,
    shared: Arc<Shared>,
}

impl FakeCloud {
    /// Starts it on a free loopback port, expecting `key`.
    pub async fn start(key: &str) -> FakeCloud {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let authority = listener.local_addr().unwrap().to_string();
        let shared = Arc::new(Shared {
            key: format!("Bearer {key}"),
            calls: Mutex::new(Vec::new()),
        });
        let app = Router::new()
            .route("/v1/environments/{connection}/status/ws", get(status))
            .route("/v1/{*path}", any(rest))
            .with_state(shared.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeCloud {
            url: format!("http://{authority}"),
            authority,
            shared,
        }
    }

    /// The calls (and upgrades) so far.
    pub fn calls(&self) -> Vec<Call> {
        self.shared.calls.lock().unwrap().clone()
    }
}

fn record(shared: &Shared, method: &str, target: &str, headers: &HeaderMap, body: Vec<u8>) -> bool {
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let call = Call {
        method: method.to_owned(),
        target: target.to_owned(),
        headers,
        body,
    };
    let authorized = call.header("authorization") == Some(shared.key.as_str());
    shared.calls.lock().unwrap().push(call);
    authorized
}

fn invalid_key() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [(CONTENT_TYPE, "application/json")],
        r#"{"message":"Invalid API key"}"#,
    )
        .into_response()
}

async fn rest(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let target = parts
        .uri
        .path_and_query()
        .map_or("", |p| p.as_str())
        .to_owned();
    let path = parts.uri.path();
    if path == "/v1/slow" {
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    if !record(
        &shared,
        parts.method.as_str(),
        &target,
        &parts.headers,
        body.to_vec(),
    ) {
        return invalid_key();
    }
    if path.starts_with("/v1/sandboxes/") && path.ends_with("/files") && parts.method == "GET" {
        return (
            [
                (CONTENT_TYPE, "application/octet-stream"),
                (SET_COOKIE, "cloud_session=upstream; Path=/"),
            ],
            Bytes::from_static(DOWNLOAD),
        )
            .into_response();
    }
    ([(CONTENT_TYPE, "application/json")], r#"{"ok":true}"#).into_response()
}

async fn status(
    State(shared): State<Arc<Shared>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let target = uri.path_and_query().map_or("", |p| p.as_str()).to_owned();
    if !record(&shared, "UPGRADE", &target, &headers, Vec::new()) || headers.contains_key("origin")
    {
        return invalid_key();
    }
    let query = uri.query().unwrap_or("").to_owned();
    upgrade.on_upgrade(move |mut socket| async move {
        if socket.send(Message::text(query)).await.is_err() {
            return;
        }
        while let Some(Ok(message)) = socket.recv().await {
            let echo = matches!(message, Message::Text(_) | Message::Binary(_));
            if matches!(message, Message::Close(_)) || (echo && socket.send(message).await.is_err())
            {
                return;
            }
        }
    })
}
