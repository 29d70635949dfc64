//! `/ws`: checks Host, Origin and the ticket, then upgrades, opens the upstream socket and relays.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use super::http::{text, Relay};
use super::log::log;
use super::pump::{self, close_frame, CLOSE_UPSTREAM_FAILED};
use super::upstream;

/// How long a refused browser socket gets to answer the relay's close frame.
const REFUSAL_GRACE: Duration = Duration::from_secs(2);

/// The `/ws` handler: 403 for a foreign Host or Origin, 401 without a valid ticket, otherwise
/// the upgrade (with the size limits) and the relayed session.
pub async fn upgrade(
    State(relay): State<Arc<Relay>>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    if let Err(refusal) = relay.policy.check(&headers) {
        log(&format!("ws refused: {}", refusal.message()));
        return text(StatusCode::FORBIDDEN, refusal.message());
    }
    if let Err(rejection) = relay.tickets().check_request(&headers, Instant::now()) {
        log(&format!("ws refused: {}", rejection.message()));
        return text(StatusCode::UNAUTHORIZED, rejection.message());
    }
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    let limit = relay.config.max_frame_bytes;
    upgrade
        .max_frame_size(limit)
        .max_message_size(limit)
        .on_failed_upgrade(|_| log("ws upgrade failed"))
        .on_upgrade(move |socket| session(relay, socket))
}

async fn session(relay: Arc<Relay>, mut browser: WebSocket) {
    let limit = relay.config.max_frame_bytes;
    let upstream = upstream::connect(&relay.config.upstream, &relay.token, limit).await;
    match upstream {
        Ok(upstream) => {
            log("ws session open");
            let summary = pump::relay(browser, upstream, limit).await;
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
}
