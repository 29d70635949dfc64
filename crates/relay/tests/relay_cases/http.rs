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
