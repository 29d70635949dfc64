//! The only code that does I/O (wasm32 only): the WebSocket — the browser's through web-sys,
//! or an injected constructor with the Node-style `(url, {headers})` signature (the `ws`
//! package, React Native) — and timers.

pub mod socket;
pub mod text;
pub mod timer;
