//! The WebSocket: the browser's own (`web_sys::WebSocket`) or an injected constructor (Node's
//! `ws`, React Native's through `createReactNativeWebSocketConstructor`), called as
//! `new WebSocket(url, {headers})`. Both are driven through the same four events.
//!
//! The listeners are owned here and removed (and their closures dropped) on [`Socket::close`]
//! or drop: no `Closure::forget`. The app-server token only goes into the `Authorization`
//! header; no error text built here contains it. Big `update_device_status` frames are
//! dropped before they are copied while the session does not want them (`skip_status`), and a
//! standby socket holds its stream frames uncopied until they are needed
//! ([`Socket::hold_stream_frames`]).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Any WebSocket-like object: `send`, `close`, `readyState`, and either the `EventTarget`
    /// methods or emitter-style `on` / `off` (some injected sockets).
    #[derive(Clone)]
    pub type JsSocket;
    #[wasm_bindgen(method, catch)]
    pub fn send(this: &JsSocket, text: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn close(this: &JsSocket) -> Result<(), JsValue>;
    /// A `message` event's payload. Not `catch`: a `MessageEvent`'s `data` never throws, and
    /// wasm-bindgen wraps a `catch` import in a closure and an `arguments` object per call, a
    /// visible share of a turn's JS allocation (bench/RESULTS.md, "Whole turn").
    #[wasm_bindgen(method, getter)]
    fn data(this: &JsSocket) -> JsValue;
    #[wasm_bindgen(method, getter, js_name = readyState)]
    fn ready_state(this: &JsSocket) -> JsValue;

    /// A frame's text, for `startsWith` with a JS string argument (js-sys's takes a `&str`,
    /// which becomes a new JS string on every call).
    type FrameText;
    #[wasm_bindgen(method, js_name = startsWith)]
    fn starts_with(this: &FrameText, prefix: &js_sys::JsString) -> bool;

    /// The socket's one listener closure, as a JS function.
    type Listener;
    /// `listener.bind(undefined, event)`: the listener called with the index of the event in
    /// [`EVENTS`] first.
    #[wasm_bindgen(method, js_name = bind)]
    fn bind_event(this: &Listener, context: &JsValue, event: u32) -> js_sys::Function;
}

/// What the socket reports.
#[derive(Debug, Clone, PartialEq)]
pub enum SocketEvent {
    /// The socket opened.
    Open,
    /// A text frame (binary frames decoded as UTF-8; others are dropped before this).
    Frame(String),
    /// The socket closed.
    Closed,
    /// An error event (its message, or `"error event"`).
    Error(String),
}

/// The events listened to; a bound listener carries its event's index in this array.
const EVENTS: [&str; 4] = ["open", "message", "close", "error"];
/// `EVENTS`' index of `error`.
const ERROR: usize = 3;

/// The JS strings that opening, listening to and closing a socket pass to JS, made once per
/// wasm instance: each string made from Rust is a `TextDecoder` call, and made per socket these
/// 13 were a measurable share of opening and closing one (bench/RESULTS.md, "Whole turn", and
/// issue 40's A/B).
struct Names {
    /// [`EVENTS`], in order.
    events: [JsValue; 4],
    add_event_listener: JsValue,
    remove_event_listener: JsValue,
    on: JsValue,
    off: JsValue,
    remove_listener: JsValue,
    /// The frame heads a listener checks (a standby checks one or two on every frame).
    stream_delta: js_sys::JsString,
    turn_finished: js_sys::JsString,
    device_status: js_sys::JsString,
}

impl Names {
    fn new() -> Names {
        Names {
            events: [
                EVENTS[0].into(),
                EVENTS[1].into(),
                EVENTS[2].into(),
                EVENTS[3].into(),
            ],
            add_event_listener: "addEventListener".into(),
            remove_event_listener: "removeEventListener".into(),
            on: "on".into(),
            off: "off".into(),
            remove_listener: "removeListener".into(),
            stream_delta: r#"{"type":"stream_delta""#.into(),
            turn_finished: r#"{"type":"turn_finished""#.into(),
            device_status: r#"{"type":"update_device_status""#.into(),
        }
    }

