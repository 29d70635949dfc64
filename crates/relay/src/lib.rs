//! `letta-relay`: a small server-side relay between browser pages and a self-hosted Letta Code
//! app server (native only; the `letta-relay` binary runs [`main`]).
//!
//! Browsers cannot reach the app server themselves: it authenticates the WebSocket upgrade only
//! with an `Authorization: Bearer` header, which a page cannot set, and without auth it refuses
//! any upgrade carrying `Origin`. The relay holds the token, serves the page, and relays `/ws`.
//! With `--cloud URL` it fronts Letta Cloud instead: it holds the API key and forwards the
//! page's `/v1/...` REST calls and its status-relay sockets with it, so a page (the demo's)
//! uses the Cloud backend with no key of its own:
//!
//! - `config`: the command line (clap); `secret`: the token and the ticket secret (never printed);
//! - `http`: routes, `/ticket`, `/healthz`, request log; `static_files`: the page's files
//!   (tower-http's `ServeDir` behind the relay's own path and symbolic-link guards);
//! - `origin`: the Host / Origin rules; `tickets`: the signed, stateless ticket cookies;
//! - `limits`: open sockets, in total and per client address; `listener`: the port, closed
//!   by the shutdown itself;
//! - `proxy`: the `/ws` checks and upgrade; `upstream`: the authenticated upstream socket
//!   (`ws://` or `wss://`); `pump`: frames both ways, close propagation, size and idle limits;
//! - `cloud`: the Cloud URLs and which headers cross; `rest`: the REST calls (`--cloud`);
//! - this module: start-up and the graceful shutdown on SIGTERM.

pub mod cloud;
pub mod config;
pub mod http;
pub mod limits;
pub mod listener;
pub mod log;
pub mod origin;
pub mod proxy;
pub mod pump;
pub mod rest;
pub mod secret;
pub mod static_files;
pub mod tickets;
pub mod upstream;

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::oneshot;

use self::config::{parse_args, Backend, Config};
use self::http::Relay;
use self::secret::{TicketSecret, Token, APP_SERVER_TOKEN, CLOUD_API_KEY};

/// Runs the relay with the process's arguments; returns the exit code.
pub fn main() -> ExitCode {
    let config = match parse_args(std::env::args_os()) {
        Ok(config) => config,
        Err(e) => {
            // `--help` and `--version` (stdout, 0) or a usage error (stderr, 2), clap's texts.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match start(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            log::log(&e);
            ExitCode::FAILURE
        }
    }
}

fn start(config: Config) -> Result<(), String> {
    let source = match config.backend {
        Backend::AppServer => APP_SERVER_TOKEN,
        Backend::Cloud => CLOUD_API_KEY,
    };
    let token = Token::load(config.token_file.as_deref(), source)?;
    let secret = TicketSecret::load(config.secret_file.as_deref())?;
    log::set_redaction(&token, &secret);
    if secret.is_generated() {
        log::log(
            "no --secret-file or LETTA_RELAY_SECRET: tickets are signed with a secret drawn for \
             this process (other replicas and restarts will not accept them)",
        );
    }
    let ttl = config.ttl;
    let listen = config.listen;
    let grace = config.shutdown_grace;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let relay = Arc::new(Relay::new(config, token, &secret)?);
    if let Some(dir) = &relay.static_dir {
        if !dir.index().is_file() {
            log::log("warning: the static directory has no index.html");
        }
    }
    runtime.block_on(async move {
        // Watch for SIGTERM / SIGINT before announcing the port: a signal sent as soon as the
        // ready line appears must start the graceful shutdown, not kill the process.
        let signals = Signals::install()?;
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        println!("relay listening on http://{addr}/");
        let (listener, close_listener) = listener::Closable::new(listener)
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let app = http::router(relay.clone()).into_make_service_with_connect_info::<SocketAddr>();
        // `tap_io` (a no-op) lets `ConnectInfo<SocketAddr>` read a listener other than
        // `TcpListener`.
        let server = axum::serve(listener.tap_io(|_| {}), app)
            .with_graceful_shutdown(async {
                let _ = stop_rx.await;
            })
            .into_future();
        let server = tokio::spawn(server);
        let why = signals.stop_requested(ttl).await;
        // Bounded: the accept loop is back between two connections at once.
        let _ = tokio::time::timeout(Duration::from_secs(1), close_listener.close()).await;
        let _ = stop_tx.send(());
        drain(&relay, server, why, grace).await;
        Ok::<(), String>(())
    })?;
    runtime.shutdown_background();
    Ok(())
}

/// The signals that stop the relay, watched from start-up on.
struct Signals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn install() -> Result<Self, String> {
        Ok(Self {
            term: signal(SignalKind::terminate())
                .map_err(|e| format!("cannot watch for SIGTERM: {e}"))?,
            int: signal(SignalKind::interrupt())
                .map_err(|e| format!("cannot watch for SIGINT: {e}"))?,
        })
    }

    /// Resolves on SIGTERM, SIGINT or the end of `--ttl-s`, naming which.
    async fn stop_requested(mut self, ttl: Option<Duration>) -> &'static str {
        let ttl = async {
            match ttl {
                Some(ttl) => tokio::time::sleep(ttl).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = self.term.recv() => "SIGTERM",
            _ = self.int.recv() => "SIGINT",
            () = ttl => "--ttl-s elapsed",
        }
    }
}

/// The graceful shutdown: the listener is closed already; open sockets get `grace` to end by
/// themselves, then the rest are closed with 1001 (each within the closing handshake's bound).
async fn drain(
    relay: &Relay,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    why: &str,
    grace: Duration,
) {
    log::log(&format!(
        "{why}: no longer accepting; {} open sockets get up to {} s to finish",
        relay.limits.open(),
        grace.as_secs()
    ));
    let finished = tokio::time::timeout(grace, async {
        let _ = server.await;
        relay.limits.wait_idle().await;
    })
    .await;
    if finished.is_err() {
        log::log(&format!(
            "shutdown grace over: closing {} sockets with 1001",
            relay.limits.open()
        ));
        relay.shutdown.send_replace(true);
        let bound = pump::CLOSE_GRACE * 2 + Duration::from_secs(1);
        if tokio::time::timeout(bound, relay.limits.wait_idle())
            .await
            .is_err()
        {
            log::log("some sockets did not finish closing; exiting anyway");
        }
    }
    log::log("shut down");
}
