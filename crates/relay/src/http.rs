//! The HTTP side: routes, the page's static files (with a ticket cookie on `index.html`),
//! `/ticket`, `/healthz`, `/relay-config` (which backend the page should use), and one log
//! line per request.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{
    ACCESS_CONTROL_ALLOW_CREDENTIALS, ACCESS_CONTROL_ALLOW_ORIGIN, CACHE_CONTROL, CONTENT_TYPE,
    SET_COOKIE, VARY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;

use tokio::sync::watch;

use super::cloud::CloudBase;
use super::config::{Backend, Config};
use super::limits::Limits;
use super::log::{clip, log};
use super::origin::OriginPolicy;
use super::proxy;
use super::rest::{self, CloudUpstream};
use super::secret::{TicketSecret, Token};
use super::static_files::{self, Route, StaticDir};
use super::tickets::{set_cookie, Tickets};
use super::upstream::{self, Target};

/// Everything the request handlers share.
#[derive(Debug)]
pub struct Relay {
    /// The command-line options.
    pub config: Config,
    /// The upstream bearer token.
    pub token: Token,
    /// The Host / Origin rules.
    pub policy: OriginPolicy,
    /// The page's files, when `--static` was given.
    pub static_dir: Option<StaticDir>,
    /// Issues and checks the signed tickets (no state).
    pub tickets: Tickets,
    /// The open-socket counts and limits.
    pub limits: Arc<Limits>,
    /// How to reach the upstream socket (with `--cloud`: its TLS and limits; the URL is per
    /// socket).
    pub target: Target,
    /// With `--cloud`: where REST calls and status sockets go.
    pub cloud: Option<CloudUpstream>,
    /// Turns true when open sockets must close (the end of a shutdown's grace period).
    pub shutdown: watch::Sender<bool>,
}

impl Relay {
    /// Builds the shared state (opens the static directory, loads the CAs for `wss://`).
    pub fn new(config: Config, token: Token, secret: &TicketSecret) -> Result<Self, String> {
        let static_dir = match &config.static_dir {
            Some(dir) => Some(StaticDir::open(dir)?),
            None => None,
        };
        let tls = match config.upstream.scheme_str() {
            Some("wss" | "https") => Some(upstream::tls_config(config.ca_file.as_deref())?),
            _ => None,
        };
        let cloud = match config.backend {
            Backend::AppServer => None,
            Backend::Cloud => Some(CloudUpstream::new(
                CloudBase::new(&config.upstream)?,
                tls.as_ref(),
            )),
        };
        Ok(Self {
            policy: OriginPolicy::new(config.allow_origins.clone()),
            tickets: Tickets::new(secret, config.ticket_ttl),
            limits: Limits::new(config.max_sockets, config.max_sockets_per_client),
            target: Target {
                url: config.upstream.clone(),
                tls,
                connect_timeout: config.upstream_connect_timeout,
                max_frame_bytes: config.max_frame_bytes,
            },
            shutdown: watch::channel(false).0,
            cloud,
            static_dir,
            token,
            config,
        })
    }

    /// Issues a ticket: its `Set-Cookie` value and its expiry in ms since the Unix epoch.
    fn issue_ticket(&self) -> Option<(HeaderValue, u64)> {
        let ticket = match self.tickets.issue(SystemTime::now()) {
            Ok(ticket) => ticket,
            Err(e) => {
                log(&format!("cannot draw a random ticket: {e}"));
                return None;
            }
        };
        let cookie = HeaderValue::from_str(&set_cookie(&ticket.value, self.tickets.ttl())).ok()?;
        Some((cookie, ticket.expires_at_ms))
    }
}

/// The relay's routes: `/ws` for an app server, or with `--cloud` the Cloud API under `/v1/`.
pub fn router(relay: Arc<Relay>) -> Router {
    let routes = Router::new()
        .route("/healthz", get(healthz))
        .route("/ticket", get(ticket))
        .route("/relay-config", get(relay_config));
    let routes = match relay.config.backend {
        Backend::AppServer => routes.route("/ws", get(proxy::upgrade)),
        Backend::Cloud => routes
            .route(
                "/v1/environments/{connection}/status/ws",
                get(proxy::status_upgrade),
            )
            .route("/v1/{*path}", any(rest::forward)),
    };
    routes
        .fallback(static_file)
        .layer(middleware::from_fn(log_request))
        .with_state(relay)
}