    /// A big `update_device_status` text frame, checked in JS without copying it into wasm.
    fn is_big_status_frame(&self, data: &JsValue) -> bool {
        data.dyn_ref::<js_sys::JsString>().is_some_and(|text| {
            text.unchecked_ref::<FrameText>()
                .starts_with(&self.device_status)
                && text.length() >= BIG_FRAME
        })
    }

    /// A `stream_delta` or `turn_finished` text frame (the server writes `type` first),
    /// checked in JS without copying it: what a standby contributes (`session::reconnect`).
    fn is_stream_frame(&self, data: &JsValue) -> bool {
        data.dyn_ref::<js_sys::JsString>().is_some_and(|text| {
            let text = text.unchecked_ref::<FrameText>();
            text.starts_with(&self.stream_delta) || text.starts_with(&self.turn_finished)
        })
    }
}

/// The instance's [`Names`], made on first use and kept for the instance's life.
fn names() -> &'static Names {
    thread_local! {
        static NAMES: &'static Names = Box::leak(Box::new(Names::new()));
    }
    NAMES.with(|names| *names)
}

/// An open (or opening) WebSocket with its listeners attached.
pub struct Socket {
    socket: JsSocket,
    /// `addEventListener` (else `on`: its message listener gets the data, not an event).
    event_target: bool,
    /// The listener closure (one for the four events: a closure is a `FinalizationRegistry`
    /// entry, and four per socket were about a third of opening one in bench/turn's profile);
    /// `None` once closed.
    listener: Option<Closure<dyn FnMut(u32, JsValue)>>,
    /// The listener bound to each event, in [`EVENTS`] order (what `remove…` needs).
    bound: Vec<js_sys::Function>,
    /// While holding: the stream frames received since, oldest first, as JS strings.
    held: Held,
}

/// Shared with the message listener; `None` while the socket does not hold frames.
type Held = Rc<RefCell<Option<Vec<JsValue>>>>;

/// The most stream frames a holding socket keeps: when full, the older half goes. The two
/// sockets of a session drift apart by a few frames; the core's de-duplication window is 512.
const HELD_MAX: usize = 256;

/// Where sockets connect, and how: the URL and an injected constructor's arguments, made into
/// JS values once. A session opens its primary socket, its standby and any replacement from one
/// `Dialer`, so each constructor call gets the same `{headers}` object (made per socket, it was
/// about a fifth of opening one in bench/turn's profile).
pub struct Dialer {
    url: String,
    /// An injected WebSocket constructor, with its arguments: `[url]` or `[url, {headers}]`.
    injected: Option<(js_sys::Function, js_sys::Array)>,
    /// Headers without an injected constructor: this error on every connect.
    no_headers: Option<String>,
}

impl Dialer {
    /// To the app server at `url`. `constructor`: an injected WebSocket constructor, or `None`
    /// for the browser's own. `auth_token` goes into the `Authorization` header, which only an
    /// injected constructor can send.
    pub fn app_server(
        url: &str,
        constructor: Option<&js_sys::Function>,
        auth_token: Option<&str>,
    ) -> Dialer {
        let headers = auth_token
            .map(|token| vec![("Authorization".to_owned(), "Bearer ".to_owned() + token)]);
        Dialer::new(url, constructor, headers.as_deref(), NO_HEADERS)
    }

    /// To `url` with `headers` as the `{headers}` constructor argument (`None`: no second
    /// argument at all). Headers need an injected constructor, else connecting fails with
    /// `no_headers`.
    pub fn new(
        url: &str,
        constructor: Option<&js_sys::Function>,
        headers: Option<&[(String, String)]>,
        no_headers: &str,
    ) -> Dialer {
        Dialer {
            url: url.to_owned(),
            injected: constructor.map(|c| (c.clone(), injected_args(url, headers))),
            no_headers: (constructor.is_none() && headers.is_some()).then(|| no_headers.to_owned()),
        }
    }

