//! The session driver: one sans-IO [`SessionCore`] on a [`Socket`] and a [`Timer`]. Socket
//! events and the clock go into the core; the effects it hands back are executed here (frames
//! written, the socket closed) or handed to the owner's handler (calls to settle, callbacks
//! to run), and after every step the handler hears [`Event::Pumped`] (messages may be ready).
//!
//! The state is shared (`Rc<RefCell<…>>`) with the socket listeners and the timer. No borrow
//! is held while JS runs (a write, the handler): effects are collected first, then executed.
//! A handler that calls back into the driver is fine: the nested step leaves its effects to
//! the loop already running.

use super::socket::{JsSocket, Socket, SocketEvent};
use super::timer::{now, Timer};
use crate::session::{Effect, SessionCore};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// What the driver hands to its owner.
#[derive(Debug)]
pub enum Event {
    /// An effect that is not I/O: settle a call, ask for an approval, run a tool, …
    Effect(Effect),
    /// A step finished: messages may be ready, or the stream may have ended.
    Pumped,
}

/// What the session talks through: one app-server socket, or the Cloud relay pair.
pub enum Link {
    /// One bidirectional socket (remote backend).
    Socket(Socket),
    /// The Cloud status relay's two sockets, as one.
    #[cfg(feature = "cloud")]
    Relay(super::relay_link::RelayLink),
}

/// Writes on a [`Link`] without holding the driver's state borrowed.
enum Writer {
    Socket(JsSocket),
    #[cfg(feature = "cloud")]
    Relay(super::relay_link::RelayWriter),
}

impl Link {
    fn writer(&self) -> Writer {
        match self {
            Link::Socket(socket) => Writer::Socket(socket.js()),
            #[cfg(feature = "cloud")]
            Link::Relay(relay) => Writer::Relay(relay.writer()),
        }
    }
}

impl Writer {
    /// A failed write means the link is going away; its close event follows.
    fn send(&self, text: &str) {
        match self {
            Writer::Socket(socket) => {
                let _ = socket.send(text);
            }
            #[cfg(feature = "cloud")]
            Writer::Relay(relay) => {
                relay.send(text);
            }
        }
    }
}

/// The handler of [`Event`]s.
type Handler = Rc<RefCell<dyn FnMut(Event)>>;

struct State {
    core: SessionCore,
    link: Option<Link>,
    timer: Option<Timer>,
    timer_at: Option<u64>,
    pumping: bool,
    /// Set while a shut-down session drains (`SessionCore::is_draining`): the driver keeps
    /// itself alive, socket and timer included, until the core closes the transport.
    keep_alive: Option<Driver>,
    /// Read by the socket's listener: big status frames are dropped uncopied while set.
    skip_status: Rc<Cell<bool>>,
}

impl State {
    /// Takes the socket, the timer and the self-reference of a drain, to drop once no borrow
    /// is held (dropping them runs JS: listeners removed, the socket closed).
    fn take_io(&mut self) -> (Option<Link>, Option<Timer>, Option<Driver>) {
        self.timer_at = None;
        (self.link.take(), self.timer.take(), self.keep_alive.take())
    }
}

/// One session (or management connection) with its I/O.
#[derive(Clone)]
pub struct Driver {
    state: Rc<RefCell<State>>,
    handler: Handler,
}

impl Driver {
    /// A driver for `core`; `handler` receives every [`Event`].
    pub fn new(core: SessionCore, handler: impl FnMut(Event) + 'static) -> Driver {
        Driver {
            state: Rc::new(RefCell::new(State {
                core,
                link: None,
                timer: None,
                timer_at: None,
                pumping: false,
                keep_alive: None,
                skip_status: Rc::new(Cell::new(true)),
            })),
            handler: Rc::new(RefCell::new(handler)),
        }
    }

    /// Opens the socket (see [`Socket::connect`]); a failure goes to the core as a transport
    /// error, which settles what waits on the connection.
    pub fn connect(&self, url: &str, constructor: Option<&js_sys::Function>, token: Option<&str>) {
        let weak = Rc::downgrade(&self.state);
        let handler = Rc::downgrade(&self.handler);
        let skip_status = self.state.borrow().skip_status.clone();
        let connected = Socket::connect(url, constructor, token, skip_status, move |event| {
            if let (Some(state), Some(handler)) = (weak.upgrade(), handler.upgrade()) {
                Driver { state, handler }.on_socket_event(event);
            }
        });
        match connected {
            Ok(socket) => {
                let open = socket.is_open();
                self.state.borrow_mut().link = Some(Link::Socket(socket));
                if open {
                    self.run(|core, now| core.on_open(now));
                }
            }
            Err(error) => self.run(|core, _| core.on_transport_error(&error)),
        }
        self.pump();
    }

