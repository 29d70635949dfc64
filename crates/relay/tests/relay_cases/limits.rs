//! The bounds: open sockets in total (503) and per client address (429), the upstream connect
//! time, the idle time, and the graceful shutdown on SIGTERM (1001 after the grace period).

use std::time::Duration;

use tokio_tungstenite::tungstenite::Message;

use crate::relay_support::client::next_data;
use crate::relay_support::fixture::Fixture;
use crate::relay_support::upstream::FakeUpstream;
use crate::relay_support::{send, start_relay, within_limit};

/// Counts the lines of `output` containing `needle`.
fn lines_with(output: &str, needle: &str) -> usize {
    output.lines().filter(|l| l.contains(needle)).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_limits_refuse_with_429_and_503_and_give_places_back() {
    within_limit(async {
        let fx = Fixture::new("limits");
        let up = FakeUpstream::start(&fx.token, 0).await;

        let extra = ["--max-sockets", "3", "--max-sockets-per-client", "2"];
        let mut relay = start_relay(&up.url, &fx, &extra);
        let first = relay.ws_as_page().await;
        let mut second = relay.ws_as_page().await;
        let ticket = relay.fresh_ticket();
        let refused = relay.ws(&[("Cookie", &ticket)]).await.unwrap_err();
        assert_eq!(refused.status, 429, "{}", refused.body);
        assert!(
            refused.body.contains("--max-sockets-per-client"),
            "{}",
            refused.body
        );
        // The place comes back once a socket closes.
        drop(first);
        let mut third = None;
        for _ in 0..200 {
            if let Ok(client) = relay.ws(&[("Cookie", &ticket)]).await {
                third = Some(client);
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        let mut third = third.expect("a place freed by a closed socket is reused");
        send(&mut third, Message::text("third")).await;
        assert_eq!(next_data(&mut third).await, Message::text("third"));
        send(&mut second, Message::text("second")).await;
        assert_eq!(next_data(&mut second).await, Message::text("second"));
        let output = relay.stop_and_check_output();
        assert!(lines_with(&output, "ws refused (429)") >= 1, "{output}");

        let extra = ["--max-sockets", "2", "--max-sockets-per-client", "0"];
        let mut relay = start_relay(&up.url, &fx, &extra);
        let _a = relay.ws_as_page().await;
        let _b = relay.ws_as_page().await;
        let ticket = relay.fresh_ticket();
        for _ in 0..3 {
            let refused = relay.ws(&[("Cookie", &ticket)]).await.unwrap_err();
            assert_eq!(refused.status, 503, "{}", refused.body);
            assert!(refused.body.contains("--max-sockets"), "{}", refused.body);
        }
        let output = relay.stop_and_check_output();
        assert_eq!(
            lines_with(&output, "ws refused (503)"),
            3,
            "one line each:\n{output}"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sockets_and_silent_upstreams_are_closed() {
    within_limit(async {
        let fx = Fixture::new("idle");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let mut relay = start_relay(&up.url, &fx, &["--idle-timeout-s", "1"]);
        let mut client = relay.ws_as_page().await;
        send(&mut client, Message::text("once")).await;
        assert_eq!(next_data(&mut client).await, Message::text("once"));
        let (code, reason) = relay.next_close(&mut client).await;
        assert_eq!((code, reason.as_str()), (1001, "relay: idle for 1 s"));
        assert_eq!(
            up.wait_for_closes(1).await,
            [(1001, "relay: idle for 1 s".to_string())]
        );
        drop(client);
        relay
            .wait_for_output("idle for 1 s (--idle-timeout-s)")
            .await;
        let output = relay.stop_and_check_output();
        assert_eq!(
            lines_with(&output, "idle for 1 s (--idle-timeout-s)"),
            1,
            "{output}"
        );

        // An upstream that accepts TCP and never answers the handshake.
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", silent.local_addr().unwrap());
        let held = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((stream, _)) = silent.accept().await {
                held.push(stream);
            }
        });
        let mut relay = start_relay(&url, &fx, &["--upstream-connect-timeout-s", "1"]);
        let mut client = relay.ws_as_page().await;
        let (code, reason) = relay.next_close(&mut client).await;
        assert_eq!(code, 1011, "{reason}");
        assert_eq!(reason, "relay: upstream did not answer within 1 s");
        let output = relay.stop_and_check_output();
        assert_eq!(
            lines_with(&output, "did not answer within 1 s"),
            1,
            "{output}"
        );
        held.abort();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_accepting_lets_sockets_finish_then_closes_them_with_1001() {
    within_limit(async {
        let fx = Fixture::new("shutdown");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let mut relay = start_relay(&up.url, &fx, &["--shutdown-grace-s", "2"]);
        let mut client = relay.ws_as_page().await;
        relay.terminate();
        relay.wait_for_output("SIGTERM: no longer accepting").await;
        assert!(
            std::net::TcpStream::connect(("127.0.0.1", relay.port)).is_err(),
            "new connections are refused"
        );
        // The open socket keeps working during the grace period…
        send(&mut client, Message::text("during the grace period")).await;
        assert_eq!(
            next_data(&mut client).await,
            Message::text("during the grace period")
        );
        // …and is then closed with 1001, both ways.
        let (code, reason) = relay.next_close(&mut client).await;
        assert_eq!((code, reason.as_str()), (1001, "relay shutting down"));
        assert_eq!(
            up.wait_for_closes(1).await,
            [(1001, "relay shutting down".to_string())]
        );
        let status = relay.wait_exit(Duration::from_secs(15)).await;
        assert!(status.success(), "{status:?}");
        let output = relay.stop_and_check_output();
        assert!(output.contains("closing 1 sockets with 1001"), "{output}");

        // Without open sockets the relay exits at once, without waiting out the grace period.
        let mut relay = start_relay(&up.url, &fx, &["--shutdown-grace-s", "30"]);
        relay.fresh_ticket();
        relay.terminate();
        let status = relay.wait_exit(Duration::from_secs(10)).await;
        assert!(status.success(), "{status:?}");
        let output = relay.stop_and_check_output();
        assert!(output.contains("shut down"), "{output}");
        assert!(!output.contains("grace over"), "{output}");
    })
    .await;
}
