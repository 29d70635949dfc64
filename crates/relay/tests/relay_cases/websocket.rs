//! `/ws`: the Host / Origin / ticket checks, relaying both ways with the token upstream, expiry,
//! size limits, and upstream failures.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use crate::relay_support::client::next_data;
use crate::relay_support::fixture::Fixture;
use crate::relay_support::process::{RelayProcess, TokenSource};
use crate::relay_support::upstream::FakeUpstream;
use crate::relay_support::{args, send, start_relay, within_limit};

/// A refused upgrade: its name, its request headers, the expected status.
type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, u16);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ws_refuses_foreign_origins_hosts_and_missing_unknown_tickets() {
    within_limit(async {
        let fx = Fixture::new("refusals");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let extra = ["--allow-origin", "http://localhost:5173"];
        let mut relay = RelayProcess::start(
            &args(&up.url, &fx, &extra),
            TokenSource::Env(&fx.token),
            &fx.token,
        );
        let ticket = relay.fresh_ticket();
        let own = relay.origin();
        let own_https = own.replace("http:", "https:");
        let unknown = format!("letta_relay_ticket={}", "ab".repeat(32));

        let cases: [Case<'_>; 8] = [
            (
                "foreign origin, valid ticket",
                vec![("Origin", "http://evil.example"), ("Cookie", &ticket)],
                403,
            ),
            (
                "foreign origin, no ticket",
                vec![("Origin", "http://evil.example")],
                403,
            ),
            (
                "own host over https",
                vec![("Origin", &own_https), ("Cookie", &ticket)],
                403,
            ),
            (
                "null origin",
                vec![("Origin", "null"), ("Cookie", &ticket)],
                403,
            ),
            ("own origin, no ticket", vec![("Origin", &own)], 401),
            (
                "own origin, unknown ticket",
                vec![("Origin", &own), ("Cookie", &unknown)],
                401,
            ),
            ("no origin, no ticket", vec![], 401),
            (
                "no origin, malformed ticket",
                vec![("Cookie", "letta_relay_ticket=../../x")],
                401,
            ),
        ];
        for (name, headers, status) in &cases {
            let refused = relay
                .ws(headers)
                .await
                .err()
                .unwrap_or_else(|| panic!("{name}: accepted"));
            assert_eq!(refused.status, *status, "{name}: {}", refused.body);
        }

        // A page on another domain re-pointed at the relay (DNS rebinding) sees itself as the
        // relay's own origin: the Host rule refuses it.
        let rebound = format!("evil.example:{}", relay.port);
        let rebound_origin = format!("http://{rebound}");
        let upgrade = [
            ("Host", rebound.as_str()),
            ("Origin", rebound_origin.as_str()),
            ("Cookie", ticket.as_str()),
            ("Connection", "Upgrade"),
            ("Upgrade", "websocket"),
            ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ];
        assert_eq!(relay.get("/ws", &upgrade).status, 403);
        let rebound_page = relay.get("/", &[("Host", &rebound)]);
        assert_eq!(rebound_page.status, 403);
        assert!(rebound_page.header("set-cookie").is_none());
        let foreign_ticket = relay.get("/ticket", &[("Origin", "http://evil.example")]);
        assert_eq!(foreign_ticket.status, 403);
        assert!(foreign_ticket.header("set-cookie").is_none());
        assert!(
            up.handshakes().is_empty(),
            "nothing reached the upstream: {:?}",
            up.handshakes()
        );

        // The allowed origin gets CORS answers on /ticket and its upgrade goes through.
        let cors = relay.get("/ticket", &[("Origin", "http://localhost:5173")]);
        assert_eq!(cors.status, 200);
        assert_eq!(
            cors.header("access-control-allow-origin"),
            Some("http://localhost:5173")
        );
        assert_eq!(
            cors.header("access-control-allow-credentials"),
            Some("true")
        );
        let allowed = [
            ("Origin", "http://localhost:5173"),
            ("Cookie", ticket.as_str()),
        ];
        let mut client = relay
            .ws(&allowed)
            .await
            .expect("an allowed origin with a ticket");
        send(&mut client, Message::text("ping?")).await;
        assert_eq!(next_data(&mut client).await, Message::text("ping?"));
        assert_eq!(up.handshakes().len(), 1);

        relay.stop_and_check_output();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relays_frames_both_ways_with_the_token_and_without_origin_upstream() {
    within_limit(async {
        let fx = Fixture::new("relay");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let mut relay = start_relay(&up.url, &fx, &[]);

        let ticket_response = relay.get("/ticket", &[]);
        assert_eq!(ticket_response.status, 200);
        assert_eq!(
            ticket_response.header("content-type"),
            Some("application/json")
        );
        let json: serde_json::Value = serde_json::from_slice(&ticket_response.body).unwrap();
        let expires_at = json["expiresAt"].as_u64().expect("expiresAt in ms");
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(
            expires_at.abs_diff(now_ms + 300_000) < 10_000,
            "{expires_at} vs now {now_ms}"
        );

        let cookie = ticket_response.ticket_cookie();
        let own = relay.origin();
        let mut client = relay
            .ws(&[("Origin", &own), ("Cookie", &cookie)])
            .await
            .expect("accepted");
        for message in [
            Message::text("hello"),
            Message::text("héllo ✓ {\"type\":\"input\"}"),
            Message::binary(vec![0u8, 1, 2, 254, 255]),
        ] {
            send(&mut client, message.clone()).await;
            assert_eq!(next_data(&mut client).await, message);
        }
        let bye = CloseFrame {
            code: CloseCode::Normal,
            reason: "bye".into(),
        };
        send(&mut client, Message::Close(Some(bye))).await;
        assert_eq!(relay.next_close(&mut client).await.0, 1000);
        assert_eq!(
            up.wait_for_closes(1).await,
            [(1000, "bye".to_string())],
            "the close went upstream"
        );

        // A non-browser client (no Origin) with the ticket the page itself carried.
        let page_ticket = relay.get("/", &[]).ticket_cookie();
        let mut client = relay
            .ws(&[("Cookie", &page_ticket)])
            .await
            .expect("accepted without Origin");
        send(&mut client, Message::text("close-me")).await;
        assert_eq!(
            relay.next_close(&mut client).await,
            (4001, "server bye".to_string())
        );

        // A page that vanishes without a close frame: the upstream is told it went away.
        let client = relay.ws_as_page().await;
        drop(client);
        let closes = up.wait_for_closes(3).await; // "bye", the echo of 4001, and this one
        let went_away = (1001, "client went away".to_string());
        assert!(closes.contains(&went_away), "{closes:?}");

        let handshakes = up.handshakes();
        assert_eq!(handshakes.len(), 3);
        for handshake in handshakes {
            assert_eq!(
                handshake.authorization,
                Some(format!("Bearer {}", fx.token)),
                "token trimmed"
            );
            assert_eq!(handshake.origin, None, "no Origin upstream");
            assert!(handshake.accepted);
        }
        relay.stop_and_check_output();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_tickets_are_refused() {
    within_limit(async {
        let fx = Fixture::new("expiry");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let extra = ["--ticket-ttl-s", "2"];
        let mut relay = start_relay(&up.url, &fx, &extra);
        let ticket = relay.fresh_ticket();
        let own = relay.origin();
        let headers = [("Origin", own.as_str()), ("Cookie", ticket.as_str())];
        let mut client = relay
            .ws(&headers)
            .await
            .expect("a fresh ticket is accepted");
        send(&mut client, Message::Close(None)).await;

        tokio::time::sleep(Duration::from_millis(2600)).await;
        let refused = relay
            .ws(&headers)
            .await
            .expect_err("the expired ticket is refused");
        assert_eq!(refused.status, 401, "{}", refused.body);
        assert!(refused.body.contains("expired"), "{}", refused.body);

        relay.ws_as_page().await; // a new ticket works again
        relay.stop_and_check_output();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_frames_close_with_1009_both_ways() {
    within_limit(async {
        let fx = Fixture::new("size");
        let up = FakeUpstream::start(&fx.token, 2000).await;
        let extra = ["--max-frame-bytes", "1024"];
        let mut relay = start_relay(&up.url, &fx, &extra);

        let mut client = relay.ws_as_page().await;
        let at_limit = Message::text("a".repeat(1024));
        send(&mut client, at_limit.clone()).await;
        assert_eq!(
            next_data(&mut client).await,
            at_limit,
            "a message at the limit passes"
        );
        send(&mut client, Message::text("a".repeat(1025))).await;
        assert_eq!(
            relay.next_close(&mut client).await.0,
            1009,
            "text over the limit"
        );
        assert_eq!(
            up.wait_for_closes(1).await[0].0,
            1009,
            "the upstream is closed as well"
        );

        let mut client = relay.ws_as_page().await;
        send(&mut client, Message::binary(vec![7u8; 5000])).await;
        assert_eq!(
            relay.next_close(&mut client).await.0,
            1009,
            "binary over the limit"
        );

        let mut client = relay.ws_as_page().await;
        send(&mut client, Message::text("big")).await;
        let (code, reason) = relay.next_close(&mut client).await;
        assert_eq!(code, 1009, "upstream message over the limit: {reason}");

        relay.stop_and_check_output();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_failures_close_the_page_socket_with_a_reason() {
    within_limit(async {
        let fx = Fixture::new("upstream-down");
        let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let down = format!("ws://127.0.0.1:{closed_port}/ws");
        let mut relay = start_relay(&down, &fx, &[]);
        let mut client = relay.ws_as_page().await;
        let (code, reason) = relay.next_close(&mut client).await;
        assert_eq!(code, 1011, "{reason}");
        assert!(reason.contains("upstream unreachable"), "{reason}");
        relay.stop_and_check_output();

        // An upstream that refuses the relay's token.
        let picky = FakeUpstream::start("another-token", 0).await;
        let mut relay = RelayProcess::start(
            &args(&picky.url, &fx, &[]),
            TokenSource::Env(&fx.token),
            &fx.token,
        );
        let mut client = relay.ws_as_page().await;
        let (code, reason) = relay.next_close(&mut client).await;
        assert_eq!(code, 1011, "{reason}");
        assert!(reason.contains("HTTP 401"), "{reason}");
        let handshakes = picky.handshakes();
        assert_eq!(handshakes.len(), 1);
        assert_eq!(
            handshakes[0].authorization,
            Some(format!("Bearer {}", fx.token))
        );
        relay.stop_and_check_output();

        // An upstream that vanishes mid-session without a close frame.
        let flaky = FakeUpstream::start(&fx.token, 0).await;
        let mut relay = RelayProcess::start(
            &args(&flaky.url, &fx, &[]),
            TokenSource::Env(&fx.token),
            &fx.token,
        );
        let mut client = relay.ws_as_page().await;
        send(&mut client, Message::text("drop-me")).await;
        let (code, reason) = relay.next_close(&mut client).await;
        assert_eq!((code, reason.as_str()), (1011, "upstream connection lost"));
        relay.stop_and_check_output();
    })
    .await;
}
