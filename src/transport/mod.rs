//! The only code that does I/O (wasm32 only): the WebSocket ([`socket`]), `fetch` for Cloud REST (`fetch`), the timer and clock
//! ([`timer`]), request-id nonces from the platform's randomness ([`random`]), JS strings copied in one
//! `TextEncoder` call ([`text`]), and the driver
//! that runs a sans-IO [`SessionCore`](crate::session::SessionCore) on them ([`driver`]). The
//! core stays pure; this layer feeds it socket events and the clock and executes the effects it
//! hands back.

#[cfg(feature = "cloud")]
pub mod cloud_session;
pub mod driver;
#[cfg(feature = "cloud")]
pub mod fetch;
pub mod random;
pub mod socket;
#[cfg(feature = "cloud")]
pub mod status_link;
pub mod text;
pub mod timer;
