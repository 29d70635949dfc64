//! The upstream connection: a WebSocket client to the app server carrying
//! `Authorization: Bearer <token>` and no `Origin`, over TLS for `wss://` (rustls, certificate
//! verified against the platform's roots or `--ca-file`), and failure texts that never quote the
//! token.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::http::header::AUTHORIZATION;
use axum::http::Uri;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};

use super::log::log;
use super::secret::Token;

/// How to reach the upstream: its URL, the TLS settings for `wss://`, the limits.
#[derive(Debug, Clone)]
pub struct Target {
    /// The app server's WebSocket URL.
    pub url: Uri,
    /// The rustls client settings, for a `wss://` URL.
    pub tls: Option<Arc<ClientConfig>>,
    /// Time allowed for TCP, TLS and WebSocket handshakes together.
    pub connect_timeout: Duration,
    /// Largest frame or message.
    pub max_frame_bytes: usize,
}

/// The rustls settings for a `wss://` upstream: the CAs of the PEM bundle `ca_file`, or else the
/// platform's root certificates.
pub fn tls_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    match ca_file {
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| format!("--ca-file {}: {e}", path.display()))?;
            for cert in certs {
                let cert = cert.map_err(|e| format!("--ca-file {}: {e}", path.display()))?;
                roots
                    .add(cert)
                    .map_err(|e| format!("--ca-file {}: {e}", path.display()))?;
            }
            if roots.is_empty() {
                return Err(format!(
                    "--ca-file {}: no certificate in it",
                    path.display()
                ));
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _ignored) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                return Err(
                    "no root certificates found on this system for a wss:// upstream: pass --ca-file"
                        .into(),
                );
            }
            log(&format!(
                "wss upstream: trusting {added} platform root certificates"
            ));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup failed: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// An open upstream socket.
pub type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Read and write buffer of each socket. The library's default (128 KiB each) would cost about
/// half a megabyte per relayed session; messages larger than this still pass (the buffers grow).
pub const SOCKET_BUFFER_BYTES: usize = 8 * 1024;

/// The size limits and buffers used on every socket of the relay.
pub fn ws_config(max_frame_bytes: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_frame_size(Some(max_frame_bytes))
        .max_message_size(Some(max_frame_bytes))
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES)
}

/// Opens the upstream socket. The error is a short description fit for a close reason and a
/// log line (built from the error's kind, never from request data).
pub async fn connect(target: &Target, token: &Token) -> Result<Upstream, String> {
    let mut request = target
        .url
        .clone()
        .into_client_request()
        .map_err(|e| describe(&e))?;
    request
        .headers_mut()
        .insert(AUTHORIZATION, token.authorization());
    let config = ws_config(target.max_frame_bytes);
    let connector = match &target.tls {
        Some(tls) => Connector::Rustls(tls.clone()),
        None => Connector::Plain,
    };
    let handshake = tokio_tungstenite::connect_async_tls_with_config(
        request,
        Some(config),
        true,
        Some(connector),
    );
    match tokio::time::timeout(target.connect_timeout, handshake).await {
        Ok(Ok((socket, _response))) => Ok(socket),
        Ok(Err(e)) => Err(describe(&e)),
        Err(_) => Err(format!(
            "upstream did not answer within {} s",
            target.connect_timeout.as_secs()
        )),
    }
}

fn describe(error: &WsError) -> String {
    match error {
        // rustls reports a refused certificate as an I/O error wrapping its own.
        WsError::Io(e) if e.get_ref().is_some_and(|e| e.is::<rustls::Error>()) => {
            "upstream TLS failed (certificate not trusted or handshake refused)".into()
        }
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

/// A short name for an I/O error's kind (no addresses, no request data).
pub fn io_kind(e: &io::Error) -> &'static str {
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
