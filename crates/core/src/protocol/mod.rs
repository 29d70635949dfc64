//! App-server wire protocol: frames, validation, normalization to `SDKMessage`.
//!
//! - [`frames`]: borrowed parsing of incoming frames through [`crate::json`] ([`parse_frame`]),
//!   with a cheap `type` peek ([`peek_frame_type`]) so big unwanted frames are never parsed;
//! - [`normalize`]: `stream_delta` → [`SdkMessage`] (spec §3.6);
//! - [`sdk_message`]: the `SDKMessage` union with exact JS serialization;
//! - [`commands`]: outgoing commands;
//! - [`runtime`]: runtime scope and the `sameRuntime` filter;
//! - [`device_status`]: the on-demand `update_device_status` projection;
//! - [`errors`]: error codes and stop-reason rules;
//! - [`wire`]: small shared readers (`??` members, text of content, JS-shaped numbers).

pub mod commands;
pub mod commands_input;
pub mod commands_start;
pub mod delta;
pub mod device_status;
mod envelope;
pub mod errors;
pub mod frame_bodies;
pub mod frames;
pub mod normalize;
pub mod runtime;
mod scan;
pub mod sdk_message;
pub mod wire;

pub use delta::StreamDelta;
pub use errors::ErrorCode;
pub use frames::{parse_frame, parse_frame_with, FrameBody, FrameKind, ParseOptions, ParsedFrame};
pub use normalize::{normalize_delta, UuidCounter};
pub use runtime::{FrameScope, Runtime};
pub use scan::{peek_event_ids, peek_frame_type, EventIds};
pub use sdk_message::SdkMessage;

#[cfg(test)]
mod tests_frames;
#[cfg(test)]
mod tests_normalize;
