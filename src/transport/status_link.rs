//! Letta Cloud's two status sockets (`channel=control`, `channel=stream`, spec §4.6) driven
//! through the sans-IO [`StatusSockets`] and presented to the session driver as one link: it
//! reports [`SocketEvent::Open`] once both are open, every frame their protocol lets through as
//! [`SocketEvent::Frame`], and one [`SocketEvent::Closed`] when either closes. Acks, dropped
//! duplicates, the gap `sync` and the pings happen here, below the session.
//!
//! The API key may be in the socket URLs (`webSocketAuth: "query"`) or the headers: no event
//! or error text leaving this module contains a URL or the key ([`redact`]).

use super::socket::{Dialer, Socket, SocketEvent};
use super::timer::{now, Timer};
use crate::cloud::status_sockets::{Channel, Output, StatusEndpoints, StatusSockets};
use crate::protocol::Runtime;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

/// Where the link's events go (the session driver, once it took the link over).
type Sink = Box<dyn FnMut(SocketEvent)>;

const NO_HEADERS: &str = "Letta Cloud header auth needs a WebSocket constructor that accepts headers (the ws package in Node, createReactNativeWebSocketConstructor in React Native); in browsers use webSocketAuth: \"query\"";

struct Inner {
    protocol: StatusSockets,
    /// Control, stream.
    sockets: [Option<Socket>; 2],
    timer: Option<Timer>,
    /// The ping deadline the timer is armed for.
    timer_at: Option<u64>,
    /// Events that came before a sink was set.
    held: Vec<SocketEvent>,
    sink: Option<Sink>,
    /// Called when an event is held (wakes [`StatusLink::wait_open`]).
    notify: Option<js_sys::Function>,
    /// Texts that must not appear in an event: the URLs and the key.
    secrets: Vec<String>,
}

/// The socket pair of one connection. Dropping it closes both sockets and stops the pings.
pub struct StatusLink {
    inner: Rc<RefCell<Inner>>,
}

/// A handle that writes on a [`StatusLink`] without owning it.
#[derive(Clone)]
pub struct StatusWriter {
    inner: Weak<RefCell<Inner>>,
}

fn index(channel: Channel) -> usize {
    match channel {
        Channel::Control => 0,
        Channel::Stream => 1,
    }
}

impl StatusLink {
    /// Opens both sockets of `endpoints` for `runtime` (whose `sync` the protocol sends on a gap),
    /// pinging every `ping_interval_ms`. `constructor`: the injected WebSocket constructor, or
    /// `None` for the platform's own (query auth only). `api_key` is redacted from every text.
    pub fn open(
        endpoints: &StatusEndpoints,
        runtime: Runtime,
        ping_interval_ms: u64,
        constructor: Option<&js_sys::Function>,
        api_key: Option<&str>,
    ) -> Result<StatusLink, String> {
        let mut secrets = vec![endpoints.control.clone(), endpoints.stream.clone()];
        secrets.extend(api_key.filter(|k| !k.is_empty()).map(str::to_owned));
        let inner = Rc::new(RefCell::new(Inner {
            protocol: StatusSockets::new(runtime, ping_interval_ms),
            sockets: [None, None],
            timer: None,
            timer_at: None,
            held: Vec::new(),
            sink: None,
            notify: None,
            secrets,
        }));
        let link = StatusLink { inner };
        for (channel, url) in [
            (Channel::Control, &endpoints.control),
            (Channel::Stream, &endpoints.stream),
        ] {
            let weak = Rc::downgrade(&link.inner);
            let dialer = Dialer::new(url, constructor, endpoints.headers.as_deref(), NO_HEADERS);
            let socket = dialer
                .connect(
                    // Every frame passes the protocol (its seq is acked), so none is skipped unread.
                    Rc::new(Cell::new(false)),
                    move |event| {
                        if let Some(inner) = weak.upgrade() {
                            on_socket_event(&inner, channel, event);
                        }
                    },
                )
                .map_err(|detail| link.redact(&detail))?;
            let open = socket.is_open();
            link.inner.borrow_mut().sockets[index(channel)] = Some(socket);
            if open {
                on_socket_event(&link.inner, channel, SocketEvent::Open);
            }
        }
        Ok(link)
    }

    fn redact(&self, text: &str) -> String {
        redact(text, &self.inner.borrow().secrets)
    }

    /// Resolves once both sockets are open, or with the (redacted) detail of the failure.
    /// Frames that come meanwhile stay held for the sink.
    #[cfg(feature = "cloud")]
    pub async fn wait_open(&self) -> Result<(), String> {
        loop {
            {
                let inner = self.inner.borrow();
                if inner.protocol.is_open() {
                    return Ok(());
                }
                for event in &inner.held {
                    match event {
                        SocketEvent::Error(detail) => return Err(detail.clone()),
                        SocketEvent::Closed => {
                            return Err("the socket closed before it opened".to_owned())
                        }
                        _ => {}
                    }
                }
            }
            let promise = js_sys::Promise::new(&mut |resolve, _| {
                self.inner.borrow_mut().notify = Some(resolve);
            });
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        }
    }

    /// Both sockets are open.
    pub fn is_open(&self) -> bool {
        self.inner.borrow().protocol.is_open()
    }

