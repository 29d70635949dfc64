//! Tests of `config.rs`: defaults, every option, the refusals and their messages, `--help`.

use super::*;

/// Parses `args` (after the program's name); a refusal as clap would print it.
fn run(args: &[&str]) -> Result<Config, String> {
    let argv = std::iter::once("letta-relay").chain(args.iter().copied());
    parse_args(argv).map_err(|e| e.to_string())
}

/// Every flag, as the README and the scripts use them.
const FLAGS: [&str; 20] = [
    "--listen",
    "--static",
    "--upstream",
    "--token-file",
    "--cloud",
    "--api-key-file",
    "--upstream-request-timeout-s",
    "--max-body-bytes",
    "--secret-file",
    "--ca-file",
    "--allow-origin",
    "--ticket-ttl-s",
    "--max-frame-bytes",
    "--max-sockets",
    "--max-sockets-per-client",
    "--upstream-connect-timeout-s",
    "--idle-timeout-s",
    "--shutdown-grace-s",
    "--ttl-s",
    "--help",
];

#[test]
fn the_declarations_are_consistent() {
    Cli::command().debug_assert();
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

#[cfg(unix)]
#[test]
fn paths_need_not_be_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::ffi::OsStr::from_bytes(b"/srv/www-\xff");
    let argv = ["letta-relay", "--upstream", "ws://x/ws", "--static"].map(OsString::from);
    let argv = argv.into_iter().chain([dir.to_owned()]);
    assert_eq!(parse_args(argv).unwrap().static_dir.unwrap(), dir);
}

#[test]
fn bad_options_are_refused_with_a_reason() {
    for (args, needle) in [
        (&[][..], "--upstream (or --cloud) is required"),
        (&["--upstream", "http://x/ws"][..], "ws:// or wss://"),
        (&["--upstream", "ws:///ws"][..], "not a URL"),
        (
            &["--upstream", "ws://x/ws", "--max-sockets", "0"][..],
            "--max-sockets",
        ),
        (
            &["--upstream", "ws://x/ws", "--idle-timeout-s", "0"][..],
            "0 is not in 1..=604800",
        ),
        (
            &["--upstream", "ws://x/ws", "--ticket-ttl-s", "x"][..],
            "--ticket-ttl-s",
        ),
        (
            &["--upstream", "ws://x/ws", "--listen", "localhost"][..],
            "not an IP:PORT address",
        ),
        (
            &["--upstream", "ws://x/ws", "--allow-origin", "localhost"][..],
            "scheme://host",
        ),
        (
            &["--upstream", "ws://x/ws", "--allow-origin", "http://a/b"][..],
            "scheme://host",
        ),
        (
            &["--upstream", "ws://x/ws", "--frobnicate"][..],
            "--frobnicate",
        ),
        (
            &["--upstream"][..],
            "a value is required for '--upstream <URL>'",
        ),
        (
            &["--upstream", "ws://x/ws", "--upstream", "ws://y/ws"][..],
            "cannot be used multiple times",
        ),
    ] {
        let err = run(args).unwrap_err();
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(err.contains("--help"), "a refusal points at --help: {err}");
    }
    let wss = run(&["--upstream", "wss://x/ws"]).unwrap();
    assert_eq!(wss.upstream.scheme_str(), Some("wss"));
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
    let err = run(&["--cloud", "https://me:s3cr3t-pw@a"]).unwrap_err();
    assert!(
        !err.contains("s3cr3t"),
        "a refused URL's password is printed: {err}"
    );
}

#[test]
fn help_lists_every_flag_its_default_and_where_secrets_come_from() {
    let help = run(&["--help"]).unwrap_err();
    // Wrapped to the terminal's width: compare with the line breaks flattened.
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for flag in FLAGS {
        assert!(
            help.contains(&format!("{flag} ")),
            "{flag} missing from --help:\n{help}"
        );
    }
    for arg in Cli::command().get_arguments() {
        let flag = format!("--{}", arg.get_long().unwrap());
        assert!(
            FLAGS.contains(&flag.as_str()),
            "{flag}: add it to FLAGS and the README"
        );
    }
    for text in [
        "LETTA_APP_SERVER_TOKEN",
        "LETTA_API_KEY",
        "LETTA_RELAY_SECRET",
        "[default: 127.0.0.1:8080]",
        "[default: 4096]",
        "letta-relay --cloud http[s]://HOST[:PORT] [options]",
    ] {
        assert!(flat.contains(text), "{text} missing from --help:\n{help}");
    }
    assert_eq!(run(&["-h"]).unwrap_err(), help);
    let argv = ["letta-relay", "--help"];
    assert_eq!(parse_args(argv).unwrap_err().exit_code(), 0);
    let argv = ["letta-relay", "--frobnicate"];
    assert_eq!(parse_args(argv).unwrap_err().exit_code(), 2);
}
