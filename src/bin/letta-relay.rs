//! `letta-relay`: serves the page and relays its WebSocket to a self-hosted Letta Code app
//! server, holding the server's bearer token (see `letta_agent_wasm::relay`).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    letta_agent_wasm::relay::main()
}

/// The relay is a native program; the wasm32 build of this target does nothing.
#[cfg(target_arch = "wasm32")]
fn main() {}