    /// A writer for the session driver.
    pub fn writer(&self) -> StatusWriter {
        StatusWriter {
            inner: Rc::downgrade(&self.inner),
        }
    }
}

impl StatusWriter {
    /// Sends events to `sink` from now on (first the ones held until now).
    pub fn set_sink(&self, sink: impl FnMut(SocketEvent) + 'static) {
        let Some(inner) = self.inner.upgrade() else {
            return;
        };
        let held = {
            let mut inner = inner.borrow_mut();
            inner.sink = Some(Box::new(sink));
            std::mem::take(&mut inner.held)
        };
        for event in held {
            emit(&inner, event);
        }
    }

    /// Writes a command on the control socket. `false` when it is not open (its close event
    /// follows, or came already).
    pub fn send(&self, text: &str) -> bool {
        let Some(inner) = self.inner.upgrade() else {
            return false;
        };
        let output = inner.borrow().protocol.send(text.to_owned());
        match output {
            Ok(output) => {
                execute(&inner, vec![output]);
                true
            }
            Err(_) => false,
        }
    }
}

impl Drop for StatusLink {
    fn drop(&mut self) {
        let released = {
            let mut inner = self.inner.borrow_mut();
            inner.sink = None;
            (
                inner.sockets[0].take(),
                inner.sockets[1].take(),
                inner.timer.take(),
            )
        };
        drop(released);
    }
}

/// Replaces every secret in `text` (longest first, so a URL goes before the key inside it).
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut secrets: Vec<&String> = secrets.iter().filter(|s| !s.is_empty()).collect();
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.into_iter().fold(text.to_owned(), |text, secret| {
        text.replace(secret.as_str(), "[redacted]")
    })
}

fn on_socket_event(inner: &Rc<RefCell<Inner>>, channel: Channel, event: SocketEvent) {
    let outputs = {
        let mut state = inner.borrow_mut();
        match event {
            SocketEvent::Open => state.protocol.on_open(channel, now()),
            SocketEvent::Frame(text) => state.protocol.on_message(channel, text),
            SocketEvent::Closed => state.protocol.on_close(channel),
            SocketEvent::Error(detail) => {
                let opened = state.protocol.is_open();
                let detail = redact(&detail, &state.secrets);
                drop(state);
                if !opened {
                    emit(inner, SocketEvent::Error(detail));
                }
                // A socket that errs is gone: the pair closes (its close event adds nothing).
                inner.borrow_mut().protocol.on_close(channel)
            }
        }
    };
    execute(inner, outputs);
}

/// Runs the protocol's outputs with no borrow held while JS runs, then re-arms the ping timer.
fn execute(inner: &Rc<RefCell<Inner>>, outputs: Vec<Output>) {
    for output in outputs {
        match output {
            Output::Write(channel, text) => {
                let socket = inner.borrow().sockets[index(channel)]
                    .as_ref()
                    .map(Socket::js);
                if let Some(socket) = socket {
                    let _ = socket.send(&text);
                }
            }
            Output::Deliver(text) => emit(inner, SocketEvent::Frame(text)),
            Output::Opened => emit(inner, SocketEvent::Open),
            Output::Close(channel) => {
                let socket = inner.borrow_mut().sockets[index(channel)].take();
                drop(socket);
            }
            Output::Closed => {
                let released = {
                    let mut state = inner.borrow_mut();
                    (
                        state.sockets[0].take(),
                        state.sockets[1].take(),
                        state.timer.take(),
                    )
                };
                drop(released);
                emit(inner, SocketEvent::Closed);
            }
        }
    }
    arm(inner);
}

/// Hands `event` to the sink (taken out while it runs: it may write on the link), or holds it.
fn emit(inner: &Rc<RefCell<Inner>>, event: SocketEvent) {
    let sink = inner.borrow_mut().sink.take();
    match sink {
        Some(mut sink) => {
            sink(event);
            let mut state = inner.borrow_mut();
            if state.sink.is_none() {
                state.sink = Some(sink);
            }
        }
        None => {
            let notify = {
                let mut state = inner.borrow_mut();
                state.held.push(event);
                state.notify.take()
            };
            if let Some(notify) = notify {
                let _ = notify.call0(&wasm_bindgen::JsValue::NULL);
            }
        }
    }
}

/// Sets the ping timer to the protocol's deadline.
fn arm(inner: &Rc<RefCell<Inner>>) {
    let mut guard = inner.borrow_mut();
    let state = &mut *guard;
    let at = state.protocol.deadline();
    if at == state.timer_at {
        return;
    }
    state.timer_at = at;
    let Some(at) = at else {
        if let Some(timer) = state.timer.as_mut() {
            timer.clear();
        }
        return;
    };
    let timer = state.timer.get_or_insert_with(|| {
        let weak = Rc::downgrade(inner);
        Timer::new(move || {
            if let Some(inner) = weak.upgrade() {
                let outputs = {
                    let mut state = inner.borrow_mut();
                    state.timer_at = None;
                    if let Some(timer) = state.timer.as_mut() {
                        timer.fired();
                    }
                    state.protocol.on_tick(now())
                };
                execute(&inner, outputs);
            }
        })
    });
    timer.arm(at.saturating_sub(now()) as f64);
}
