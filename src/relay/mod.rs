//! `letta-relay`: a small server-side relay between browser pages and a self-hosted Letta Code
//! app server (native only; the `letta-relay` binary runs [`main`]).
//!
//! Browsers cannot reach the app server themselves: it authenticates the WebSocket upgrade only
//! with an `Authorization: Bearer` header, which a page cannot set, and without auth it refuses
//! any upgrade carrying `Origin`. The relay holds the token, serves the page, and relays `/ws`:
//!
//! - `config`: the command line; `secret`: the token (never printed);
//! - `http`: routes, static files, `/ticket`, `/healthz`, request log;
//! - `origin`: the Host / Origin rules; `tickets`: the short-lived ticket cookies;
//! - `proxy`: the `/ws` checks and upgrade; `upstream`: the authenticated upstream socket;
//!   `pump`: frames both ways, close propagation, size limits.

pub mod config;
pub mod http;
pub mod log;
pub mod origin;
pub mod proxy;
pub mod pump;
pub mod secret;
pub mod static_files;
pub mod tickets;
pub mod upstream;

use std::future::IntoFuture;
use std::process::ExitCode;
use std::sync::Arc;

use self::config::{parse_args, Command, Config, USAGE};
use self::http::Relay;
use self::secret::Token;

/// Runs the relay with the process's arguments; returns the exit code.
pub fn main() -> ExitCode {
    let config = match parse_args(std::env::args().skip(1)) {
        Ok(Command::Run(config)) => *config,
        Ok(Command::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("letta-relay: {e}\n\n{USAGE}");
            return ExitCode::from(2);
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
    let token = Token::load(config.token_file.as_deref())?;
    log::set_redaction(&token);
    let ttl = config.ttl;
    let listen = config.listen;
    let relay = Arc::new(Relay::new(config, token)?);
    if let Some(dir) = &relay.static_dir {
        if !dir.index().is_file() {
            log::log("warning: the static directory has no index.html");
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        println!("relay listening on http://{addr}/");
        let server = axum::serve(listener, http::router(relay)).into_future();
        match ttl {
            None => server.await.map_err(|e| format!("server failed: {e}")),
            Some(ttl) => tokio::select! {
                result = server => result.map_err(|e| format!("server failed: {e}")),
                () = tokio::time::sleep(ttl) => {
                    log::log("--ttl-s elapsed, exiting");
                    Ok(())
                }
            },
        }
    })?;
    // Sessions still open are cut here; `--ttl-s` is for tests.
    runtime.shutdown_background();
    Ok(())
}