    /// Takes over an open Cloud relay pair (see `transport::cloud_session`): its events go to
    /// the core from now on, and the core starts the session on it.
    #[cfg(feature = "cloud")]
    pub fn attach_relay(&self, relay: super::relay_link::RelayLink) {
        let weak = Rc::downgrade(&self.state);
        let handler = Rc::downgrade(&self.handler);
        let open = relay.is_open();
        // A replaced link (idle recovery) is gone already; drop it with no borrow held.
        let previous = self.state.borrow_mut().link.replace(Link::Relay(relay));
        drop(previous);
        if open {
            self.run(|core, now| core.on_open(now));
        }
        let writer = match self.state.borrow().link.as_ref() {
            Some(Link::Relay(relay)) => Some(relay.writer()),
            _ => None,
        };
        if let Some(writer) = writer {
            writer.set_sink(move |event| {
                if let (Some(state), Some(handler)) = (weak.upgrade(), handler.upgrade()) {
                    Driver { state, handler }.on_socket_event(event);
                }
            });
        }
    }

    /// Reports a failed Cloud connection attempt to the core (it settles what waits on it).
    #[cfg(feature = "cloud")]
    pub fn connect_failed(&self, detail: &str) {
        self.run(|core, _| core.on_transport_error(detail));
    }

    /// Runs `step` on the core with the clock, then executes the effects.
    pub fn run<R>(&self, step: impl FnOnce(&mut SessionCore, u64) -> R) -> R {
        let result = step(&mut self.state.borrow_mut().core, now());
        self.pump();
        result
    }

    /// Reads the core without a step (queries, taking messages).
    pub fn with_core<R>(&self, read: impl FnOnce(&mut SessionCore) -> R) -> R {
        read(&mut self.state.borrow_mut().core)
    }

    /// Closes the session, then the socket and the timer: at once, or, while the server still
    /// settles our work (`SessionCore::is_draining`, bounded by the core's deadline), once the
    /// core closes the transport. The owner may drop its handle meanwhile.
    pub fn shut_down(&self) {
        self.run(|core, now| core.close(now));
        let released = {
            let mut state = self.state.borrow_mut();
            if state.core.is_draining() && state.link.is_some() {
                state.keep_alive = Some(self.clone());
                return;
            }
            state.take_io()
        };
        drop(released);
    }

    fn on_socket_event(&self, event: SocketEvent) {
        let closed = matches!(event, SocketEvent::Closed);
        self.run(|core, now| match event {
            SocketEvent::Open => core.on_open(now),
            SocketEvent::Frame(text) => core.on_frame(&text, now),
            SocketEvent::Closed => core.on_transport_closed(now),
            SocketEvent::Error(detail) => core.on_transport_error(&detail),
        });
        if closed {
            self.end_drain();
        }
    }

    /// Lets a draining driver go (its socket is gone or closed).
    fn end_drain(&self) {
        let released = {
            let mut state = self.state.borrow_mut();
            if state.keep_alive.is_none() {
                return;
            }
            state.take_io()
        };
        drop(released);
    }

    /// Executes effects until none is left, tells the handler (whose calls into the driver
    /// may make more), then re-arms the timer. A nested call leaves its effects to this loop.
    fn pump(&self) {
        if std::mem::replace(&mut self.state.borrow_mut().pumping, true) {
            return;
        }
        let mut told = false;
        loop {
            let effects: Vec<Effect> = {
                let mut state = self.state.borrow_mut();
                std::iter::from_fn(|| state.core.pop_effect()).collect()
            };
            if effects.is_empty() {
                if told {
                    break;
                }
                told = true;
                (self.handler.borrow_mut())(Event::Pumped);
                continue;
            }
            told = false;
            for effect in effects {
                self.execute(effect);
            }
        }
        self.state.borrow_mut().pumping = false;
        self.arm();
    }

    fn execute(&self, effect: Effect) {
        match effect {
            Effect::Write(text) => {
                let writer = self.state.borrow().link.as_ref().map(Link::writer);
                if let Some(writer) = writer {
                    writer.send(&text);
                }
            }
            Effect::CloseTransport => {
                let link = self.state.borrow_mut().link.take();
                drop(link);
                self.end_drain();
            }
            other => (self.handler.borrow_mut())(Event::Effect(other)),
        }
    }

    /// Sets the timer to the core's next deadline (if it changed).
    fn arm(&self) {
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        state.skip_status.set(!state.core.wants_device_status());
        let at = state.core.next_deadline();
        if at == state.timer_at {
            return;
        }
        state.timer_at = at;
        let timer = state.timer.get_or_insert_with(|| {
            let weak = Rc::downgrade(&self.state);
            let handler = Rc::downgrade(&self.handler);
            Timer::new(move || {
                if let (Some(state), Some(handler)) = (weak.upgrade(), handler.upgrade()) {
                    let driver = Driver { state, handler };
                    {
                        let mut state = driver.state.borrow_mut();
                        state.timer_at = None;
                        if let Some(timer) = state.timer.as_mut() {
                            timer.fired();
                        }
                    }
                    driver.run(|core, now| core.on_tick(now));
                }
            })
        });
        match at {
            Some(at) => timer.arm(at.saturating_sub(now()) as f64),
            None => timer.clear(),
        }
    }
}
