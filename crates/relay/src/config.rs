//! Command-line options of `letta-relay`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::http::Uri;

/// The usage text printed by `--help` and after a bad option.
pub const USAGE: &str = "\
usage: letta-relay --upstream ws[s]://HOST:PORT/ws [options]
       letta-relay --cloud http[s]://HOST[:PORT] [options]

  --listen ADDR           address to bind (default 127.0.0.1:8080; port 0 picks a free one)
  --static DIR            serve the page from DIR (index.html for / and extension-less paths)
  --upstream URL          the Letta Code app server's WebSocket URL (ws:// or wss://)
  --token-file PATH       file holding the app server's bearer token
                          (else the environment variable LETTA_APP_SERVER_TOKEN)
  --cloud URL             instead of an app server, front Letta Cloud's API at URL
                          (e.g. https://api.letta.com): /v1/... is proxied with the API key,
                          /v1/environments/<id>/status/ws relayed as a WebSocket
  --api-key-file PATH     with --cloud: file holding the API key (else LETTA_API_KEY)
  --upstream-request-timeout-s N
                          with --cloud: time allowed for the response head of a REST call
                          (default 120; then HTTP 504)
  --max-body-bytes N      with --cloud: largest REST request body relayed (default 67108864;
                          then HTTP 413)
  --secret-file PATH      file holding the ticket secret (32 bytes or more), shared by replicas
                          (else LETTA_RELAY_SECRET; else one drawn at start for this process only)
  --ca-file PATH          PEM bundle of the CAs trusted for a wss:// or https:// upstream
                          (default: the platform's root certificates)
  --allow-origin ORIGIN   another browser origin allowed to connect (repeatable)
  --ticket-ttl-s N        lifetime of a connection ticket in seconds (default 300)
  --max-frame-bytes N     largest frame or message relayed, both ways (default 16777216)
  --max-sockets N         most relayed sockets open at once (default 4096; then HTTP 503)
  --max-sockets-per-client N
                          most per client IP address (default 64, 0 = no limit; then HTTP 429)
  --upstream-connect-timeout-s N
                          time allowed to open the upstream socket (default 10; then close 1011)
  --idle-timeout-s N      close a socket after N seconds without a message either way
                          (default 600; close 1001)
  --shutdown-grace-s N    on SIGTERM, time open sockets get to finish before they are closed
                          with 1001 (default 30)
  --ttl-s N               shut down (as on SIGTERM) after N seconds (for tests)
  --help                  print this text";

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

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Run the relay.
    Run(Box<Config>),
    /// Print the usage text.
    Help,
}

/// Parses the arguments after the program name.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut listen: SocketAddr = ([127, 0, 0, 1], 8080).into();
    let mut static_dir = None;
    let mut upstream = None;
    let mut cloud = None;
    let mut token_file = None;
    let mut api_key_file = None;
    let mut upstream_request_timeout_s: u64 = 120;
    let mut max_body_bytes: u64 = 64 << 20;
    let mut secret_file = None;
    let mut ca_file = None;
    let mut max_sockets: u64 = 4096;
    let mut max_sockets_per_client: u64 = 64;
    let mut upstream_connect_timeout_s: u64 = 10;
    let mut idle_timeout_s: u64 = 600;
    let mut shutdown_grace_s: u64 = 30;
    let mut allow_origins = Vec::new();
    let mut ticket_ttl_s: u64 = 300;
    let mut max_frame_bytes: usize = 16 * 1024 * 1024;
    let mut ttl = None;

    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_owned(), Some(value.to_owned()))
            }
            _ => (arg.clone(), None),
        };
        if name == "--help" || name == "-h" {
            return Ok(Command::Help);
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match name.as_str() {
            "--listen" => {
                let text = value()?;
                listen = text
                    .parse()
                    .map_err(|_| format!("--listen: not an IP:PORT address: {text}"))?;
            }
            "--static" => static_dir = Some(PathBuf::from(value()?)),
            "--upstream" => upstream = Some(parse_upstream(&value()?)?),
            "--token-file" => token_file = Some(PathBuf::from(value()?)),
            "--cloud" => cloud = Some(parse_cloud(&value()?)?),
            "--api-key-file" => api_key_file = Some(PathBuf::from(value()?)),
            "--upstream-request-timeout-s" => {
                upstream_request_timeout_s = parse_number(&name, &value()?, 1, 3600)?
            }
            "--max-body-bytes" => max_body_bytes = parse_number(&name, &value()?, 1, 1 << 32)?,
            "--secret-file" => secret_file = Some(PathBuf::from(value()?)),
            "--ca-file" => ca_file = Some(PathBuf::from(value()?)),
            "--max-sockets" => max_sockets = parse_number(&name, &value()?, 1, 1 << 20)?,
            "--max-sockets-per-client" => {
                max_sockets_per_client = parse_number(&name, &value()?, 0, 1 << 20)?
            }
            "--upstream-connect-timeout-s" => {
                upstream_connect_timeout_s = parse_number(&name, &value()?, 1, 3600)?
            }
            "--idle-timeout-s" => idle_timeout_s = parse_number(&name, &value()?, 1, 604_800)?,
            "--shutdown-grace-s" => shutdown_grace_s = parse_number(&name, &value()?, 0, 3600)?,
            "--allow-origin" => allow_origins.push(normalize_origin(&value()?)?),
            "--ticket-ttl-s" => ticket_ttl_s = parse_number(&name, &value()?, 1, 86_400)?,
            "--max-frame-bytes" => {
                max_frame_bytes = parse_number(&name, &value()?, 1, 1 << 30)? as usize;
            }
            "--ttl-s" => {
                ttl = Some(Duration::from_secs(parse_number(
                    &name,
                    &value()?,
                    1,
                    315_360_000, // ten years
                )?))
            }
            _ => return Err(format!("unknown option: {name}")),
        }
    }
    let (backend, upstream, token_file) = match (upstream, cloud) {
        (Some(_), Some(_)) => return Err("--upstream and --cloud exclude each other".into()),
        (None, None) => return Err("--upstream (or --cloud) is required".into()),
        (Some(_), None) if api_key_file.is_some() => {
            return Err(
                "--api-key-file goes with --cloud (the app server's is --token-file)".into(),
            )
        }
        (None, Some(_)) if token_file.is_some() => {
            return Err("--token-file goes with --upstream (with --cloud: --api-key-file)".into())
        }
        (Some(url), None) => (Backend::AppServer, url, token_file),
        (None, Some(url)) => (Backend::Cloud, url, api_key_file),
    };
    Ok(Command::Run(Box::new(Config {
        listen,
        static_dir,
        backend,
        upstream,
        token_file,
        secret_file,
        ca_file,
        allow_origins,
        ticket_ttl: Duration::from_secs(ticket_ttl_s),
        max_frame_bytes,
        max_sockets: max_sockets as usize,
        max_sockets_per_client: max_sockets_per_client as usize,
        upstream_connect_timeout: Duration::from_secs(upstream_connect_timeout_s),
        upstream_request_timeout: Duration::from_secs(upstream_request_timeout_s),
        max_body_bytes: max_body_bytes as usize,
        idle_timeout: Duration::from_secs(idle_timeout_s),
        shutdown_grace: Duration::from_secs(shutdown_grace_s),
        ttl,
    })))
}

