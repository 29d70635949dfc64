//! A `wss://` upstream with a self-signed certificate: relayed when the relay is given the CA,
//! refused without it (the platform's roots) and with another CA.

use tokio_tungstenite::tungstenite::Message;

use crate::relay_support::client::next_data;
use crate::relay_support::fixture::Fixture;
use crate::relay_support::tls::SelfSigned;
use crate::relay_support::upstream::FakeUpstream;
use crate::relay_support::{send, start_relay, within_limit};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wss_upstream_is_relayed_with_its_ca_and_refused_without_it() {
    within_limit(async {
        let fx = Fixture::new("tls");
        let server = SelfSigned::new(&fx.base, "upstream");
        let other = SelfSigned::new(&fx.base, "other");
        let up = FakeUpstream::start_tls(&fx.token, server.acceptor.clone()).await;
        assert!(up.url.starts_with("wss://127.0.0.1:"), "{}", up.url);

        let ca = server.pem.display().to_string();
        let mut relay = start_relay(&up.url, &fx, &["--ca-file", &ca]);
        let mut client = relay.ws_as_page().await;
        for message in [Message::text("over TLS"), Message::binary(vec![1u8, 2, 3])] {
            send(&mut client, message.clone()).await;
            assert_eq!(next_data(&mut client).await, message);
        }
        let handshakes = up.handshakes();
        assert_eq!(handshakes.len(), 1);
        assert_eq!(
            handshakes[0].authorization,
            Some(format!("Bearer {}", fx.token))
        );
        relay.stop_and_check_output();

        let other_ca = other.pem.display().to_string();
        for extra in [vec![], vec!["--ca-file", other_ca.as_str()]] {
            let mut relay = start_relay(&up.url, &fx, &extra);
            let mut client = relay.ws_as_page().await;
            let (code, reason) = relay.next_close(&mut client).await;
            assert_eq!(code, 1011, "{extra:?}: {reason}");
            assert!(
                reason.contains("upstream TLS failed"),
                "{extra:?}: {reason}"
            );
            relay.stop_and_check_output();
        }
        assert_eq!(
            up.handshakes().len(),
            1,
            "no untrusted handshake reached the upstream"
        );
    })
    .await;
}

#[test]
fn refuses_to_start_with_an_unreadable_ca_file() {
    let fx = Fixture::new("bad-ca");
    let not_pem = fx.base.join("not-a-ca.pem");
    std::fs::write(&not_pem, "no certificates here\n").unwrap();
    for path in [not_pem, fx.base.join("absent.pem")] {
        let args: Vec<String> = [
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "wss://127.0.0.1:9/ws",
            "--ttl-s",
            "5",
            "--ca-file",
            path.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (status, output) = crate::relay_support::process::run_expecting_exit(
            &args,
            crate::relay_support::process::TokenSource::File(&fx.token_file()),
        );
        assert!(!status.success(), "{output}");
        assert!(output.contains("--ca-file"), "{output}");
    }
}
