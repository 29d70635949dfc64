//! Command-line options of `letta-relay`, parsed by clap's derive: the `--help` text is made from
//! the same declarations as the parser (so it lists every flag with its default), values are
//! checked where they are declared, and paths may be any OS string. Rules across options (the
//! backend, which key file goes with it) are checked after parsing, with their own messages.
//! clap rather than lexopt: with lexopt the usage text would stay a hand-kept copy of the parser
//! (a new flag could be left out of `--help`); clap's extra size and build time matter little for
//! a native server.
//!
//! No secret is ever a command-line value: the token, the API key and the ticket secret come from
//! a file or the environment (`secret.rs`), so neither argv nor `--help` holds one.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::http::Uri;
use clap::error::ErrorKind;
use clap::{value_parser, CommandFactory, Parser};

/// What `--help` says after the options: where the secrets come from.
const SECRETS_HELP: &str = "\
Secrets never go on the command line:
  the app server's token   --token-file PATH, else LETTA_APP_SERVER_TOKEN
  the Cloud API key        --api-key-file PATH, else LETTA_API_KEY
  the ticket secret        --secret-file PATH, else LETTA_RELAY_SECRET (32 bytes or more),
                           else one drawn at start for this process only";

/// Serves a page and relays its WebSocket to a Letta Code app server (or fronts Letta Cloud's
/// API), holding the secret the browser cannot.
#[derive(Parser, Debug)]
#[command(
    name = "letta-relay",
    version,
    max_term_width = 100,
    override_usage = "letta-relay --upstream ws[s]://HOST:PORT/ws [options]\n       \
                      letta-relay --cloud http[s]://HOST[:PORT] [options]",
    after_help = SECRETS_HELP
)]
struct Cli {
    /// Address to bind (port 0 picks a free one)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080", value_parser = parse_listen)]
    listen: SocketAddr,
    /// Serve the page from DIR (index.html for / and extension-less paths)
    #[arg(long = "static", value_name = "DIR")]
    static_dir: Option<PathBuf>,
    /// The Letta Code app server's WebSocket URL (ws:// or wss://)
    #[arg(long, value_name = "URL", value_parser = parse_upstream)]
    upstream: Option<Uri>,
    /// File holding the app server's bearer token (else LETTA_APP_SERVER_TOKEN)
    #[arg(long, value_name = "PATH")]
    token_file: Option<PathBuf>,
    /// Instead of an app server, front Letta Cloud's API at URL (e.g. https://api.letta.com):
    /// /v1/... is proxied with the API key, /v1/environments/<id>/status/ws relayed as a WebSocket
    // Text here, checked by `parse_cloud` after clap, which would quote a refused URL whole
    // (and so a password in it).
    #[arg(long, value_name = "URL")]
    cloud: Option<String>,
    /// With --cloud: file holding the API key (else LETTA_API_KEY)
    #[arg(long, value_name = "PATH")]
    api_key_file: Option<PathBuf>,
    /// With --cloud: seconds allowed for the response head of a REST call (then HTTP 504)
    #[arg(long, value_name = "N", default_value_t = 120)]
    #[arg(value_parser = value_parser!(u64).range(1..=3600))]
    upstream_request_timeout_s: u64,
    /// With --cloud: largest REST request body relayed (then HTTP 413)
    #[arg(long, value_name = "N", default_value_t = 64 << 20)]
    #[arg(value_parser = value_parser!(u64).range(1..=1 << 32))]
    max_body_bytes: u64,
    /// File holding the ticket secret (32 bytes or more), shared by replicas (else
    /// LETTA_RELAY_SECRET; else one drawn at start for this process only)
    #[arg(long, value_name = "PATH")]
    secret_file: Option<PathBuf>,
    /// PEM bundle of the CAs trusted for a wss:// or https:// upstream (default: the platform's
    /// root certificates)
    #[arg(long, value_name = "PATH")]
    ca_file: Option<PathBuf>,
    /// Another browser origin allowed to connect, scheme://host[:port] (repeatable)
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = normalize_origin)]
    allow_origins: Vec<String>,
    /// Lifetime of a connection ticket in seconds
    #[arg(long, value_name = "N", default_value_t = 300)]
    #[arg(value_parser = value_parser!(u64).range(1..=86_400))]
    ticket_ttl_s: u64,
    /// Largest frame or message relayed, both ways
    #[arg(long, value_name = "N", default_value_t = 16 << 20)]
    #[arg(value_parser = value_parser!(u64).range(1..=1 << 30))]
    max_frame_bytes: u64,
    /// Most relayed sockets open at once (then HTTP 503)
    #[arg(long, value_name = "N", default_value_t = 4096)]
    #[arg(value_parser = value_parser!(u64).range(1..=1 << 20))]
    max_sockets: u64,
    /// Most relayed sockets per client IP address, 0 = no limit (then HTTP 429)
    #[arg(long, value_name = "N", default_value_t = 64)]
    #[arg(value_parser = value_parser!(u64).range(0..=1 << 20))]
    max_sockets_per_client: u64,
    /// Seconds allowed to open the upstream socket (then close 1011)
    #[arg(long, value_name = "N", default_value_t = 10)]
    #[arg(value_parser = value_parser!(u64).range(1..=3600))]
    upstream_connect_timeout_s: u64,
    /// Close a socket after N seconds without a message either way (close 1001)
    #[arg(long, value_name = "N", default_value_t = 600)]
    #[arg(value_parser = value_parser!(u64).range(1..=604_800))]
    idle_timeout_s: u64,
    /// On SIGTERM, seconds open sockets get to finish before they are closed with 1001
    #[arg(long, value_name = "N", default_value_t = 30)]
    #[arg(value_parser = value_parser!(u64).range(0..=3600))]
    shutdown_grace_s: u64,
    /// Shut down (as on SIGTERM) after N seconds (for tests)
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..=315_360_000))]
    ttl_s: Option<u64>,
}