fn parse_number(name: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{name}: expected a whole number from {min} to {max}, got {text}"
        )),
    }
}

/// Accepts `ws://host[:port][/path]` and `wss://…` (TLS, certificate verified).
fn parse_upstream(text: &str) -> Result<Uri, String> {
    let uri: Uri = text
        .parse()
        .map_err(|_| format!("--upstream: not a URL: {text}"))?;
    match uri.scheme_str() {
        Some("ws" | "wss") => {}
        _ => {
            return Err(format!(
                "--upstream: expected a ws:// or wss:// URL, got {text}"
            ))
        }
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("--upstream: no host in {text}"));
    }
    Ok(uri)
}

/// Accepts `http://host[:port][/prefix]` and `https://…` for `--cloud` (no query); the result
/// has no trailing slash, so that `/v1/...` paths append to it.
fn parse_cloud(text: &str) -> Result<Uri, String> {
    let trimmed = text.trim().trim_end_matches('/');
    let uri: Uri = trimmed
        .parse()
        .map_err(|_| format!("--cloud: not a URL: {text}"))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err(format!(
            "--cloud: expected an http:// or https:// URL, got {text}"
        ));
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("--cloud: no host in {text}"));
    }
    if uri.query().is_some() || uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return Err(format!(
            "--cloud: expected no query and no user in the URL, got {text}"
        ));
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
        _ => Err(format!(
            "--allow-origin: expected scheme://host[:port], e.g. http://localhost:5173, got {text}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Config, String> {
        match parse_args(args.iter().map(|s| s.to_string()))? {
            Command::Run(config) => Ok(*config),
            Command::Help => Err("help".into()),
        }
    }

    #[test]
    fn defaults_and_every_option() {
        let c = run(&["--upstream", "ws://127.0.0.1:4500/ws"]).unwrap();
        assert_eq!(c.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.ticket_ttl, Duration::from_secs(300));
        assert_eq!(c.max_frame_bytes, 16_777_216);
        assert!(c.static_dir.is_none() && c.token_file.is_none() && c.ttl.is_none());
        assert!(c.secret_file.is_none() && c.ca_file.is_none());
        assert_eq!((c.max_sockets, c.max_sockets_per_client), (4096, 64));
        assert_eq!(c.upstream_connect_timeout, Duration::from_secs(10));
        assert_eq!(c.idle_timeout, Duration::from_secs(600));
        assert_eq!(c.shutdown_grace, Duration::from_secs(30));

        let c = run(&[
            "--listen=127.0.0.1:0",
            "--static",
            "www",
            "--upstream=ws://localhost:4500/ws",
            "--token-file",
            "/tmp/t",
            "--allow-origin",
            "HTTP://Localhost:5173/",
            "--allow-origin=https://example.com",
            "--ticket-ttl-s",
            "1",
            "--max-frame-bytes",
            "1024",
            "--ttl-s",
            "9",
            "--secret-file=/tmp/s",
            "--ca-file",
            "/tmp/ca.pem",
            "--max-sockets",
            "7",
            "--max-sockets-per-client",
            "0",
            "--upstream-connect-timeout-s",
            "2",
            "--idle-timeout-s",
            "3",
            "--shutdown-grace-s",
            "0",
        ])
        .unwrap();
        assert_eq!(c.secret_file.unwrap(), PathBuf::from("/tmp/s"));
        assert_eq!(c.ca_file.unwrap(), PathBuf::from("/tmp/ca.pem"));
        assert_eq!((c.max_sockets, c.max_sockets_per_client), (7, 0));
        assert_eq!(c.upstream_connect_timeout, Duration::from_secs(2));
        assert_eq!(c.idle_timeout, Duration::from_secs(3));
        assert_eq!(c.shutdown_grace, Duration::ZERO);
        assert_eq!(c.listen.port(), 0);
        assert_eq!(c.static_dir.unwrap(), PathBuf::from("www"));
        assert_eq!(c.upstream.to_string(), "ws://localhost:4500/ws");
        assert_eq!(
            c.allow_origins,
            ["http://localhost:5173", "https://example.com"]
        );
        assert_eq!(c.ticket_ttl, Duration::from_secs(1));
        assert_eq!(c.max_frame_bytes, 1024);
        assert_eq!(c.ttl, Some(Duration::from_secs(9)));
    }

    #[test]
    fn bad_options_are_refused() {
        assert!(run(&[])
            .unwrap_err()
            .contains("--upstream (or --cloud) is required"));
        assert!(run(&["--upstream", "http://x/ws"]).is_err());
        assert_eq!(
            run(&["--upstream", "wss://x/ws"])
                .unwrap()
                .upstream
                .scheme_str(),
            Some("wss")
        );
        assert!(run(&["--upstream", "ws://x/ws", "--max-sockets", "0"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--idle-timeout-s", "0"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--listen", "localhost"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--ticket-ttl-s", "0"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--allow-origin", "localhost"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--allow-origin", "http://a/b"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--frobnicate"]).is_err());
        assert!(run(&["--upstream"]).unwrap_err().contains("needs a value"));
        assert_eq!(run(&["--help"]).unwrap_err(), "help");
    }

    #[test]
    fn cloud_mode_takes_an_http_base_and_its_own_key_file() {
        let c = run(&["--cloud", "https://api.letta.com/"]).unwrap();
        assert_eq!(c.backend, Backend::Cloud);
        assert_eq!(c.upstream.to_string(), "https://api.letta.com/");
        assert_eq!(c.upstream_request_timeout, Duration::from_secs(120));
        assert_eq!(c.max_body_bytes, 64 << 20);
        let c = run(&[
            "--cloud=http://127.0.0.1:9/prefix/",
            "--api-key-file",
            "/tmp/k",
            "--upstream-request-timeout-s",
            "5",
            "--max-body-bytes",
            "10",
        ])
        .unwrap();
        assert_eq!(c.upstream.path(), "/prefix");
        assert_eq!(c.token_file.unwrap(), PathBuf::from("/tmp/k"));
        assert_eq!(c.upstream_request_timeout, Duration::from_secs(5));
        assert_eq!(c.max_body_bytes, 10);
        let ws = run(&["--upstream", "ws://x/ws"]).unwrap();
        assert_eq!(ws.backend, Backend::AppServer);

        for (args, needle) in [
            (&["--cloud", "ws://x"][..], "http:// or https://"),
            (&["--cloud", "https://a/?k=1"][..], "no query"),
            (&["--cloud", "https://me:pw@a"][..], "no query and no user"),
            (
                &["--cloud", "https://a", "--upstream", "ws://x/ws"][..],
                "exclude",
            ),
            (
                &["--cloud", "https://a", "--token-file", "/t"][..],
                "--api-key-file",
            ),
            (
                &["--upstream", "ws://x/ws", "--api-key-file", "/t"][..],
                "--token-file",
            ),
            (
                &["--cloud", "https://a", "--max-body-bytes", "0"][..],
                "--max-body-bytes",
            ),
        ] {
            let err = run(args).unwrap_err();
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    }
}
