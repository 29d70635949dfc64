//! Helpers of `tests/relay.rs`: the relay process, an HTTP/WebSocket client, a fake upstream
//! (plain or TLS), a page-load flood.

use std::future::Future;
use std::time::Duration;

use futures_util::SinkExt;
use tokio_tungstenite::tungstenite::Message;

pub mod client;
pub mod cloud;
pub mod fixture;
pub mod flood;
pub mod process;
pub mod tls;
pub mod upstream;

/// Every test finishes within this, or fails.
pub const TEST_LIMIT: Duration = Duration::from_secs(40);

/// Runs a test body under [`TEST_LIMIT`].
pub async fn within_limit(test: impl Future<Output = ()>) {
    tokio::time::timeout(TEST_LIMIT, test)
        .await
        .expect("the test finishes in time");
}

/// The relay's arguments: `--upstream`, `--static` (the fixture's), then `extra`.
pub fn args(upstream: &str, fixture: &fixture::Fixture, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "--upstream".to_string(),
        upstream.to_string(),
        "--static".into(),
        fixture.www(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// Starts the relay for `fixture` against `upstream`, reading the token from the fixture's
/// token file (the usual setup), with `extra` arguments.
pub fn start_relay(
    upstream: &str,
    fixture: &fixture::Fixture,
    extra: &[&str],
) -> process::RelayProcess {
    process::RelayProcess::start(
        &args(upstream, fixture, extra),
        process::TokenSource::File(&fixture.token_file()),
        &fixture.token,
    )
}

/// Sends `message`, failing the test if that fails.
pub async fn send(client: &mut client::Client, message: Message) {
    client.send(message).await.expect("send");
}
