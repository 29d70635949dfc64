//! The WebSocket: opened with the browser's constructor through web-sys, or with an injected
//! constructor called as `new WebSocket(url, {headers: {Authorization: "Bearer <token>"}})`.
//! Listeners are attached with `addEventListener` (or `on`, for emitter-style sockets) and
//! removed again on close, so nothing outlives the socket.

use js_sys::{Array, Function, JsString, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What happened on the socket.
pub enum SocketEvent {
    Open,
    /// One frame's data as the socket delivered it (string, ArrayBuffer or a byte view).
    Message(JsValue),
    /// The socket closed.
    Close,
    /// An error event; before `open` it means the connection failed.
    Error(String),
}

type Listener = Closure<dyn FnMut(JsValue)>;

/// The JS socket object (cheap to clone: a reference).
#[derive(Clone)]
pub enum Handle {
    Native(web_sys::WebSocket),
    Injected(Object),
}

/// An open or opening WebSocket with its listeners. The listener closures live as long as the
/// `Socket` value, even after [`Socket::close`] detached them.
pub struct Socket {
    handle: Handle,
    listeners: Vec<(&'static str, Listener)>,
    /// `addEventListener` (true) or `on` (false) was used.
    event_target: bool,
    closed: bool,
}

const EVENTS: [&str; 4] = ["open", "message", "close", "error"];

impl Socket {
    /// Opens a socket. `constructor`: the injected WebSocket class (or `undefined` for
    /// `globalThis.WebSocket`). The token only ever travels in the `Authorization` header.
    pub fn open(
        url: &str,
        auth_token: Option<&str>,
        constructor: &JsValue,
        on_event: impl FnMut(SocketEvent) + Clone + 'static,
    ) -> Result<Socket, String> {
        let handle = if constructor.is_function() {
            let args = Array::new();
            args.push(&JsValue::from_str(url));
            if let Some(token) = auth_token {
                let headers = Object::new();
                let mut bearer = String::from("Bearer ");
                bearer.push_str(token);
                set(&headers, "Authorization", &JsValue::from_str(&bearer));
                let options = Object::new();
                set(&options, "headers", &headers);
                args.push(&options);
            }
            let ctor: &Function = constructor.unchecked_ref();
            let socket = Reflect::construct(ctor, &args)
                .map_err(|e| format!("WebSocket constructor failed: {}", describe(&e)))?;
            Handle::Injected(socket.unchecked_into())
        } else {
            if auth_token.is_some() {
                return Err(String::from(
                    "authToken needs a WebSocket constructor that accepts headers (the ws package in Node, createReactNativeWebSocketConstructor in React Native); browsers cannot send the Authorization header, so connect through a relay that adds it",
                ));
            }
            let has_global = Reflect::get(&js_sys::global(), &JsValue::from_str("WebSocket"))
                .is_ok_and(|c| c.is_function());
            if !has_global {
                return Err(String::from(
                    "No WebSocket implementation available: pass the WebSocket option (for example the ws package in Node).",
                ));
            }
            let socket = web_sys::WebSocket::new(url)
                .map_err(|e| format!("WebSocket constructor failed: {}", describe(&e)))?;
            socket.set_binary_type(web_sys::BinaryType::Arraybuffer);
            Handle::Native(socket)
        };
        let target: &JsValue = match &handle {
            Handle::Native(s) => s.as_ref(),
            Handle::Injected(s) => s.as_ref(),
        };
        let event_target = method(target, "addEventListener").is_some();
        let register = if event_target {
            method(target, "addEventListener")
        } else {
            method(target, "on")
        }
        .ok_or_else(|| String::from("WebSocket implementation does not support event listeners"))?;
        let mut listeners = Vec::with_capacity(EVENTS.len());
        for name in EVENTS {
            let mut on_event = on_event.clone();
            let listener = Listener::new(move |event: JsValue| {
                on_event(translate(name, event, event_target));
            });
            register
                .call2(target, &JsValue::from_str(name), listener.as_ref())
                .map_err(|e| format!("WebSocket listener failed: {}", describe(&e)))?;
            listeners.push((name, listener));
        }
        Ok(Socket {
            handle,
            listeners,
            event_target,
            closed: false,
        })
    }

    fn target(&self) -> &JsValue {
        match &self.handle {
            Handle::Native(s) => s.as_ref(),
            Handle::Injected(s) => s.as_ref(),
        }
    }

    /// True once the socket is open (`readyState === 1`).
    pub fn is_open(&self) -> bool {
        match &self.handle {
            Handle::Native(s) => s.ready_state() == web_sys::WebSocket::OPEN,
            Handle::Injected(s) => {
                Reflect::get(s, &JsValue::from_str("readyState"))
                    .ok()
                    .and_then(|v| v.as_f64())
                    == Some(1.0)
            }
        }
    }

    /// The socket object, for writing without holding on to the `Socket` (a fake socket may
    /// call its listeners from inside `send`).
    pub fn handle(&self) -> Handle {
        self.handle.clone()
    }
}

impl Handle {
    /// Writes one text frame.
    pub fn send(&self, text: &str) -> Result<(), String> {
        let result = match self {
            Handle::Native(s) => s.send_with_str(text),
            Handle::Injected(s) => match method(s, "send") {
                Some(send) => send.call1(s, &JsValue::from_str(text)).map(|_| ()),
                None => return Err(String::from("WebSocket implementation has no send()")),
            },
        };
        result.map_err(|e| describe(&e))
    }
}

impl Socket {
    /// Detaches the listeners and closes the socket (idempotent).
    pub fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        let target = self.target().clone();
        let remove = if self.event_target {
            method(&target, "removeEventListener")
        } else {
            method(&target, "off").or_else(|| method(&target, "removeListener"))
        };
        if let Some(remove) = &remove {
            for (name, listener) in &self.listeners {
                let _ = remove.call2(&target, &JsValue::from_str(name), listener.as_ref());
            }
        }
        let _ = match &self.handle {
            Handle::Native(s) => s.close(),
            Handle::Injected(s) => match method(s, "close") {
                Some(close) => close.call0(s).map(|_| ()),
                None => Ok(()),
            },
        };
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.close();
    }
}

/// Maps a DOM-style event (or an emitter's arguments) to a [`SocketEvent`].
fn translate(name: &str, event: JsValue, event_target: bool) -> SocketEvent {
    match name {
        "open" => SocketEvent::Open,
        "message" => SocketEvent::Message(if event_target {
            Reflect::get(&event, &JsValue::from_str("data")).unwrap_or(JsValue::UNDEFINED)
        } else {
            event
        }),
        "close" => SocketEvent::Close,
        _ => {
            let message = Reflect::get(&event, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .filter(|m| !m.is_empty());
            SocketEvent::Error(message.unwrap_or_else(|| String::from("error event")))
        }
    }
}

/// The text of a frame's data: strings as they are, binary data decoded as UTF-8.
pub fn frame_text(data: &JsValue) -> Option<String> {
    if let Some(text) = data.dyn_ref::<JsString>() {
        return Some(super::text::js_string(text));
    }
    if data.is_instance_of::<js_sys::ArrayBuffer>() || js_sys::ArrayBuffer::is_view(data) {
        let bytes = Uint8Array::new(data).to_vec();
        return String::from_utf8(bytes).ok();
    }
    None
}

/// The first characters of a string frame, without copying the rest into wasm memory.
pub fn frame_head(data: &JsValue, chars: u32) -> Option<String> {
    let text = data.dyn_ref::<JsString>()?;
    Some(String::from(text.slice(0, chars)))
}

/// The length of a string frame in UTF-16 units.
pub fn frame_len(data: &JsValue) -> Option<u32> {
    data.dyn_ref::<JsString>().map(JsString::length)
}

fn method(target: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(target, &JsValue::from_str(name))
        .ok()
        .filter(JsValue::is_function)
        .map(JsCast::unchecked_into)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// A short description of a thrown value or event, for error messages.
pub fn describe(value: &JsValue) -> String {
    value
        .as_string()
        .or_else(|| {
            Reflect::get(value, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| String::from("unknown error"))
}
