//! The driver's event loop: socket events in, core effects out, messages to waiters, the
//! timer re-armed. No `RefCell` borrow is held while JS code runs.

use super::{take_batch, Call, State, BIG_FRAME};
use crate::js::errors::to_js_error;
use crate::session::CallId;
use crate::session::Effect;
use crate::transport::socket::{frame_head, frame_len, frame_text, Socket, SocketEvent};
use crate::transport::timer::{now_ms, Timer};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

pub(super) fn open_socket(inner: &Rc<RefCell<State>>) {
    let weak = Rc::downgrade(inner);
    let opened = {
        let state = inner.borrow();
        if state.socket.is_some() || state.core.is_closed() {
            return;
        }
        Socket::open(
            &state.url,
            state.auth_token.as_deref(),
            &state.constructor,
            move |event| on_socket_event(&weak, event),
        )
    };
    match opened {
        Ok(socket) => {
            let open_already = socket.is_open();
            inner.borrow_mut().socket = Some(socket);
            if open_already {
                inner.borrow_mut().core.on_open(now_ms());
            }
        }
        Err(detail) => {
            inner.borrow_mut().core.on_transport_error(&detail);
        }
    }
    pump(inner);
}

fn on_socket_event(weak: &Weak<RefCell<State>>, event: SocketEvent) {
    let Some(inner) = weak.upgrade() else {
        return;
    };
    {
        let mut state = inner.borrow_mut();
        let now = now_ms();
        match event {
            SocketEvent::Open => state.core.on_open(now),
            SocketEvent::Message(data) => {
                let skip = !state.core.wants_device_status()
                    && frame_len(&data).is_some_and(|n| n >= BIG_FRAME)
                    && frame_head(&data, 64).is_some_and(|head| {
                        crate::protocol::peek_frame_type(&head).as_deref()
                            == Some("update_device_status")
                    });
                if !skip {
                    if let Some(text) = frame_text(&data) {
                        state.core.on_frame(&text, now);
                    }
                }
            }
            SocketEvent::Close => state.core.on_transport_closed(now),
            SocketEvent::Error(detail) => state.core.on_transport_error(&detail),
        }
    }
    pump(&inner);
}

/// Executes the core's effects, delivers messages to waiters and re-arms the timer.
pub(super) fn pump(inner: &Rc<RefCell<State>>) {
    loop {
        let effects: Vec<Effect> = {
            let mut state = inner.borrow_mut();
            std::iter::from_fn(|| state.core.pop_effect()).collect()
        };
        if effects.is_empty() {
            break;
        }
        for effect in effects {
            execute(inner, effect);
        }
    }
    deliver_messages(inner);
    arm_timer(inner);
}

fn execute(inner: &Rc<RefCell<State>>, effect: Effect) {
    match effect {
        Effect::Write(text) => {
            let handle = inner.borrow().socket.as_ref().map(Socket::handle);
            if let Some(handle) = handle {
                // A failed write means the socket is going away; its close event follows.
                let _ = handle.send(&text);
            }
        }
        Effect::Complete { call, result } => {
            let Some(call) = take_call(inner, call) else {
                return;
            };
            let _ = match result {
                Ok(json) => call
                    .resolve
                    .call1(&JsValue::NULL, &JsValue::from_str(&json)),
                Err(error) => call.reject.call1(&JsValue::NULL, &to_js_error(&error)),
            };
        }
        Effect::Candidate { call, frame } => {
            let predicate = inner
                .borrow()
                .calls
                .iter()
                .find(|c| c.id == call)
                .and_then(|c| c.predicate.clone());
            let Some(predicate) = predicate else {
                return;
            };
            let parsed = js_sys::JSON::parse(&frame).unwrap_or(JsValue::NULL);
            let accepted = match predicate.call1(&JsValue::NULL, &parsed) {
                Ok(answer) => answer.is_truthy(),
                Err(thrown) => {
                    inner.borrow_mut().core.cancel_call(call);
                    if let Some(call) = take_call(inner, call) {
                        let _ = call.reject.call1(&JsValue::NULL, &thrown);
                    }
                    return;
                }
            };
            if accepted {
                inner.borrow_mut().core.cancel_call(call);
                if let Some(call) = take_call(inner, call) {
                    let _ = call
                        .resolve
                        .call1(&JsValue::NULL, &JsValue::from_str(&frame));
                }
            }
        }
        Effect::AskApproval {
            handle,
            tool_name,
            input,
            context,
        } => emit(
            inner,
            &[
                "approval",
                &handle.to_string(),
                &tool_name,
                &input,
                &context,
            ],
        ),
        Effect::RunTool {
            handle,
            tool_call_id,
            tool_name,
            input,
        } => emit(
            inner,
            &[
                "tool",
                &handle.to_string(),
                &tool_call_id,
                &tool_name,
                &input,
            ],
        ),
        Effect::DeviceStatus(json) => emit(inner, &["device", &json]),
        Effect::CloseTransport => {
            if let Some(socket) = inner.borrow_mut().socket.as_mut() {
                socket.close();
            }
        }
    }
}

fn take_call(inner: &Rc<RefCell<State>>, id: CallId) -> Option<Call> {
    let mut state = inner.borrow_mut();
    let index = state.calls.iter().position(|c| c.id == id)?;
    Some(state.calls.remove(index))
}

/// Calls the wrapper's event function with string arguments.
fn emit(inner: &Rc<RefCell<State>>, args: &[&str]) {
    let events = inner.borrow().events.clone();
    let array = js_sys::Array::new();
    for arg in args {
        array.push(&JsValue::from_str(arg));
    }
    let _ = events.apply(&JsValue::NULL, &array);
}

fn deliver_messages(inner: &Rc<RefCell<State>>) {
    loop {
        let (resolve, value) = {
            let mut state = inner.borrow_mut();
            if state.waiters.is_empty() {
                return;
            }
            let value = match take_batch(&mut state.core) {
                Some(batch) => JsValue::from_str(&batch),
                None if state.core.stream_ended() => JsValue::UNDEFINED,
                None => return,
            };
            let Some(resolve) = state.waiters.pop_front() else {
                return;
            };
            (resolve, value)
        };
        let _ = resolve.call1(&JsValue::NULL, &value);
    }
}

fn arm_timer(inner: &Rc<RefCell<State>>) {
    let mut state = inner.borrow_mut();
    let deadline = state.core.next_deadline();
    if state.timer.as_ref().map(|t| t.at) == deadline {
        return;
    }
    state.timer = deadline.map(|at| {
        let weak = Rc::downgrade(inner);
        Timer::at(at, move || {
            if let Some(inner) = weak.upgrade() {
                {
                    let mut state = inner.borrow_mut();
                    state.timer = None;
                    let now = now_ms();
                    state.core.on_tick(now);
                }
                pump(&inner);
            }
        })
    });
}
