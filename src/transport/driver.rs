//! The session driver: one sans-IO [`SessionCore`] on a [`Socket`] and a [`Timer`]. Socket
//! events and the clock go into the core; the effects it hands back are executed here (frames
//! written, the socket closed) or handed to the owner's handler (calls to settle, callbacks
//! to run), and after every step the handler hears [`Event::Pumped`] (messages may be ready).
//!
//! The state is shared (`Rc<RefCell<…>>`) with the socket listeners and the timer. No borrow
//! is held while JS runs (a write, the handler): effects are collected first, then executed.
//! A handler that calls back into the driver is fine: the nested step leaves its effects to
//! the loop already running.
//!
//! A Cloud session's connection (`cloud::connect::CloudConnect`, its I/O in
//! `transport::cloud_session`) is pumped in the same loop and woken by the same timer.
//!
//! A remote session with a reconnect policy also holds a *standby* socket on the same URL
//! (`session::reconnect`): the core says when to open, write, promote and close it
//! ([`LinkEffect`]), and its events go to the core's standby entry points; once it is ready,
//! it holds its stream frames uncopied (`Socket::hold_stream_frames`), and the core gets them
//! only if the primary drops. Each socket's listener carries the socket's number, so an event
//! of a socket that was replaced is ignored.

#[cfg(feature = "cloud")]
mod cloud;

use super::socket::{frame_text, Dialer, JsSocket, Socket, SocketEvent};
use super::timer::{now, Timer};
use crate::session::{Effect, LinkEffect, SessionCore};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// What the driver hands to its owner.
#[derive(Debug)]
pub enum Event {
    /// An effect that is not I/O: settle a call, ask for an approval, run a tool, …
    Effect(Effect),
    /// A step finished: messages may be ready, or the stream may have ended.
    Pumped,
    /// Settle a call of the Cloud connection (`connect`'s failure, `beforeTurn`, a transfer's
    /// sandbox id): see `transport::cloud_session`.
    #[cfg(feature = "cloud")]
    CloudSettled {
        /// The call.
        call: u32,
        /// Its outcome.
        result: crate::cloud::error::CloudResult<Option<String>>,
    },
}

/// What the session talks through: one app-server socket, or the Cloud status sockets.
pub enum Link {
    /// One bidirectional socket (remote backend).
    Socket(Socket),
    /// The Cloud status sockets's two sockets, as one.
    #[cfg(feature = "cloud")]
    Status(super::status_link::StatusLink),
}

/// Writes on a [`Link`] without holding the driver's state borrowed.
enum Writer {
    Socket(JsSocket),
    #[cfg(feature = "cloud")]
    Status(super::status_link::StatusWriter),
}

impl Link {
    fn writer(&self) -> Writer {
        match self {
            Link::Socket(socket) => Writer::Socket(socket.js()),
            #[cfg(feature = "cloud")]
            Link::Status(link) => Writer::Status(link.writer()),
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
            Writer::Status(writer) => {
                writer.send(text);
            }
        }
    }
}

/// The handler of [`Event`]s.
type Handler = Rc<RefCell<dyn FnMut(Event)>>;

/// Which of the session's sockets an event came from.
enum Role {
    Primary,
    Standby,
    /// A socket that was replaced: its events are ignored.
    Gone,
}

struct State {
    core: SessionCore,
    link: Option<Link>,
    /// The number of the primary socket (see [`Role`]; a status sockets's is 0).
    link_id: u32,
    /// The standby socket and its number.
    standby: Option<(u32, Socket)>,
    next_id: u32,
    /// Where the remote sockets connect: kept to open the standby and to reopen.
    dialer: Option<Rc<Dialer>>,
    timer: Option<Timer>,
    timer_at: Option<u64>,
    pumping: bool,
    /// Set while a shut-down session drains (`SessionCore::is_draining`): the driver keeps
    /// itself alive, socket and timer included, until the core closes the transport.
    keep_alive: Option<Driver>,
    /// Read by the socket's listener: big status frames are dropped uncopied while set.
    skip_status: Rc<Cell<bool>>,
    /// A Cloud session's connection machine, pumped with the core.
    #[cfg(feature = "cloud")]
    cloud: Option<super::cloud_session::CloudSession>,
}

