//! What the driver reports to the JS side of a [`super::SessionDriver`]: message batches for
//! `nextMessages()` callers, settled API calls, and the `events` callback of the wrapper
//! (`approval`, `tool`, `device`, `connection`) for `canUseTool`, SDK-hosted tools and device status.

use super::{session_error, Shared};
use crate::session::Effect;
use crate::transport::driver::Event;
use wasm_bindgen::prelude::*;

impl Shared {
    /// Every message available now as a JSON array; `undefined` once the stream ended; `None`
    /// while there is nothing yet.
    pub(super) fn take_messages(&self) -> Option<JsValue> {
        if let Some(transcript) = self.transcript.borrow_mut().as_mut() {
            return self.feed(transcript);
        }
        let (batch, ended) = self
            .driver
            .with_core(|core| (core.take_messages_json(), core.stream_ended()));
        match batch {
            Some(json) => Some(JsValue::from(json)),
            None if ended => Some(JsValue::UNDEFINED),
            None => None,
        }
    }

    /// Removes the API call `call` from those in flight (it settles now).
    pub(super) fn take_call(&self, call: u32) -> Option<super::Pending> {
        let mut calls = self.calls.borrow_mut();
        let index = calls.iter().rposition(|(id, _)| *id == call)?;
        Some(calls.remove(index).1)
    }

    /// Called by the driver with no borrow held: settles calls, runs callbacks, wakes readers.
    pub(super) fn on_event(&self, event: Event) {
        match event {
            Event::Pumped => self.deliver(),
            Event::Effect(Effect::Complete { call, result }) => {
                let Some(pending) = self.take_call(call) else {
                    return;
                };
                let _ = match result {
                    Ok(json) => pending.resolve.call1(&JsValue::NULL, &json.into()),
                    Err(error) => pending.reject.call1(&JsValue::NULL, &session_error(&error)),
                };
            }
            Event::Effect(Effect::Candidate { call, frame }) => self.candidate(call, &frame),
            #[cfg(feature = "cloud")]
            Event::CloudSettled { call, result } => {
                let Some(pending) = self.take_call(call) else {
                    return;
                };
                let _ = match result {
                    Ok(value) => pending.resolve.call1(&JsValue::NULL, &value.into()),
                    Err(error) => pending
                        .reject
                        .call1(&JsValue::NULL, &crate::js::error::cloud_error(&error)),
                };
            }
            Event::Effect(Effect::AskApproval {
                handle,
                tool_name,
                input,
                context,
            }) => {
                self.emit(&[
                    "approval".into(),
                    handle.into(),
                    tool_name.into(),
                    input.into(),
                    context.into(),
                ]);
            }
            Event::Effect(Effect::RunTool {
                handle,
                tool_call_id,
                tool_name,
                input,
            }) => {
                self.emit(&[
                    "tool".into(),
                    handle.into(),
                    tool_call_id.into(),
                    tool_name.into(),
                    input.into(),
                ]);
            }
            Event::Effect(Effect::DeviceStatus(json)) => self.emit(&["device".into(), json.into()]),
            Event::Effect(Effect::Connection(json)) => {
                self.emit(&["connection".into(), json.into()])
            }
            Event::Effect(Effect::Write(_) | Effect::CloseTransport | Effect::Link(_)) => {}
        }
    }

    fn emit(&self, args: &[JsValue]) {
        let args: js_sys::Array = args.iter().collect();
        let _ = self.events.apply(&JsValue::NULL, &args);
    }

    /// A frame that may answer a `sendCommand` with a predicate: the predicate decides.
    fn candidate(&self, call: u32, frame: &str) {
        let predicate = self
            .calls
            .borrow()
            .iter()
            .find(|(id, _)| *id == call)
            .and_then(|(_, p)| p.predicate.clone());
        let Some(predicate) = predicate else { return };
        let parsed = js_sys::JSON::parse(frame).unwrap_or(JsValue::NULL);
        let verdict = predicate.call1(&JsValue::NULL, &parsed);
        if matches!(&verdict, Ok(accepted) if !accepted.is_truthy()) {
            return;
        }
        self.driver.run(|core, _| core.cancel_call(call));
        let Some(pending) = self.take_call(call) else {
            return;
        };
        let _ = match verdict {
            Ok(_) => pending.resolve.call1(&JsValue::NULL, &frame.into()),
            Err(thrown) => pending.reject.call1(&JsValue::NULL, &thrown),
        };
    }

    /// Hands batches to waiting `nextMessages()` callers.
    fn deliver(&self) {
        while !self.waiters.borrow().is_empty() {
            let Some(batch) = self.take_messages() else {
                return;
            };
            let resolve = {
                let mut waiters = self.waiters.borrow_mut();
                (!waiters.is_empty()).then(|| waiters.remove(0))
            };
            if let Some(resolve) = resolve {
                let _ = resolve.call1(&JsValue::NULL, &batch);
            }
        }
    }
}
