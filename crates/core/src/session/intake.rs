//! Frame intake: every frame from a socket is filtered (repeats, unwanted snapshots,
//! copies from the other socket), parsed once, then handed to the handlers, the coordinator
//! and the request table.

use super::core::{Effect, SessionCore};
use super::reconnect::Arrival;
use super::requests::{Pending, Purpose, ResponseMatch};
use super::responses::shape_response;
use crate::protocol::frames::{parse_frame_with, FrameBody, ParseOptions, ParsedFrame};
use crate::protocol::{peek_event_ids, peek_frame_type};

impl SessionCore {
    /// One frame from the (primary) socket (JSON text). Malformed frames and repeated
    /// broadcast frames (see `repeats`) are dropped; nothing panics.
    pub fn on_frame(&mut self, text: &str, now: u64) {
        let ids = peek_event_ids(text);
        if self.recent_frames.is_repeat(&ids) {
            return;
        }
        if self.is_closed() {
            return self.drain_frame(text, &ids, now);
        }
        if self.take_frame(text, ids.envelope_at, false, now) {
            self.recent_frames.remember(&ids);
        }
    }

    /// A frame from either socket, once it is known not to repeat one of that socket's own:
    /// handled unless it is a stream frame the other socket delivered first, or anything but a
    /// stream frame from the `standby` (see `reconnect`). `envelope_at`: where its broadcast
    /// members begin, if known. Returns whether it parsed (only then is its identity
    /// remembered, so a garbled copy never hides the real one).
    pub(super) fn take_frame(
        &mut self,
        text: &str,
        envelope_at: Option<usize>,
        standby: bool,
        now: u64,
    ) -> bool {
        // Dropped unparsed: big device-status snapshots when nobody listens or waits, and what
        // the standby does not contribute or the other socket delivered first.
        let device_status = self.wants_device_status();
        let mut stream_key = None;
        if let Some(frame_type) = peek_frame_type(text) {
            if !device_status && frame_type == "update_device_status" {
                return false;
            }
            match self.copy_seen(&frame_type, standby, text, envelope_at) {
                Arrival::Seen => return true,
                Arrival::New(key) => stream_key = key,
            }
        }
        let Some(frame) = parse_frame_with(text, ParseOptions { device_status }) else {
            return false;
        };
        if !self.first_copy(&frame.frame_type, standby, text, stream_key) {
            return true;
        }
        if frame.frame_type == "input_accepted" {
            if let Some(id) = frame.request_id.as_deref() {
                self.input_answered(id);
            }
        }
        match &frame.body {
            FrameBody::QueueUpdate(queue) => self.on_queue_update(&frame, queue),
            FrameBody::ControlRequest(request) => self.on_control_request(&frame, request),
            FrameBody::ExternalToolCallRequest(request) => self.on_tool_request(&frame, request),
            FrameBody::DeviceStatus(status) => self.on_device_status(&frame, status),
            _ => {}
        }
        if let Some(c) = self.coordinator.as_mut() {
            c.handle_frame(&frame, now);
        }
        self.resume_stalled_queue();
        if frame.request_id.is_some() {
            if let Some(pending) = self.requests.answer(&frame) {
                self.on_response(pending, &frame, now);
            }
        }
        true
    }

    fn on_response(&mut self, pending: Pending, frame: &ParsedFrame<'_>, now: u64) {
        match pending.purpose {
            Purpose::Handshake => self.on_start_response(frame, now),
            Purpose::DeviceSync(call) => self.on_device_sync(call, frame),
            Purpose::Call(call, _) if matches!(pending.matcher, ResponseMatch::Candidates) => {
                self.emit(Effect::Candidate {
                    call,
                    frame: frame.raw.to_owned(),
                });
            }
            Purpose::Call(call, shape) => {
                if let ResponseMatch::QueueItem(item) = &pending.matcher {
                    let removed =
                        crate::json::Object::parse(frame.raw).and_then(|o| o.bool("success"));
                    if removed == Some(true) {
                        // The server dropped the item: its tracked turn will never run.
                        self.forget_queue_item(item);
                    }
                }
                self.complete(call, shape_response(shape, frame.raw));
            }
        }
    }
}