/// A plain-text response.
pub fn text(status: StatusCode, body: &'static str) -> Response {
    let mut response = (status, body).into_response();
    no_store(response.headers_mut());
    response
}

fn no_store(headers: &mut HeaderMap) {
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = clip(request.uri().path(), 160);
    let started = Instant::now();
    let response = next.run(request).await;
    let ms = started.elapsed().as_millis();
    log(&format!(
        "{method} {path} {} {ms}ms",
        response.status().as_u16()
    ));
    response
}

async fn healthz() -> Response {
    text(StatusCode::OK, "ok")
}

/// `{"backend": "remote" | "cloud"}`: how the served page should build its client (the remote
/// backend on `/ws`, or the Cloud backend with the relay's origin as `apiBaseUrl`).
async fn relay_config(State(relay): State<Arc<Relay>>) -> Response {
    let backend = match relay.config.backend {
        Backend::AppServer => "remote",
        Backend::Cloud => "cloud",
    };
    let mut response = (
        [(CONTENT_TYPE, "application/json")],
        format!("{{\"backend\":\"{backend}\"}}"),
    )
        .into_response();
    no_store(response.headers_mut());
    response
}

async fn ticket(State(relay): State<Arc<Relay>>, headers: HeaderMap) -> Response {
    let cors_origin = match relay.policy.check(&headers) {
        Ok(origin) => origin,
        Err(refusal) => return text(StatusCode::FORBIDDEN, refusal.message()),
    };
    let Some((cookie, expires_at)) = relay.issue_ticket() else {
        return text(StatusCode::INTERNAL_SERVER_ERROR, "cannot issue a ticket");
    };
    let mut response = (
        [(CONTENT_TYPE, "application/json")],
        format!("{{\"expiresAt\":{expires_at}}}"),
    )
        .into_response();
    let h = response.headers_mut();
    h.insert(SET_COOKIE, cookie);
    no_store(h);
    if let Some(origin) = cors_origin.and_then(|o| HeaderValue::from_str(o).ok()) {
        h.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        h.insert(
            ACCESS_CONTROL_ALLOW_CREDENTIALS,
            HeaderValue::from_static("true"),
        );
        h.insert(VARY, HeaderValue::from_static("Origin"));
    }
    response
}

/// The page's files (see `static_files`): `/` and `/index.html` are the page; an extension-less
/// path that names no file is the page too (an app route); anything else `ServeDir` serves or 404.
async fn static_file(State(relay): State<Arc<Relay>>, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return text(StatusCode::METHOD_NOT_ALLOWED, "method not allowed");
    }
    if let Err(refusal) = relay.policy.check(request.headers()) {
        return text(StatusCode::FORBIDDEN, refusal.message());
    }
    let Some(dir) = &relay.static_dir else {
        return text(StatusCode::NOT_FOUND, "not found");
    };
    match static_files::route(request.uri().path()) {
        Route::Index => index(&relay, dir).await,
        Route::File { name, app_route } => match dir.serve(request, &name).await {
            Some(response) => response,
            None if app_route => index(&relay, dir).await,
            None => text(StatusCode::NOT_FOUND, "not found"),
        },
        Route::Refused => text(StatusCode::NOT_FOUND, "not found"),
    }
}

/// The page, with a fresh ticket cookie.
async fn index(relay: &Relay, dir: &StaticDir) -> Response {
    let Ok(bytes) = tokio::fs::read(dir.index()).await else {
        return text(
            StatusCode::NOT_FOUND,
            "no index.html in the static directory",
        );
    };
    let mut response = Response::new(Body::from(bytes));
    let h = response.headers_mut();
    h.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    no_store(h);
    match relay.issue_ticket() {
        Some((cookie, _)) => {
            h.insert(SET_COOKIE, cookie);
        }
        None => return text(StatusCode::INTERNAL_SERVER_ERROR, "cannot issue a ticket"),
    }
    response
}
