//! Talking to the relay under test: raw HTTP/1.1 requests (so that paths reach it exactly as
//! written, `..` included) and WebSocket connections. Every response, handshake answer and
//! close reason is checked for the token on the way.

use std::io::{Read, Write};
use std::net::TcpStream as StdTcpStream;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::process::RelayProcess;

/// A test's WebSocket client.
pub type Client = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long any single network step of a test may take.
pub const STEP: Duration = Duration::from_secs(10);

/// A parsed HTTP response.
#[derive(Debug)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Header lines as `(lowercase name, value)`.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first value of header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The `name=value` pair of the ticket cookie this response sets.
    pub fn ticket_cookie(&self) -> String {
        let set = self.header("set-cookie").expect("a Set-Cookie header");
        let pair = set.split(';').next().unwrap().trim();
        assert!(pair.starts_with("letta_relay_ticket="), "{set}");
        pair.to_string()
    }
}

/// Why a WebSocket upgrade was refused.
#[derive(Debug)]
pub struct Refused {
    /// HTTP status.
    pub status: u16,
    /// Response body.
    pub body: String,
}

impl RelayProcess {
    /// Sends `request` as written and parses the answer (the connection is closed after it).
    pub fn raw(&self, request: &str) -> HttpResponse {
        self.raw_bytes(request.as_bytes())
    }

    /// [`RelayProcess::raw`] for a request with a binary body.
    pub fn raw_bytes(&self, request: &[u8]) -> HttpResponse {
        self.exchange(request, true)
    }

    /// `HEAD path`: the head only (its `Content-Length` is the body a GET would get).
    pub fn head(&self, path: &str) -> HttpResponse {
        let request = format!(
            "HEAD {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.authority()
        );
        let response = self.exchange(request.as_bytes(), false);
        assert!(response.body.is_empty(), "a HEAD answer has no body");
        response
    }

    /// Sends `request`, reads to the end and parses the answer; `with_body`: its
    /// `Content-Length` must be the length of the body read.
    fn exchange(&self, request: &[u8], with_body: bool) -> HttpResponse {
        let mut stream = StdTcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(STEP)).unwrap();
        stream.write_all(request).unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(&self.token),
            "the token leaked into a response:\n{text}"
        );
        let split = bytes
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a complete head");
        let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let body = bytes[split + 4..].to_vec();
        let response = HttpResponse {
            status,
            headers,
            body,
        };
        assert_ne!(
            response.header("transfer-encoding"),
            Some("chunked"),
            "tests read whole bodies"
        );
        if let Some(length) = response.header("content-length").filter(|_| with_body) {
            assert_eq!(
                length.parse::<usize>().unwrap(),
                response.body.len(),
                "{head}"
            );
        }
        response
    }

    /// `GET path` with `Host: 127.0.0.1:<port>` unless `headers` name another Host.
    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> HttpResponse {
        let mut request = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            request.push_str(&format!("Host: {}\r\n", self.authority()));
        }
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        self.raw(&request)
    }

    /// A fresh ticket cookie pair from `GET /ticket`.
    pub fn fresh_ticket(&self) -> String {
        let response = self.get("/ticket", &[]);
        assert_eq!(response.status, 200, "{}", response.text());
        response.ticket_cookie()
    }

    /// Opens `/ws` with the given extra request headers.
    pub async fn ws(&self, headers: &[(&str, &str)]) -> Result<Client, Refused> {
        self.ws_path("/ws", headers).await
    }

    /// Opens `path` (with its query) as a WebSocket with the given extra request headers.
    pub async fn ws_path(&self, path: &str, headers: &[(&str, &str)]) -> Result<Client, Refused> {
        let mut request = format!("ws://{}{path}", self.authority())
            .into_client_request()
            .unwrap();
        for (name, value) in headers {
            request.headers_mut().insert(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        let config = WebSocketConfig::default()
            .max_message_size(Some(64 << 20))
            .max_frame_size(Some(64 << 20));
        let connect = tokio_tungstenite::connect_async_with_config(request, Some(config), false);
        match tokio::time::timeout(STEP, connect)
            .await
            .expect("the upgrade answers in time")
        {
            Ok((client, response)) => {
                assert!(!format!("{:?}", response.headers()).contains(&self.token));
                Ok(client)
            }
            Err(WsError::Http(response)) => {
                let body = String::from_utf8_lossy(response.body().as_deref().unwrap_or_default())
                    .into_owned();
                let all = format!("{:?} {body}", response.headers());
                assert!(
                    !all.contains(&self.token),
                    "the token leaked into a refusal: {all}"
                );
                Err(Refused {
                    status: response.status().as_u16(),
                    body,
                })
            }
            Err(e) => panic!("upgrade failed unexpectedly: {e}"),
        }
    }

    /// Opens `/ws` as the page would: its own Origin and a fresh ticket.
    pub async fn ws_as_page(&self) -> Client {
        let ticket = self.fresh_ticket();
        let origin = self.origin();
        self.ws(&[("Origin", origin.as_str()), ("Cookie", ticket.as_str())])
            .await
            .expect("the page's upgrade is accepted")
    }

    /// Reads until a close frame; returns its code (1005 when it has none) and reason, checking
    /// that the reason does not contain the token.
    pub async fn next_close(&self, client: &mut Client) -> (u16, String) {
        let close = async {
            loop {
                match client.next().await {
                    Some(Ok(Message::Close(Some(frame)))) => {
                        return (u16::from(frame.code), frame.reason.as_str().to_string())
                    }
                    Some(Ok(Message::Close(None))) => return (1005, String::new()),
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => panic!("socket failed before a close frame: {e}"),
                    None => panic!("socket ended without a close frame"),
                }
            }
        };
        let (code, reason) = tokio::time::timeout(STEP, close)
            .await
            .expect("a close frame in time");
        assert!(
            !reason.contains(&self.token),
            "the token leaked into a close reason: {reason}"
        );
        (code, reason)
    }
}

/// The next data message (text or binary) on `client`.
pub async fn next_data(client: &mut Client) -> Message {
    let read = async {
        loop {
            match client.next().await {
                Some(Ok(m @ (Message::Text(_) | Message::Binary(_)))) => return m,
                Some(Ok(Message::Close(frame))) => panic!("closed instead: {frame:?}"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("socket failed: {e}"),
                None => panic!("socket ended"),
            }
        }
    };
    tokio::time::timeout(STEP, read)
        .await
        .expect("a message in time")
}