impl State {
    /// Takes the socket, the timer and the self-reference of a drain, to drop once no borrow
    /// is held (dropping them runs JS: listeners removed, the socket closed).
    fn take_io(&mut self) -> (Option<Link>, Option<Socket>, Option<Timer>, Option<Driver>) {
        self.timer_at = None;
        let standby = self.standby.take().map(|(_, socket)| socket);
        (
            self.link.take(),
            standby,
            self.timer.take(),
            self.keep_alive.take(),
        )
    }

    fn role(&self, id: u32) -> Role {
        if self.standby.as_ref().is_some_and(|(sid, _)| *sid == id) {
            Role::Standby
        } else if id == self.link_id && self.link.is_some() {
            Role::Primary
        } else {
            Role::Gone
        }
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
                link_id: 0,
                standby: None,
                next_id: 0,
                dialer: None,
                timer: None,
                timer_at: None,
                pumping: false,
                keep_alive: None,
                skip_status: Rc::new(Cell::new(true)),
                #[cfg(feature = "cloud")]
                cloud: None,
            })),
            handler: Rc::new(RefCell::new(handler)),
        }
    }

    /// Opens the socket (see [`Dialer::app_server`]); a failure goes to the core as a
    /// transport error, which settles what waits on the connection. The dialer is kept for the
    /// standby and for reopening.
    /// Later calls open nothing: the core reopens the socket itself
    /// ([`LinkEffect::ReopenPrimary`]) and a call only waits for it.
    pub fn connect(&self, url: &str, constructor: Option<&js_sys::Function>, token: Option<&str>) {
        {
            let mut state = self.state.borrow_mut();
            if state.dialer.is_some() {
                return;
            }
            state.dialer = Some(Rc::new(Dialer::app_server(url, constructor, token)));
        }
        self.open_primary();
    }

    /// Opens a socket to the kept endpoint whose events carry `id`.
    fn open_socket(&self, id: u32) -> Option<Result<Socket, String>> {
        let weak = Rc::downgrade(&self.state);
        let handler = Rc::downgrade(&self.handler);
        // Copied out: no borrow may be held while JS runs (a constructor may report at once).
        let (dialer, skip_status) = {
            let state = self.state.borrow();
            (state.dialer.clone()?, state.skip_status.clone())
        };
        Some(dialer.connect(skip_status, move |event| {
            if let (Some(state), Some(handler)) = (weak.upgrade(), handler.upgrade()) {
                Driver { state, handler }.on_socket_event(id, event);
            }
        }))
    }

    fn take_id(&self) -> u32 {
        let mut state = self.state.borrow_mut();
        state.next_id += 1;
        state.next_id
    }

    /// Opens the primary socket (first start, or a reopen after every socket was lost).
    fn open_primary(&self) {
        let id = self.take_id();
        match self.open_socket(id) {
            Some(Ok(socket)) => {
                let open = socket.is_open();
                let previous = {
                    let mut state = self.state.borrow_mut();
                    state.link_id = id;
                    state.link.replace(Link::Socket(socket))
                };
                drop(previous);
                if open {
                    self.run(|core, now| core.on_open(now));
                }
            }
            Some(Err(error)) => self.run(|core, now| core.on_transport_error(&error, now)),
            None => {}
        }
        self.pump();
    }

    /// Opens the standby socket; a failure to construct it counts as its close.
    fn open_standby(&self) {
        let id = self.take_id();
        match self.open_socket(id) {
            Some(Ok(socket)) => {
                let open = socket.is_open();
                let previous = self.state.borrow_mut().standby.replace((id, socket));
                drop(previous);
                if open {
                    self.run(|core, now| core.on_standby_open(now));
                }
            }
            _ => self.run(|core, now| core.on_standby_closed(now)),
        }
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
        #[cfg(feature = "cloud")]
        self.run_cloud(|cloud, _| cloud.close());
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

    /// A socket's event, to the core's entry points for the socket's role (one `run` for all:
    /// each `run` call site is a copy of the pump in the wasm). The standby's error is followed
    /// by its close, which is what counts.
    fn on_socket_event(&self, id: u32, event: SocketEvent) {
        let role = self.state.borrow().role(id);
        let closed = matches!(event, SocketEvent::Closed);
        if closed && matches!(role, Role::Standby) {
            let gone = self.state.borrow_mut().standby.take();
            drop(gone);
        }
        // The standby's held stream frames go first when the primary drops: the core takes
        // those the primary did not deliver.
        let held = match (&role, closed) {
            (Role::Primary, true) => self
                .state
                .borrow()
                .standby
                .as_ref()
                .map(|(_, s)| s.take_held()),
            _ => None,
        };
        self.run(|core, now| {
            for data in held.iter().flatten() {
                if let Some(text) = frame_text(data) {
                    core.on_standby_frame(&text, now);
                }
            }
            match (role, event) {
                (Role::Primary, SocketEvent::Open) => core.on_open(now),
                (Role::Primary, SocketEvent::Frame(text)) => core.on_frame(&text, now),
                (Role::Primary, SocketEvent::Closed) => core.on_transport_closed(now),
                (Role::Primary, SocketEvent::Error(detail)) => {
                    core.on_transport_error(&detail, now)
                }
                (Role::Standby, SocketEvent::Open) => core.on_standby_open(now),
                (Role::Standby, SocketEvent::Frame(text)) => core.on_standby_frame(&text, now),
                (Role::Standby, SocketEvent::Closed) => core.on_standby_closed(now),
                (Role::Standby, SocketEvent::Error(_)) | (Role::Gone, _) => {}
            }
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
            #[cfg(feature = "cloud")]
            if self.execute_cloud_effects() {
                told = false;
            }
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
                let (link, standby) = {
                    let mut state = self.state.borrow_mut();
                    (state.link.take(), state.standby.take())
                };
                drop((link, standby));
                self.end_drain();
            }
            Effect::Link(effect) => self.execute_link(effect),
            other => (self.handler.borrow_mut())(Event::Effect(other)),
        }
    }

    fn execute_link(&self, effect: LinkEffect) {
        match effect {
            LinkEffect::OpenStandby => self.open_standby(),
            LinkEffect::WriteStandby(text) => {
                let writer = self.state.borrow().standby.as_ref().map(|(_, s)| s.js());
                if let Some(writer) = writer {
                    let _ = writer.send(&text);
                }
            }
            LinkEffect::PromoteStandby => {
                let previous = {
                    let mut state = self.state.borrow_mut();
                    match state.standby.take() {
                        Some((id, socket)) => {
                            // Its held frames went to the core when the primary dropped.
                            socket.hold_stream_frames(false);
                            state.link_id = id;
                            state.link.replace(Link::Socket(socket))
                        }
                        None => None,
                    }
                };
                drop(previous);
            }
            LinkEffect::CloseStandby => {
                let gone = self.state.borrow_mut().standby.take();
                drop(gone);
            }
            LinkEffect::ReopenPrimary => self.open_primary(),
        }
    }

    /// Sets the timer to the core's next deadline (if it changed).
    fn arm(&self) {
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        state.skip_status.set(!state.core.wants_device_status());
        if let Some((_, standby)) = &state.standby {
            standby.hold_stream_frames(state.core.holds_standby_frames());
        }
        let at = state.core.next_deadline();
        #[cfg(feature = "cloud")]
        let at = state.earliest_with_cloud(at);
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
                    #[cfg(feature = "cloud")]
                    driver.run_cloud(|cloud, now| cloud.on_wake(now));
                }
            })
        });
        match at {
            Some(at) => timer.arm(at.saturating_sub(now()) as f64),
            None => timer.clear(),
        }
    }
}
