//! The session driver: one sans-IO [`SessionCore`] on a [`Socket`] and a [`Timer`]. Socket
//! events and the clock go into the core; the effects it hands back are executed here (frames
//! written, the socket closed) or handed to the owner's handler (calls to settle, callbacks
//! to run), and after every step the handler hears [`Event::Pumped`] (messages may be ready).
//!
//! The state is shared (`Rc<RefCell<…>>`) with the socket listeners and the timer. No borrow
//! is held while JS runs (a write, the handler): effects are collected first, then executed.
//! A handler that calls back into the driver is fine: the nested step leaves its effects to
//! the loop already running.

use super::socket::{Socket, SocketEvent};
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

/// The handler of [`Event`]s.
type Handler = Rc<RefCell<dyn FnMut(Event)>>;

struct State {
    core: SessionCore,
    socket: Option<Socket>,
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
    fn take_io(&mut self) -> (Option<Socket>, Option<Timer>, Option<Driver>) {
        self.timer_at = None;
        (
            self.socket.take(),
            self.timer.take(),
            self.keep_alive.take(),
        )
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
                socket: None,
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
                self.state.borrow_mut().socket = Some(socket);
                if open {
                    self.run(|core, now| core.on_open(now));
                }
            }
            Err(error) => self.run(|core, _| core.on_transport_error(&error)),
        }
        self.pump();
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
            if state.core.is_draining() && state.socket.is_some() {
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
                let socket = self.state.borrow().socket.as_ref().map(Socket::js);
                if let Some(socket) = socket {
                    let _ = socket.send(&text);
                }
            }
            Effect::CloseTransport => {
                let socket = self.state.borrow_mut().socket.take();
                drop(socket);
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
