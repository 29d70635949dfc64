//! `--cloud`: REST calls (JSON, multipart, binary) and status-relay sockets reach a fake Cloud
//! with the relay's API key and none of the page's credentials; the relay's own checks and
//! limits; the key never in a response, close reason or output line.

use tokio_tungstenite::tungstenite::Message;

use crate::relay_support::client::{next_data, HttpResponse};
use crate::relay_support::cloud::{FakeCloud, DOWNLOAD};
use crate::relay_support::fixture::Fixture;
use crate::relay_support::process::{RelayProcess, TokenSource};
use crate::relay_support::{send, within_limit};

const BOUNDARY: &str = "----relay-test-boundary";

fn cloud_relay(
    cloud_url: &str,
    fx: &Fixture,
    key: TokenSource<'_>,
    extra: &[&str],
) -> RelayProcess {
    let mut args = vec![
        "--cloud".to_string(),
        cloud_url.to_string(),
        "--static".into(),
        fx.www(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    RelayProcess::start(&args, key, &fx.token)
}

/// `method path` with a body, as the page sends it: own Origin, the ticket cookie, and a bearer
/// of its own (which must not go upstream).
fn call(
    relay: &RelayProcess,
    method: &str,
    path: &str,
    cookie: &str,
    content_type: &str,
    body: &[u8],
) -> HttpResponse {
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nOrigin: {}\r\nCookie: {cookie}\r\nAuthorization: Bearer page-own\r\n\
         X-Letta-Source: letta-agent-sdk\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        relay.authority(),
        relay.origin(),
        body.len()
    );
    let mut request = head.into_bytes();
    request.extend_from_slice(body);
    relay.raw_bytes(&request)
}

fn multipart(name: &str, data: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_calls_go_upstream_with_the_key_and_without_the_page_credentials() {
    within_limit(async {
        let fx = Fixture::new("cloud-rest");
        let cloud = FakeCloud::start(&fx.token).await;
        let mut relay = cloud_relay(&cloud.url, &fx, TokenSource::CloudEnv(&fx.token), &[]);

        let config = relay.get("/relay-config", &[]);
        assert_eq!(
            (config.status, config.text().as_str()),
            (200, r#"{"backend":"cloud"}"#)
        );
        let ticket = relay.fresh_ticket();

        let json = br#"{"model":"letta/auto","tags":["origin:letta-code"]}"#;
        let created = call(
            &relay,
            "POST",
            "/v1/agents/?x=1",
            &ticket,
            "application/json",
            json,
        );
        assert_eq!(
            (created.status, created.text().as_str()),
            (200, r#"{"ok":true}"#)
        );
        assert_eq!(created.header("cache-control"), Some("no-store"));

        let upload = multipart("notes.bin", DOWNLOAD);
        let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
        let uploaded = call(
            &relay,
            "POST",
            "/v1/sandboxes/sbx-1/files",
            &ticket,
            &content_type,
            &upload,
        );
        assert_eq!(uploaded.status, 200);

        let download = call(
            &relay,
            "GET",
            "/v1/sandboxes/sbx-1/files?path=%2Froot%2Fdownloads%2Fa.png",
            &ticket,
            "application/json",
            b"",
        );
        assert_eq!(download.status, 200);
        assert_eq!(download.body, DOWNLOAD, "binary bodies pass unchanged");
        assert_eq!(
            download.header("content-type"),
            Some("application/octet-stream")
        );
        assert!(
            download.header("set-cookie").is_none(),
            "the upstream's cookies stay upstream"
        );

        let calls = cloud.calls();
        assert_eq!(calls.len(), 3, "{calls:#?}");
        let targets: Vec<_> = calls
            .iter()
            .map(|c| (c.method.as_str(), c.target.as_str()))
            .collect();
        assert_eq!(
            targets,
            [
                ("POST", "/v1/agents/?x=1"),
                ("POST", "/v1/sandboxes/sbx-1/files"),
                (
                    "GET",
                    "/v1/sandboxes/sbx-1/files?path=%2Froot%2Fdownloads%2Fa.png"
                ),
            ]
        );
        let bearer = format!("Bearer {}", fx.token);
        for call in &calls {
            assert_eq!(call.header("authorization"), Some(bearer.as_str()));
            assert_eq!(call.header("host"), Some(cloud.authority.as_str()));
            assert_eq!(call.header("x-letta-source"), Some("letta-agent-sdk"));
            for gone in ["cookie", "origin", "referer"] {
                assert!(
                    call.header(gone).is_none(),
                    "{gone} went upstream: {call:?}"
                );
            }
        }
        assert_eq!(calls[0].body, json);
        assert_eq!(calls[1].body, upload, "multipart bodies pass unchanged");
        assert_eq!(calls[1].header("content-type"), Some(content_type.as_str()));

        // The relay's own checks come before any upstream call.
        let no_ticket = call(
            &relay,
            "POST",
            "/v1/agents/",
            "other=1",
            "application/json",
            b"{}",
        );
        assert_eq!(no_ticket.status, 401);
        assert!(
            no_ticket.text().starts_with(r#"{"message":"relay: "#),
            "{}",
            no_ticket.text()
        );
        let foreign = relay.get(
            "/v1/agents/",
            &[("Origin", "http://evil.example"), ("Cookie", &ticket)],
        );
        assert_eq!(foreign.status, 403);
        assert_eq!(cloud.calls().len(), 3, "refused calls never reach Cloud");
        assert_eq!(
            relay.get("/ws", &[]).status,
            200,
            "no app-server socket in Cloud mode: the page"
        );

        let output = relay.stop_and_check_output();
        assert!(
            output.contains("letta-relay: POST /v1/agents/ 200"),
            "{output}"
        );
        assert!(!output.contains("x=1"), "queries are not logged:\n{output}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_sockets_are_relayed_with_the_key_and_without_a_page_token() {
    within_limit(async {
        let fx = Fixture::new("cloud-ws");
        let cloud = FakeCloud::start(&fx.token).await;
        let mut relay = cloud_relay(&cloud.url, &fx, TokenSource::CloudFile(&fx.token_file()), &[]);
        let path = "/v1/environments/conn-1/status/ws?agentId=agent-1&conversationId=default&channel=control&token=page-own";

        let origin = relay.origin();
        let Err(refused) = relay.ws_path(path, &[("Origin", &origin)]).await else {
            panic!("without a ticket the upgrade is refused");
        };
        assert_eq!(refused.status, 401);
        assert!(cloud.calls().is_empty());

        let ticket = relay.fresh_ticket();
        let mut socket = relay
            .ws_path(path, &[("Origin", &origin), ("Cookie", &ticket)])
            .await
            .expect("the page's upgrade is accepted");
        let first = next_data(&mut socket).await;
        assert_eq!(
            first,
            Message::text("agentId=agent-1&conversationId=default&channel=control"),
            "the query goes upstream without token="
        );
        send(&mut socket, Message::text(r#"{"type":"ping"}"#)).await;
        assert_eq!(next_data(&mut socket).await, Message::text(r#"{"type":"ping"}"#));

        let calls = cloud.calls();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].target, "/v1/environments/conn-1/status/ws?agentId=agent-1&conversationId=default&channel=control");
        assert_eq!(calls[0].header("authorization"), Some(format!("Bearer {}", fx.token).as_str()));
        assert!(calls[0].header("cookie").is_none() && calls[0].header("origin").is_none());
        drop(socket);
        relay.wait_for_output("ws session ended").await;
        relay.stop_and_check_output();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cloud_failures_and_limits_are_the_relays_json_without_the_key() {
    within_limit(async {
        let fx = Fixture::new("cloud-limits");
        let wrong = FakeCloud::start("another-key").await;
        let extra = [
            "--max-body-bytes",
            "64",
            "--upstream-request-timeout-s",
            "1",
        ];
        let mut relay = cloud_relay(&wrong.url, &fx, TokenSource::CloudEnv(&fx.token), &extra);
        let ticket = relay.fresh_ticket();

        let refused = call(
            &relay,
            "GET",
            "/v1/agents/",
            &ticket,
            "application/json",
            b"",
        );
        assert_eq!(
            (refused.status, refused.text().as_str()),
            (401, r#"{"message":"Invalid API key"}"#),
            "Cloud's own answer"
        );
        let big = call(
            &relay,
            "POST",
            "/v1/agents/",
            &ticket,
            "application/json",
            &[b'x'; 65],
        );
        assert_eq!(big.status, 413);
        assert!(big.text().contains("--max-body-bytes"), "{}", big.text());
        let slow = call(&relay, "GET", "/v1/slow", &ticket, "application/json", b"");
        assert_eq!(slow.status, 504);
        assert!(
            slow.text().contains("--upstream-request-timeout-s"),
            "{}",
            slow.text()
        );
        let ws = relay
            .ws_path(
                "/v1/environments/c/status/ws?channel=stream",
                &[("Origin", &relay.origin()), ("Cookie", &ticket)],
            )
            .await;
        let mut socket = ws.expect("the page's side opens; the upstream refusal closes it");
        let (code, reason) = relay.next_close(&mut socket).await;
        assert_eq!(
            (code, reason.as_str()),
            (1011, "relay: upstream refused the connection (HTTP 401)")
        );
        relay.stop_and_check_output();

        // Cloud down: 502, naming the error kind only.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut relay = cloud_relay(
            &format!("http://127.0.0.1:{port}"),
            &fx,
            TokenSource::CloudEnv(&fx.token),
            &[],
        );
        let ticket = relay.fresh_ticket();
        let down = call(
            &relay,
            "GET",
            "/v1/agents/",
            &ticket,
            "application/json",
            b"",
        );
        assert_eq!(
            (down.status, down.text().as_str()),
            (
                502,
                r#"{"message":"relay: Letta Cloud unreachable (connection refused)"}"#
            )
        );
        relay.stop_and_check_output();
    })
    .await;
}

#[test]
fn cloud_mode_refuses_to_start_without_a_key_and_names_the_variable() {
    let fx = Fixture::new("cloud-nokey");
    let args: Vec<String> = ["--cloud", "http://127.0.0.1:9", "--listen", "127.0.0.1:0"]
        .map(String::from)
        .to_vec();
    let (status, output) =
        crate::relay_support::process::run_expecting_exit(&args, TokenSource::Missing);
    assert!(!status.success());
    assert!(
        output.contains("no Letta Cloud API key: pass --api-key-file PATH or set LETTA_API_KEY"),
        "{output}"
    );
    let (status, output) =
        crate::relay_support::process::run_expecting_exit(&args, TokenSource::CloudEnv(" "));
    assert!(
        !status.success() && output.contains("LETTA_API_KEY: the token is empty"),
        "{output}"
    );
    drop(fx);
}
