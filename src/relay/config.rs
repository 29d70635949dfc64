//! Command-line options of `letta-relay`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::http::Uri;

/// The usage text printed by `--help` and after a bad option.
pub const USAGE: &str = "\
usage: letta-relay --upstream ws://HOST:PORT/ws [options]

  --listen ADDR           address to bind (default 127.0.0.1:8080; port 0 picks a free one)
  --static DIR            serve the page from DIR (index.html for / and extension-less paths)
  --upstream URL          the Letta Code app server's WebSocket URL (ws://)
  --token-file PATH       file holding the app server's bearer token
                          (else the environment variable LETTA_APP_SERVER_TOKEN)
  --allow-origin ORIGIN   another browser origin allowed to connect (repeatable)
  --ticket-ttl-s N        lifetime of a connection ticket in seconds (default 300)
  --max-frame-bytes N     largest frame or message relayed, both ways (default 16777216)
  --ttl-s N               exit after N seconds (for tests)
  --help                  print this text";

/// Everything the relay was told on its command line (the token itself is loaded separately).
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to bind the HTTP server.
    pub listen: SocketAddr,
    /// Directory of the page's static files, if any.
    pub static_dir: Option<PathBuf>,
    /// The upstream app server's WebSocket URL.
    pub upstream: Uri,
    /// File to read the token from; `None` means the environment variable.
    pub token_file: Option<PathBuf>,
    /// Extra browser origins (normalized: lowercase, no trailing slash).
    pub allow_origins: Vec<String>,
    /// Lifetime of a ticket.
    pub ticket_ttl: Duration,
    /// Largest frame or message accepted from either side.
    pub max_frame_bytes: usize,
    /// Exit after this long, if set.
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
    let mut token_file = None;
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
    let upstream = upstream.ok_or("--upstream is required")?;
    Ok(Command::Run(Box::new(Config {
        listen,
        static_dir,
        upstream,
        token_file,
        allow_origins,
        ticket_ttl: Duration::from_secs(ticket_ttl_s),
        max_frame_bytes,
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

/// Accepts `ws://host[:port][/path]`; TLS upstreams are not supported by this build.
fn parse_upstream(text: &str) -> Result<Uri, String> {
    let uri: Uri = text
        .parse()
        .map_err(|_| format!("--upstream: not a URL: {text}"))?;
    match uri.scheme_str() {
        Some("ws") => {}
        Some("wss") => {
            return Err(
                "--upstream: wss:// is not supported (this relay has no TLS client); \
                 run it next to the app server and use ws://"
                    .into(),
            )
        }
        _ => return Err(format!("--upstream: expected a ws:// URL, got {text}")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("--upstream: no host in {text}"));
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
        ])
        .unwrap();
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
        assert!(run(&[]).unwrap_err().contains("--upstream is required"));
        assert!(run(&["--upstream", "http://x/ws"]).is_err());
        assert!(run(&["--upstream", "wss://x/ws"])
            .unwrap_err()
            .contains("wss://"));
        assert!(run(&["--upstream", "ws://x/ws", "--listen", "localhost"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--ticket-ttl-s", "0"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--allow-origin", "localhost"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--allow-origin", "http://a/b"]).is_err());
        assert!(run(&["--upstream", "ws://x/ws", "--frobnicate"]).is_err());
        assert!(run(&["--upstream"]).unwrap_err().contains("needs a value"));
        assert_eq!(run(&["--help"]).unwrap_err(), "help");
    }
}
