//! The upstream connection: a WebSocket client to the app server carrying
//! `Authorization: Bearer <token>` and no `Origin`, and failure texts that never quote the token.

use std::io;
use std::time::Duration;

use axum::http::header::AUTHORIZATION;
use axum::http::Uri;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::secret::Token;

/// How long the upstream handshake may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// An open upstream socket.
pub type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The size limits used on every socket of the relay.
pub fn ws_config(max_frame_bytes: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_frame_size(Some(max_frame_bytes))
        .max_message_size(Some(max_frame_bytes))
}

/// Opens the upstream socket. The error is a short description fit for a close reason and a
/// log line (built from the error's kind, never from request data).
pub async fn connect(url: &Uri, token: &Token, max_frame_bytes: usize) -> Result<Upstream, String> {
    let mut request = url
        .clone()
        .into_client_request()
        .map_err(|e| describe(&e))?;
    request
        .headers_mut()
        .insert(AUTHORIZATION, token.authorization());
    let config = ws_config(max_frame_bytes);
    let handshake = tokio_tungstenite::connect_async_with_config(request, Some(config), false);
    match tokio::time::timeout(CONNECT_TIMEOUT, handshake).await {
        Ok(Ok((socket, _response))) => Ok(socket),
        Ok(Err(e)) => Err(describe(&e)),
        Err(_) => Err("upstream did not answer in time".into()),
    }
}

fn describe(error: &WsError) -> String {
    match error {
        WsError::Io(e) => format!("upstream unreachable ({})", io_kind(e)),
        WsError::Http(response) => {
            format!(
                "upstream refused the connection (HTTP {})",
                response.status().as_u16()
            )
        }
        WsError::Url(_) => "upstream URL not usable".into(),
        WsError::Tls(_) => "upstream TLS failed".into(),
        WsError::Capacity(_) => "upstream handshake too large".into(),
        _ => "upstream handshake failed".into(),
    }
}

fn io_kind(e: &io::Error) -> &'static str {
    match e.kind() {
        io::ErrorKind::ConnectionRefused => "connection refused",
        io::ErrorKind::ConnectionReset => "connection reset",
        io::ErrorKind::ConnectionAborted => "connection aborted",
        io::ErrorKind::TimedOut => "timed out",
        io::ErrorKind::NotFound => "host not found",
        io::ErrorKind::AddrNotAvailable => "address not available",
        io::ErrorKind::UnexpectedEof => "closed during the handshake",
        _ => "I/O error",
    }
}