/// What the relay fronts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A Letta Code app server: `/ws` relayed to `--upstream` (a `ws://` or `wss://` URL).
    AppServer,
    /// Letta Cloud (`--cloud`): `/v1/...` proxied to that `http://` or `https://` base and the
    /// status-relay sockets relayed, each with the API key.
    Cloud,
}

/// Everything the relay was told on its command line (the token itself is loaded separately).
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to bind the HTTP server.
    pub listen: SocketAddr,
    /// Directory of the page's static files, if any.
    pub static_dir: Option<PathBuf>,
    /// What [`Config::upstream`] is.
    pub backend: Backend,
    /// The app server's WebSocket URL, or (Cloud) the API's base URL without a trailing slash.
    pub upstream: Uri,
    /// File to read the token (or Cloud API key) from; `None` means the environment variable.
    pub token_file: Option<PathBuf>,
    /// File to read the ticket secret from; `None` means the environment variable or a new one.
    pub secret_file: Option<PathBuf>,
    /// CA bundle for a `wss://` upstream; `None` means the platform's roots.
    pub ca_file: Option<PathBuf>,
    /// Extra browser origins (normalized: lowercase, no trailing slash).
    pub allow_origins: Vec<String>,
    /// Lifetime of a ticket.
    pub ticket_ttl: Duration,
    /// Largest frame or message accepted from either side.
    pub max_frame_bytes: usize,
    /// Most relayed sockets open at once.
    pub max_sockets: usize,
    /// Most relayed sockets per client address (`0`: no limit).
    pub max_sockets_per_client: usize,
    /// Time allowed to open the upstream socket (or, Cloud, a REST call's connection).
    pub upstream_connect_timeout: Duration,
    /// Cloud: time allowed for a REST call's response head.
    pub upstream_request_timeout: Duration,
    /// Cloud: largest REST request body relayed.
    pub max_body_bytes: usize,
    /// A socket without a message either way for this long is closed.
    pub idle_timeout: Duration,
    /// On shutdown, how long open sockets may go on before they are closed.
    pub shutdown_grace: Duration,
    /// Shut down after this long, if set.
    pub ttl: Option<Duration>,
}

