//! `letta-relay`: serves the page and relays its WebSocket to a self-hosted Letta Code app
//! server, holding the server's bearer token (see the `letta_relay` library).

fn main() -> std::process::ExitCode {
    letta_relay::main()
}
