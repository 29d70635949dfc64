//! A loopback stand-in for the app server: accepts a WebSocket only with
//! `Authorization: Bearer <token>` and without `Origin` (as the real one requires of the relay),
//! records every handshake and close, and echoes frames.
//!
//! Text commands: `big` → answers with a text message of `big_size` bytes; `close-me` → closes
//! with 4001 "server bye"; `drop-me` → drops the connection without a close frame. Everything
//! else (text or binary) is echoed. [`FakeUpstream::start_tls`] serves the same over TLS.

use std::sync::{Arc, Mutex};

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;

/// One upgrade request the fake upstream saw.
#[derive(Debug, Clone)]
pub struct Handshake {
    /// Its `Authorization` header.
    pub authorization: Option<String>,
    /// Its `Origin` header.
    pub origin: Option<String>,
    /// Whether it was accepted.
    pub accepted: bool,
}

/// What the fake upstream saw.
#[derive(Debug, Default)]
pub struct Seen {
    /// Every upgrade request.
    pub handshakes: Vec<Handshake>,
    /// Every close frame received: code (1005 when none) and reason.
    pub closes: Vec<(u16, String)>,
}

/// A running fake upstream (its task ends with the test's runtime).
pub struct FakeUpstream {
    /// `ws://127.0.0.1:<port>/ws`.
    pub url: String,
    /// What it saw so far.
    pub seen: Arc<Mutex<Seen>>,
}

impl FakeUpstream {
    /// Starts it on a free loopback port, expecting `token`.
    pub async fn start(token: &str, big_size: usize) -> FakeUpstream {
        Self::listen(token, big_size, None).await
    }

    /// Starts it behind TLS (`wss://127.0.0.1:<port>/ws`) with `acceptor`'s certificate.
    pub async fn start_tls(token: &str, acceptor: TlsAcceptor) -> FakeUpstream {
        Self::listen(token, 0, Some(acceptor)).await
    }

    async fn listen(token: &str, big_size: usize, tls: Option<TlsAcceptor>) -> FakeUpstream {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let scheme = if tls.is_some() { "wss" } else { "ws" };
        let url = format!("{scheme}://{}/ws", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Seen::default()));
        let expected = format!("Bearer {token}");
        let state = seen.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (expected, state) = (expected.clone(), state.clone());
                match tls.clone() {
                    None => tokio::spawn(serve(stream, expected, state, big_size)),
                    Some(acceptor) => tokio::spawn(async move {
                        // A client that does not trust the certificate aborts here.
                        if let Ok(stream) = acceptor.accept(stream).await {
                            serve(stream, expected, state, big_size).await;
                        }
                    }),
                };
            }
        });
        FakeUpstream { url, seen }
    }

    /// A snapshot of the handshakes so far.
    pub fn handshakes(&self) -> Vec<Handshake> {
        self.seen.lock().unwrap().handshakes.clone()
    }

    /// The close frames received so far.
    pub fn closes(&self) -> Vec<(u16, String)> {
        self.seen.lock().unwrap().closes.clone()
    }

    /// Waits (briefly) until `n` close frames were received.
    pub async fn wait_for_closes(&self, n: usize) -> Vec<(u16, String)> {
        for _ in 0..200 {
            if self.closes().len() >= n {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        self.closes()
    }
}

// tungstenite's handshake callback returns a whole HTTP response as its error.
#[allow(clippy::result_large_err)]
async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    expected: String,
    seen: Arc<Mutex<Seen>>,
    big_size: usize,
) {
    let record = seen.clone();
    let check = move |request: &Request, response: Response| -> Result<Response, ErrorResponse> {
        let header = |name: &str| {
            request
                .headers()
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let authorization = header("authorization");
        let origin = header("origin");
        let accepted = authorization.as_deref() == Some(expected.as_str()) && origin.is_none();
        record.lock().unwrap().handshakes.push(Handshake {
            authorization,
            origin,
            accepted,
        });
        if accepted {
            Ok(response)
        } else {
            let mut refusal = ErrorResponse::new(Some("invalid websocket bearer token".into()));
            *refusal.status_mut() = StatusCode::UNAUTHORIZED;
            Err(refusal)
        }
    };
    let config = WebSocketConfig::default()
        .max_message_size(Some(64 << 20))
        .max_frame_size(Some(64 << 20));
    let Ok(mut socket) =
        tokio_tungstenite::accept_hdr_async_with_config(stream, check, Some(config)).await
    else {
        return;
    };
    while let Some(Ok(message)) = socket.next().await {
        let reply = match message {
            Message::Text(text) if text.as_str() == "big" => Message::text("x".repeat(big_size)),
            Message::Text(text) if text.as_str() == "close-me" => {
                Message::Close(Some(CloseFrame {
                    code: CloseCode::from(4001),
                    reason: "server bye".into(),
                }))
            }
            Message::Text(text) if text.as_str() == "drop-me" => return,
            m @ (Message::Text(_) | Message::Binary(_)) => m,
            Message::Close(frame) => {
                let close = frame.map_or((1005, String::new()), |f| {
                    (u16::from(f.code), f.reason.as_str().to_string())
                });
                seen.lock().unwrap().closes.push(close);
                continue;
            }
            _ => continue,
        };
        if socket.send(reply).await.is_err() {
            break;
        }
    }
}