/// Parses a command line (`args` starts with the program's name, as `std::env::args_os()`).
/// `--help` and `--version` come back as an `Err` too: its `print()` writes them to stdout and
/// its `exit_code()` is 0 (2 for a usage error).
pub fn parse_args<I, T>(args: I) -> Result<Config, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = Cli::try_parse_from(args)?;
    let usage = |kind, message: &str| Cli::command().error(kind, message);
    let cloud = match cli.cloud.as_deref().map(parse_cloud) {
        Some(Err(message)) => return Err(usage(ErrorKind::ValueValidation, message)),
        Some(Ok(uri)) => Some(uri),
        None => None,
    };
    let (backend, upstream, token_file) = match (cli.upstream, cloud) {
        (Some(_), Some(_)) => {
            return Err(usage(
                ErrorKind::ArgumentConflict,
                "--upstream and --cloud exclude each other",
            ))
        }
        (None, None) => {
            return Err(usage(
                ErrorKind::MissingRequiredArgument,
                "--upstream (or --cloud) is required",
            ))
        }
        (Some(_), None) if cli.api_key_file.is_some() => {
            return Err(usage(
                ErrorKind::ArgumentConflict,
                "--api-key-file goes with --cloud (the app server's is --token-file)",
            ))
        }
        (None, Some(_)) if cli.token_file.is_some() => {
            return Err(usage(
                ErrorKind::ArgumentConflict,
                "--token-file goes with --upstream (with --cloud: --api-key-file)",
            ))
        }
        (Some(url), None) => (Backend::AppServer, url, cli.token_file),
        (None, Some(url)) => (Backend::Cloud, url, cli.api_key_file),
    };
    // The ranges declared above bound every number, so these conversions cannot truncate.
    let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    Ok(Config {
        listen: cli.listen,
        static_dir: cli.static_dir,
        backend,
        upstream,
        token_file,
        secret_file: cli.secret_file,
        ca_file: cli.ca_file,
        allow_origins: cli.allow_origins,
        ticket_ttl: Duration::from_secs(cli.ticket_ttl_s),
        max_frame_bytes: size(cli.max_frame_bytes),
        max_sockets: size(cli.max_sockets),
        max_sockets_per_client: size(cli.max_sockets_per_client),
        upstream_connect_timeout: Duration::from_secs(cli.upstream_connect_timeout_s),
        upstream_request_timeout: Duration::from_secs(cli.upstream_request_timeout_s),
        max_body_bytes: size(cli.max_body_bytes),
        idle_timeout: Duration::from_secs(cli.idle_timeout_s),
        shutdown_grace: Duration::from_secs(cli.shutdown_grace_s),
        ttl: cli.ttl_s.map(Duration::from_secs),
    })
}

/// Accepts `IP:PORT` (`[::1]:PORT` for IPv6); no host names, so the bound address is certain.
fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    text.parse()
        .map_err(|_| "not an IP:PORT address".to_string())
}

/// Accepts `ws://host[:port][/path]` and `wss://…` (TLS, certificate verified). clap quotes the
/// value in front of the message.
fn parse_upstream(text: &str) -> Result<Uri, String> {
    let uri: Uri = text.parse().map_err(|_| "not a URL".to_string())?;
    if !matches!(uri.scheme_str(), Some("ws" | "wss")) {
        return Err("expected a ws:// or wss:// URL".into());
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err("no host in the URL".into());
    }
    Ok(uri)
}

/// Accepts `http://host[:port][/prefix]` and `https://…` for `--cloud` (no query, no user); the
/// result has no trailing slash, so that `/v1/...` paths append to it. Checked after clap
/// (which would quote the value) so that a password in a refused URL is never printed.
fn parse_cloud(text: &str) -> Result<Uri, &'static str> {
    let trimmed = text.trim().trim_end_matches('/');
    let uri: Uri = trimmed.parse().map_err(|_| "--cloud: not a URL")?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err("--cloud: expected an http:// or https:// URL");
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err("--cloud: no host in the URL");
    }
    if uri.query().is_some() || uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return Err("--cloud: expected no query and no user in the URL");
    }
    Ok(uri)
}

/// Normalizes an origin (`scheme://host[:port]`): lowercase, without a trailing slash.
fn normalize_origin(text: &str) -> Result<String, String> {
    let origin = text.trim().trim_end_matches('/').to_ascii_lowercase();
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', '@', ' ']) => Ok(origin),
        _ => Err("expected scheme://host[:port], e.g. http://localhost:5173".into()),
    }
}

#[cfg(test)]
#[path = "tests_config.rs"]
mod tests;