    /// Opens a socket; `on_event` receives every event until [`Socket::close`]. Error texts
    /// never contain the URL or a header.
    pub fn connect(
        &self,
        skip_status: Rc<Cell<bool>>,
        on_event: impl FnMut(SocketEvent) + 'static,
    ) -> Result<Socket, String> {
        if let Some(error) = &self.no_headers {
            return Err(error.clone());
        }
        let socket = match &self.injected {
            Some((constructor, args)) => js_sys::Reflect::construct(constructor, args)
                .map_err(|error| "WebSocket constructor failed: ".to_owned() + &describe(&error))?
                .unchecked_into::<JsSocket>(),
            None => {
                let socket = web_sys::WebSocket::new(&self.url).map_err(|error| {
                    "WebSocket constructor failed: ".to_owned() + &describe(&error)
                })?;
                socket.set_binary_type(web_sys::BinaryType::Arraybuffer);
                socket.unchecked_into::<JsSocket>()
            }
        };
        let names = names();
        let (add, event_target) = match method(&socket, &names.add_event_listener) {
            Some(add) => (add, true),
            None => (
                method(&socket, &names.on)
                    .ok_or("WebSocket implementation does not support event listeners")?,
                false,
            ),
        };
        let mut socket = Socket {
            socket,
            event_target,
            listener: None,
            bound: Vec::with_capacity(EVENTS.len()),
            held: Held::default(),
        };
        socket.listen(&add, skip_status, on_event)?;
        Ok(socket)
    }
}

impl Socket {
    /// True if the socket is already open (some injected sockets open synchronously).
    pub fn is_open(&self) -> bool {
        self.socket.ready_state().as_f64() == Some(1.0)
    }

    /// The JS socket object, to write on it without holding the driver's state borrowed.
    pub fn js(&self) -> JsSocket {
        self.socket.clone()
    }

    /// Writes one text frame. A failed write means the socket is going away; its close event
    /// follows, so the failure is not reported here.
    pub fn send(&self, text: &str) {
        let _ = self.socket.send(text);
    }

    /// Holds (or stops holding, dropping what was held) the stream frames this socket
    /// receives instead of reporting them; other frames are dropped meanwhile. A standby
    /// socket holds: its copies of the primary's frames then cost no copy into wasm and no
    /// step of the core (most of the second socket's cost before; bench/RESULTS.md).
    pub fn hold_stream_frames(&self, hold: bool) {
        let mut held = self.held.borrow_mut();
        if hold != held.is_some() {
            *held = hold.then(Vec::new);
        }
    }

    /// The held stream frames (JS strings, see [`frame_text`]), oldest first; the socket goes
    /// on holding.
    pub fn take_held(&self) -> Vec<JsValue> {
        self.held
            .borrow_mut()
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Removes the listeners, drops their closure and closes the socket. Idempotent.
    pub fn close(&mut self) {
        let Some(_listener) = self.listener.take() else {
            return;
        };
        let names = names();
        let remove = if self.event_target {
            method(&self.socket, &names.remove_event_listener)
        } else {
            method(&self.socket, &names.off)
                .or_else(|| method(&self.socket, &names.remove_listener))
        };
        for (name, bound) in names.events.iter().zip(self.bound.drain(..)) {
            if let Some(remove) = &remove {
                let _ = remove.call2(&self.socket, name, &bound);
            }
        }
        // An emitter socket (`ws`) closed while still connecting emits `error` on a later tick;
        // with no listener left that is an uncaught exception. `Function.prototype` (a builtin
        // no-op, owned by no closure) listens instead.
        // (Checked first: looking a method up is a `Reflect.get` call.)
        if let Some(add) = self.is_connecting().then(|| self.add_listener()).flatten() {
            let noop = js_sys::Object::get_prototype_of(add.as_ref());
            let _ = add.call2(&self.socket, &names.events[ERROR], &noop);
        }
        let _ = self.socket.close();
    }

    /// `addEventListener`, or `on` for an emitter-style socket.
    fn add_listener(&self) -> Option<js_sys::Function> {
        let names = names();
        let name = if self.event_target {
            &names.add_event_listener
        } else {
            &names.on
        };
        method(&self.socket, name)
    }

    fn is_connecting(&self) -> bool {
        self.socket.ready_state().as_f64() == Some(0.0)
    }

    /// Attaches the listener through `add` (`addEventListener`, or `on`).
    fn listen(
        &mut self,
        add: &js_sys::Function,
        skip_status: Rc<Cell<bool>>,
        mut on_event: impl FnMut(SocketEvent) + 'static,
    ) -> Result<(), String> {
        let event_target = self.event_target;
        let held = self.held.clone();
        let listener =
            Closure::<dyn FnMut(u32, JsValue)>::new(move |index: u32, event: JsValue| {
                let Some(name) = EVENTS.get(index as usize) else {
                    return;
                };
                let filter = Filter {
                    skip_status: skip_status.get(),
                    held: &held,
                    names: names(),
                };
                if let Some(event) = read_event(name, &event, event_target, filter) {
                    on_event(event);
                }
            });
        let function: &Listener = listener.as_ref().unchecked_ref();
        self.bound = (0..EVENTS.len() as u32)
            .map(|index| function.bind_event(&JsValue::UNDEFINED, index))
            .collect();
        self.listener = Some(listener);
        for (name, bound) in names().events.iter().zip(&self.bound) {
            if let Err(error) = add.call2(&self.socket, name, bound) {
                self.close();
                return Err("WebSocket listener failed: ".to_owned() + &describe(&error));
            }
        }
        Ok(())
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.close();
    }
}

const NO_HEADERS: &str = "authToken needs a WebSocket constructor that accepts headers (the ws package in Node, createReactNativeWebSocketConstructor in React Native); browsers cannot send the Authorization header, so connect through a relay that adds it";

/// `[url]` or `[url, {headers: {…}}]`.
fn injected_args(url: &str, headers: Option<&[(String, String)]>) -> js_sys::Array {
    let args = js_sys::Array::of1(&url.into());
    if let Some(headers) = headers {
        let object = js_sys::Object::new();
        for (name, value) in headers {
            let _ = js_sys::Reflect::set(&object, &name.into(), &value.into());
        }
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"headers".into(), &object);
        args.push(&options);
    }
    args
}

