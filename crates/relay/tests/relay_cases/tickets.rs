//! Signed tickets: a flood of page loads evicts nothing, replicas sharing the secret accept each
//! other's tickets, and forged or tampered ones are refused.

use tokio_tungstenite::tungstenite::Message;

use crate::relay_support::client::next_data;
use crate::relay_support::fixture::Fixture;
use crate::relay_support::flood::load_page;
use crate::relay_support::process::{RelayProcess, TokenSource};
use crate::relay_support::upstream::FakeUpstream;
use crate::relay_support::{args, send, start_relay, within_limit};

/// The value of a `letta_relay_ticket=<value>` pair with one character changed.
fn tampered(cookie: &str, at: usize) -> String {
    let (name, value) = cookie.split_once('=').unwrap();
    let mut bytes = value.as_bytes().to_vec();
    bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
    format!("{name}={}", String::from_utf8(bytes).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ticket_from_before_20000_page_loads_still_opens_a_socket() {
    within_limit(async {
        let fx = Fixture::new("flood");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let mut relay = start_relay(&up.url, &fx, &[]);
        let before = relay.fresh_ticket();

        let flood = load_page(relay.port, 20_000, 16).await;
        assert_eq!((flood.pages_with_ticket, flood.other), (20_000, 0));

        let own = relay.origin();
        let mut client = relay
            .ws(&[("Origin", &own), ("Cookie", &before)])
            .await
            .expect("the ticket issued before the flood is accepted");
        send(&mut client, Message::text("still here")).await;
        assert_eq!(next_data(&mut client).await, Message::text("still here"));

        // One character changed in the version, the expiry, the nonce, the signature.
        let len = before.split_once('=').unwrap().1.len();
        for at in [0, 2, 11, 30, 40, len - 1] {
            let refused = relay
                .ws(&[("Origin", &own), ("Cookie", &tampered(&before, at))])
                .await
                .expect_err("a tampered ticket is refused");
            assert_eq!(refused.status, 401, "character {at}: {}", refused.body);
            assert!(refused.body.contains("invalid"), "{}", refused.body);
        }
        relay.stop_and_check_output();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_sharing_the_secret_accept_each_others_tickets_and_no_one_else_s() {
    within_limit(async {
        let fx = Fixture::new("replicas");
        let up = FakeUpstream::start(&fx.token, 0).await;
        let secret = "shared-secret-of-the-replicas-0123456789";
        let secret_file = fx.base.join("relay-secret.txt");
        std::fs::write(&secret_file, format!("{secret}\n")).unwrap();
        let secret_arg = secret_file.display().to_string();
        let extra = ["--secret-file", secret_arg.as_str()];
        let mut a = start_relay(&up.url, &fx, &extra);
        // The second replica reads the same secret from the environment instead.
        let mut b = RelayProcess::start_with_env(
            &args(&up.url, &fx, &[]),
            TokenSource::File(&fx.token_file()),
            &fx.token,
            &[("LETTA_RELAY_SECRET", secret)],
        );
        // A relay with its own secret (drawn at start) stands for a forger.
        let mut stranger = start_relay(&up.url, &fx, &[]);

        let from_a = a.fresh_ticket();
        let b_origin = b.origin();
        let mut client = b
            .ws(&[("Origin", &b_origin), ("Cookie", &from_a)])
            .await
            .expect("b accepts a's ticket");
        send(&mut client, Message::text("via b")).await;
        assert_eq!(next_data(&mut client).await, Message::text("via b"));
        let from_b = b.get("/", &[]).ticket_cookie();
        a.ws(&[("Cookie", &from_b)])
            .await
            .expect("a accepts the ticket of b's page");

        let forged = stranger.fresh_ticket();
        for relay in [&a, &b] {
            let refused = relay
                .ws(&[("Cookie", &forged)])
                .await
                .expect_err("a ticket signed with another secret is refused");
            assert_eq!(refused.status, 401, "{}", refused.body);
        }
        let refused = stranger.ws(&[("Cookie", &from_a)]).await.unwrap_err();
        assert_eq!(refused.status, 401);

        for relay in [&mut a, &mut b, &mut stranger] {
            let output = relay.stop_and_check_output();
            assert!(!output.contains(secret), "the secret leaked:\n{output}");
        }
        assert!(!a.output().contains("drawn for this process"));
        assert!(stranger.output().contains("drawn for this process"));
    })
    .await;
}

#[test]
fn refuses_to_start_with_a_short_secret() {
    let fx = Fixture::new("short-secret");
    let short = fx.base.join("short.txt");
    std::fs::write(&short, "too-short-secret").unwrap();
    let args: Vec<String> = [
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "ws://127.0.0.1:9/ws",
        "--ttl-s",
        "5",
        "--secret-file",
        short.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (status, output) = crate::relay_support::process::run_expecting_exit(
        &args,
        TokenSource::File(&fx.token_file()),
    );
    assert!(!status.success());
    assert!(output.contains("shorter than 32 bytes"), "{output}");
    assert!(!output.contains("too-short-secret"), "{output}");
}
