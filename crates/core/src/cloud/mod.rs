//! Letta Cloud, without I/O (spec §4): option validation, REST request builders and response
//! parsers, the session-start decisions (runtime resolution, explicit computers, the managed
//! sandbox lifecycle) as state machines, and the status-relay logic of the two Cloud sockets.
//!
//! Nothing here performs a request, opens a socket or reads a clock. The transport turns an
//! [`http::HttpRequest`] into a `fetch` call and hands the [`http::HttpResponse`] back; the state
//! machines take `now` (milliseconds) and return the effects to perform and the next deadline.
//!
//! - [`error`]: the typed errors (`name`, `code`, `status`) with the reference's texts;
//! - [`config`]: client options → a validated [`config::CloudConfig`];
//! - [`sandbox_options`]: `sandbox` options (ttl, polling, GitHub repositories);
//! - [`target`]: per-session choice between an explicit computer and a managed sandbox;
//! - [`session_plan`]: a session's conversation, repositories and target, checked;
//! - [`http`]: request/response values, `<status> <body>` errors, the generated client's retries;
//! - [`query`]: query strings as the generated client writes them;
//! - [`rest`]: one builder per §4.2 row and the parsers of their responses;
//! - [`sandbox_api`]: the managed sandbox routes; [`files`]: sandbox file transfer;
//! - [`models`], [`messages`], [`management`], [`repositories`], [`computers`]: management calls;
//! - [`start`]: runtime resolution (§4.3); [`selector`]: explicit computer (§4.4);
//! - [`connect`]: one session's connection from its plan to open status sockets, and its release;
//! - [`sandbox`]: the managed sandbox lifecycle (§4.5);
//! - [`status_sockets`]: the two Cloud status sockets (§4.6);
//! - [`decisions`]: the experimental decisions route (`client.alpha.decisions`).

pub mod computers;
pub mod config;
pub mod connect;
pub mod decisions;
pub mod error;
pub mod files;
pub mod http;
pub mod management;
pub mod messages;
pub mod models;
pub mod query;
pub mod repositories;
pub mod rest;
pub mod sandbox;
pub mod sandbox_api;
pub mod sandbox_options;
pub mod selector;
pub mod session_plan;
pub mod start;
pub mod status_sockets;
pub mod target;

pub use config::CloudConfig;
pub use error::CloudError;