/// What a message listener drops or holds instead of reporting.
struct Filter<'a> {
    skip_status: bool,
    held: &'a Held,
    names: &'a Names,
}

/// The event of the listener `name`, or `None` for a message that is no text frame, or that
/// was dropped or held (see [`Filter`]).
fn read_event(
    name: &str,
    event: &JsValue,
    event_target: bool,
    filter: Filter<'_>,
) -> Option<SocketEvent> {
    Some(match name {
        "open" => SocketEvent::Open,
        "close" => SocketEvent::Closed,
        "error" => SocketEvent::Error(
            message_of(event)
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "error event".to_owned()),
        ),
        // Any object with a `data` property (the getter is structural).
        _ => {
            let data = if event_target {
                event.unchecked_ref::<JsSocket>().data()
            } else {
                event.clone()
            };
            if let Some(held) = filter.held.borrow_mut().as_mut() {
                if filter.names.is_stream_frame(&data) {
                    if held.len() == HELD_MAX {
                        held.drain(..HELD_MAX / 2);
                    }
                    held.push(data);
                }
                return None;
            }
            if filter.skip_status && filter.names.is_big_status_frame(&data) {
                return None;
            }
            SocketEvent::Frame(frame_text(&data)?)
        }
    })
}

/// Status frames at least this long are skipped uncopied while nobody listens for them.
const BIG_FRAME: u32 = 1024;

/// A frame's text: strings as they are, binary data decoded as UTF-8 (else `None`).
pub fn frame_text(data: &JsValue) -> Option<String> {
    if let Some(text) = data.dyn_ref::<js_sys::JsString>() {
        return Some(super::text::to_string(text));
    }
    let bytes = if data.is_instance_of::<js_sys::ArrayBuffer>() {
        js_sys::Uint8Array::new(data)
    } else if js_sys::ArrayBuffer::is_view(data) {
        let view: &js_sys::Uint8Array = data.unchecked_ref();
        js_sys::Uint8Array::new_with_byte_offset_and_length(
            &view.buffer(),
            view.byte_offset(),
            view.byte_length(),
        )
    } else {
        return None;
    };
    String::from_utf8(bytes.to_vec()).ok()
}

/// `target[name]` if it is a function.
fn method(target: &JsValue, name: &JsValue) -> Option<js_sys::Function> {
    js_sys::Reflect::get(target, name)
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()
}

fn message_of(value: &JsValue) -> Option<String> {
    js_sys::Reflect::get(value, &"message".into())
        .ok()?
        .as_string()
}

/// A short description of a thrown value, for error messages.
fn describe(value: &JsValue) -> String {
    value
        .as_string()
        .or_else(|| message_of(value))
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "unknown error".to_owned())
}
