//! `/ws` (and, with `--cloud`, `/v1/environments/<connectionId>/status/ws`): checks Host,
//! Origin, the ticket and the socket limits, then upgrades, opens the upstream socket and relays.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use super::http::{text, Relay};
use super::limits::{Full, Permit};
use super::log::log;
use super::pump::{self, close_frame, SessionLimits, CLOSE_UPSTREAM_FAILED};
use super::upstream::{self, Target};

/// How long a refused browser socket gets to answer the relay's close frame.
const REFUSAL_GRACE: Duration = Duration::from_secs(2);

/// The `/ws` handler: 403 for a foreign Host or Origin, 401 without a valid ticket, 503 when
/// the relay holds `--max-sockets` and 429 when the client's address holds
/// `--max-sockets-per-client`; otherwise the upgrade (with the size limits) and the session.
pub async fn upgrade(
    State(relay): State<Arc<Relay>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let target = relay.target.clone();
    accept(relay, client, &headers, upgrade, target)
}

/// The Cloud status-relay handler (`--cloud`): the same checks as `/ws`, then the socket is
/// relayed to the same path and query (minus any `token`) on the Cloud base, with the API key
/// in the `Authorization` header.
pub async fn status_upgrade(
    State(relay): State<Arc<Relay>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    uri: Uri,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let Some(cloud) = &relay.cloud else {
        return text(StatusCode::NOT_FOUND, "not found");
    };
    let url = match cloud.base.status_uri(uri.path(), uri.query()) {
        Ok(url) => url,
        Err(_) => {
            return text(
                StatusCode::BAD_REQUEST,
                "the socket path cannot be forwarded",
            )
        }
    };
    let target = Target {
        url,
        ..relay.target.clone()
    };
    accept(relay, client, &headers, upgrade, target)
}

fn accept(
    relay: Arc<Relay>,
    client: SocketAddr,
    headers: &HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    target: Target,
) -> Response {
    if let Err(refusal) = relay.policy.check(headers) {
        log(&format!("ws refused: {}", refusal.message()));
        return text(StatusCode::FORBIDDEN, refusal.message());
    }
    if let Err(rejection) = relay.tickets.check_request(headers, SystemTime::now()) {
        log(&format!("ws refused: {}", rejection.message()));
        return text(StatusCode::UNAUTHORIZED, rejection.message());
    }
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    let permit = match relay.limits.acquire(client.ip()) {
        Ok(permit) => permit,
        Err(full) => {
            let status = match full {
                Full::Total(_) => StatusCode::SERVICE_UNAVAILABLE,
                Full::PerClient(_) => StatusCode::TOO_MANY_REQUESTS,
            };
            let message = full.message();
            log(&format!("ws refused ({}): {message}", status.as_u16()));
            let mut response = (status, message).into_response();
            response.headers_mut().insert(
                axum::http::header::CACHE_CONTROL,
                axum::http::HeaderValue::from_static("no-store"),
            );
            return response;
        }
    };
    let limit = relay.config.max_frame_bytes;
    upgrade
        .max_frame_size(limit)
        .max_message_size(limit)
        .read_buffer_size(upstream::SOCKET_BUFFER_BYTES)
        .write_buffer_size(upstream::SOCKET_BUFFER_BYTES)
        .on_failed_upgrade(|_| log("ws upgrade failed"))
        .on_upgrade(move |socket| session(relay, socket, permit, target))
}

async fn session(relay: Arc<Relay>, mut browser: WebSocket, permit: Permit, target: Target) {
    let upstream = upstream::connect(&target, &relay.token).await;
    match upstream {
        Ok(upstream) => {
            log("ws session open");
            let limits = SessionLimits {
                max_frame_bytes: relay.config.max_frame_bytes,
                idle: relay.config.idle_timeout,
            };
            let shutdown = relay.shutdown.subscribe();
            let summary = pump::relay(browser, upstream, limits, shutdown).await;
            log(&format!("ws session ended: {summary}"));
        }
        Err(why) => {
            // `why` is built from error kinds only; redact anyway before it leaves the process.
            let why = relay.token.redact(&why);
            log(&format!("ws session refused: {why}"));
            let frame = close_frame(CLOSE_UPSTREAM_FAILED, &format!("relay: {why}"));
            let close = ws::Message::Close(Some(ws::CloseFrame {
                code: u16::from(frame.code),
                reason: ws::Utf8Bytes::from(frame.reason.as_str()),
            }));
            if browser.send(close).await.is_ok() {
                // Let the browser answer the close so the frame is not lost to a reset.
                let _ = tokio::time::timeout(REFUSAL_GRACE, async {
                    while let Some(Ok(_)) = browser.next().await {}
                })
                .await;
            }
        }
    }
    drop(permit);
}
