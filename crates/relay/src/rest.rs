//! `--cloud` mode, the I/O: `/v1/...` REST calls forwarded to Letta Cloud with the API key,
//! bodies streamed both ways (JSON, multipart uploads, binary downloads), one upstream
//! connection per call (hyper's HTTP/1 client over TCP or tokio-rustls).
//!
//! A call needs what a socket needs: the Host / Origin rules and a valid ticket cookie (the page
//! the relay served has one; another local program or site does not). Failures of the relay's
//! own are JSON `{"message": "relay: …"}` with 502 (upstream unreachable), 504 (no answer within
//! `--upstream-request-timeout-s`), 413 (body over `--max-body-bytes`); the texts are built from
//! error kinds, never from the key or request data.

use std::sync::Arc;
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, Limited};
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use rustls::ClientConfig;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_tungstenite::MaybeTlsStream;

use super::cloud::{page_headers, upstream_headers, CloudBase};
use super::http::Relay;
use super::log::log;

/// The Cloud upstream of a relay started with `--cloud`.
#[derive(Debug, Clone)]
pub struct CloudUpstream {
    /// Where calls go.
    pub base: CloudBase,
    /// TLS for `https://` (ALPN `http/1.1`: the client speaks HTTP/1 only).
    pub tls: Option<Arc<ClientConfig>>,
}

impl CloudUpstream {
    /// The upstream for `base`, with `tls` (the relay's rustls settings) for `https://`.
    pub fn new(base: CloudBase, tls: Option<&Arc<ClientConfig>>) -> Self {
        let tls = tls.map(|config| {
            let mut config = ClientConfig::clone(config);
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            Arc::new(config)
        });
        Self { base, tls }
    }
}

/// A failure of the relay's own, answered as JSON.
fn failure(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "message": format!("relay: {message}") }).to_string();
    let mut response = (status, [(CONTENT_TYPE, "application/json")], body).into_response();
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The `/v1/...` handler (every method).
pub async fn forward(State(relay): State<Arc<Relay>>, request: Request) -> Response {
    if let Err(refusal) = relay.policy.check(request.headers()) {
        return failure(StatusCode::FORBIDDEN, refusal.message());
    }
    if let Err(rejection) = relay
        .tickets
        .check_request(request.headers(), SystemTime::now())
    {
        return failure(StatusCode::UNAUTHORIZED, rejection.message());
    }
    let Some(cloud) = &relay.cloud else {
        return failure(StatusCode::NOT_FOUND, "not a Cloud relay");
    };
    let limit = relay.config.max_body_bytes;
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return too_big(limit);
    }
    let (parts, body) = request.into_parts();
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let uri = match cloud.base.rest_uri(path) {
        Ok(uri) => uri,
        Err(why) => return failure(StatusCode::BAD_REQUEST, &why),
    };
    let mut upstream = hyper::Request::new(Limited::new(body, limit));
    *upstream.method_mut() = parts.method;
    *upstream.uri_mut() = uri;
    *upstream.headers_mut() =
        upstream_headers(&parts.headers, &cloud.base, relay.token.authorization());

    let connect = relay.config.upstream_connect_timeout;
    let stream = match tokio::time::timeout(connect, open(cloud)).await {
        Ok(Ok(stream)) => stream,
        Ok(Err(why)) => {
            log(&format!("cloud call failed: {why}"));
            return failure(StatusCode::BAD_GATEWAY, &why);
        }
        Err(_) => {
            let why = format!(
                "Letta Cloud did not accept a connection within {} s",
                connect.as_secs()
            );
            log(&format!("cloud call failed: {why}"));
            return failure(StatusCode::GATEWAY_TIMEOUT, &why);
        }
    };
    let (mut sender, connection) =
        match hyper::client::conn::http1::handshake(TokioIo::new(stream)).await {
            Ok(pair) => pair,
            Err(_) => {
                return failure(
                    StatusCode::BAD_GATEWAY,
                    "the HTTP handshake with Letta Cloud failed",
                )
            }
        };
    // Drives the connection until the answer's body is read (it ends with the sender).
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let wait = relay.config.upstream_request_timeout;
    let answer = match tokio::time::timeout(wait, sender.send_request(upstream)).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => return call_failed(&e, limit),
        Err(_) => {
            let why = format!(
                "Letta Cloud did not answer within {} s (--upstream-request-timeout-s)",
                wait.as_secs()
            );
            log(&format!("cloud call failed: {why}"));
            return failure(StatusCode::GATEWAY_TIMEOUT, &why);
        }
    };
    let (parts, body) = answer.into_parts();
    let mut response = Response::new(Body::new(body.map_err(axum::Error::new)));
    *response.status_mut() = parts.status;
    *response.headers_mut() = page_headers(&parts.headers);
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn too_big(limit: usize) -> Response {
    failure(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("the request body exceeds the relay's limit of {limit} bytes (--max-body-bytes)"),
    )
}

/// A failed call: the body was over the limit (413), or the upstream went away (502).
fn call_failed(error: &hyper::Error, limit: usize) -> Response {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return too_big(limit);
        }
        source = e.source();
    }
    let why = if error.is_incomplete_message() || error.is_canceled() {
        "Letta Cloud closed the connection before answering"
    } else if error.is_parse() {
        "Letta Cloud's answer was not valid HTTP/1.1"
    } else {
        "the call to Letta Cloud failed"
    };
    log(&format!("cloud call failed: {why}"));
    failure(StatusCode::BAD_GATEWAY, why)
}

/// Opens the TCP (and TLS) connection of one call.
async fn open(cloud: &CloudUpstream) -> Result<MaybeTlsStream<TcpStream>, String> {
    let base = &cloud.base;
    let tcp = TcpStream::connect((base.host.as_str(), base.port))
        .await
        .map_err(|e| format!("Letta Cloud unreachable ({})", super::upstream::io_kind(&e)))?;
    let _ = tcp.set_nodelay(true);
    let Some(tls) = &cloud.tls else {
        return Ok(MaybeTlsStream::Plain(tcp));
    };
    let name = ServerName::try_from(base.host.clone())
        .map_err(|_| "the --cloud host is not a valid TLS server name".to_owned())?;
    let stream = TlsConnector::from(tls.clone())
        .connect(name, tcp)
        .await
        .map_err(|_| {
            "TLS with Letta Cloud failed (certificate not trusted or handshake refused)".to_owned()
        })?;
    Ok(MaybeTlsStream::Rustls(stream))
}
