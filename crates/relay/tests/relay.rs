//! Tests of the `letta-relay` binary: the real process on 127.0.0.1:0 in front of a loopback fake
//! app server (`relay_support`), with the cases in `relay_cases`. Every response, handshake
//! answer, close reason and output line is checked for the token along the way.
#![cfg(not(target_arch = "wasm32"))]

mod relay_cases;
mod relay_support;
