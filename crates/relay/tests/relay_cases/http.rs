//! The HTTP side: `/healthz`, the page and its ticket cookie, static files, the single-page-app
//! fallback, path traversal, and refusing to start without a token.

use crate::relay_support::fixture::{Fixture, INDEX_HTML, OUTSIDE_SECRET, WASM_BYTES};
use crate::relay_support::process::{run_expecting_exit, TokenSource};
use crate::relay_support::upstream::FakeUpstream;
use crate::relay_support::{start_relay, within_limit};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_healthz_the_page_with_a_ticket_and_static_files() {
    within_limit(async {
        let fx = Fixture::new("static");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let mut relay = start_relay(&up.url, &fx, &[]);

        let health = relay.get("/healthz", &[]);
        assert_eq!((health.status, health.text().as_str()), (200, "ok"));

        let page = relay.get("/", &[]);
        assert_eq!(page.status, 200);
        assert_eq!(page.text(), INDEX_HTML);
        assert!(page
            .header("content-type")
            .unwrap()
            .starts_with("text/html"));
        let cookie = page.header("set-cookie").unwrap().to_string();
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
            assert!(
                cookie.split("; ").any(|a| a == attribute),
                "{attribute} in {cookie}"
            );
        }
        let ticket = page.ticket_cookie();
        let value = ticket.split_once('=').unwrap().1;
        assert!(
            value.len() >= 32
                && value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "a base64url ticket: {value}"
        );
        assert_ne!(
            relay.get("/", &[]).ticket_cookie(),
            ticket,
            "every page load gets a new ticket"
        );

        let js = relay.get("/app.js", &[]);
        assert_eq!(js.status, 200);
        assert!(js
            .header("content-type")
            .unwrap()
            .starts_with("text/javascript"));
        assert_eq!(js.text(), "export const answer = 42;\n");
        assert!(
            js.header("set-cookie").is_none(),
            "only the page hands out tickets"
        );

        let wasm = relay.get("/pkg/mod.wasm", &[]);
        assert_eq!(
            (wasm.status, wasm.header("content-type")),
            (200, Some("application/wasm"))
        );
        assert_eq!(wasm.body, WASM_BYTES);

        // Files carry validators: a reload revalidates (304) instead of downloading again.
        assert_eq!(js.header("cache-control"), Some("no-cache"));
        assert_eq!(js.header("x-content-type-options"), Some("nosniff"));
        let etag = js.header("etag").expect("an ETag");
        let again = relay.get("/app.js", &[("If-None-Match", etag)]);
        assert_eq!((again.status, again.body.len()), (304, 0));
        let head = relay.head("/pkg/mod.wasm");
        assert_eq!(head.status, 200);
        assert_eq!(
            head.header("content-length"),
            Some(WASM_BYTES.len().to_string().as_str())
        );
        let head = relay.head("/chats/42");
        assert_eq!(head.status, 200);
        head.ticket_cookie();
        assert_eq!(relay.get("/index.html", &[]).text(), INDEX_HTML);
        assert_eq!(
            relay.get("/index.html", &[]).header("cache-control"),
            Some("no-store"),
            "the page (its cookie) is never cached"
        );

        for route in ["/chats/42", "/settings", "/sub", "/sub/"] {
            let spa = relay.get(route, &[]);
            assert_eq!(
                (spa.status, spa.text().as_str()),
                (200, INDEX_HTML),
                "{route}"
            );
            assert!(
                !spa.text().contains("listed-name"),
                "no directory listing at {route}"
            );
            spa.ticket_cookie();
        }
        let missing = relay.get("/missing.js", &[]);
        assert_eq!(missing.status, 404);
        assert!(missing.header("set-cookie").is_none());
        let post = relay.raw(&format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            relay.authority()
        ));
        assert_eq!(post.status, 405);

        relay.stop_and_check_output();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refuses_path_traversal_and_hidden_files() {
    within_limit(async {
        let fx = Fixture::new("traversal");
        let www = fx.base.join("www");
        std::os::unix::fs::symlink(fx.base.join("secret.txt"), www.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(&fx.base, www.join("outside")).unwrap();
        let up = FakeUpstream::start(&fx.token, 0).await;
        let mut relay = start_relay(&up.url, &fx, &[]);
        for path in [
            "/../secret.txt",
            "/pkg/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E%2Fsecret.txt",
            "/pkg/..%2f..%2fsecret.txt",
            "/..%5csecret.txt",
            "/.env",
            "/%2eenv",
            "/../token.txt",
            // A decoded separator or backslash inside one segment is refused, not split.
            "/pkg%2fmod.wasm",
            "/pkg%2F..%2F..%2Fsecret.txt",
            "/%5c..%5csecret.txt",
            "/pkg%5C..%5C..%5Csecret.txt",
            "/..\\secret.txt",
            "/pkg\\..\\..\\secret.txt",
            "/%2e%2e%2f%2e%2e%2fsecret.txt",
            "/app.js%00.txt",
            "/%00",
            "/%zz.txt",
            // Symbolic links placed in the directory that lead out of it.
            "/leak.txt",
            "/outside/secret.txt",
        ] {
            let response = relay.get(path, &[]);
            assert!(
                matches!(response.status, 400 | 404),
                "{path}: {}",
                response.status
            );
            assert!(
                !response.text().contains(OUTSIDE_SECRET),
                "{path} escaped the static directory"
            );
        }
        let etc = relay.get("//etc/passwd", &[]);
        assert!(
            !etc.text().contains("root:"),
            "an absolute path escaped the static directory"
        );
        relay.stop_and_check_output();
    })
    .await;
}

#[test]
fn refuses_to_start_without_a_token() {
    let fx = Fixture::new("no-token");
    let base = [
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "ws://127.0.0.1:9/ws",
        "--ttl-s",
        "5",
    ];
    let base: Vec<String> = base.iter().map(|s| s.to_string()).collect();

    let (status, output) = run_expecting_exit(&base, TokenSource::Missing);
    assert!(!status.success());
    assert!(output.contains("LETTA_APP_SERVER_TOKEN"), "{output}");
    assert!(!output.contains("relay listening"), "{output}");

    let empty = fx.base.join("empty.txt");
    std::fs::write(&empty, " \n").unwrap();
    let (status, output) = run_expecting_exit(&base, TokenSource::File(&empty));
    assert!(!status.success());
    assert!(output.contains("empty"), "{output}");

    let (status, output) = run_expecting_exit(&base, TokenSource::Env(""));
    assert!(!status.success(), "{output}");

    let absent = fx.base.join("absent.txt");
    let (status, output) = run_expecting_exit(&base, TokenSource::File(&absent));
    assert!(!status.success());
    assert!(output.contains("--token-file"), "{output}");
}

#[test]
fn help_lists_every_flag_and_usage_errors_exit_with_2() {
    let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (status, help) = run_expecting_exit(&args(&["--help"]), TokenSource::Missing);
    assert_eq!(status.code(), Some(0), "{help}");
    for flag in [
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
    ] {
        assert!(
            help.contains(&format!("{flag} <")),
            "{flag} missing:\n{help}"
        );
    }
    for env in [
        "LETTA_APP_SERVER_TOKEN",
        "LETTA_API_KEY",
        "LETTA_RELAY_SECRET",
    ] {
        assert!(help.contains(env), "{env} missing:\n{help}");
    }

    for refused in [
        &["--upstream", "ws://127.0.0.1:9/ws", "--max-sockets", "0"][..],
        &["--upstream", "ws://127.0.0.1:9/ws", "--frobnicate"][..],
        &["--static", "www"][..],
    ] {
        let (status, output) = run_expecting_exit(&args(refused), TokenSource::Missing);
        assert_eq!(status.code(), Some(2), "{refused:?}: {output}");
        assert!(output.contains("error: "), "{refused:?}: {output}");
        assert!(!output.contains("relay listening"), "{output}");
    }
}
