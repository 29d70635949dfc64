//! The start sequence's state: where the start is, the calls waiting for it, the agent a
//! resumed conversation belongs to, when the socket must have opened by, and the runtime the
//! start made. Its fields are
//! private: the session moves it through its steps and asks it for decisions (is a timer due,
//! may the start fail, which calls to settle).

use super::super::core::Phase;
use super::super::requests::CallId;
use crate::protocol::runtime::Runtime;

/// The state of the start sequence (spec §3.4).
#[derive(Debug)]
pub(in crate::session) struct StartSequence {
    phase: Phase,
    /// The calls waiting for initialization.
    init_calls: Vec<CallId>,
    /// Agent looked up by `conversation_retrieve`.
    resolved_agent: Option<String>,
    /// When the socket must have opened by.
    connect_deadline: Option<u64>,
    /// The runtime the start made (or reopened).
    runtime: Option<Runtime>,
}

impl Default for StartSequence {
    fn default() -> Self {
        StartSequence {
            phase: Phase::Connecting,
            init_calls: Vec::new(),
            resolved_agent: None,
            connect_deadline: None,
            runtime: None,
        }
    }
}

impl StartSequence {
    /// Where the start is.
    pub(in crate::session) fn phase(&self) -> Phase {
        self.phase
    }

    /// True once the start succeeded (and until a transport loss starts it again).
    pub(in crate::session) fn is_ready(&self) -> bool {
        self.phase == Phase::Ready
    }

    /// The next step of the start went out (`Retrieving` … `UpdatingModel`).
    pub(in crate::session) fn enter(&mut self, step: Phase) {
        debug_assert!(!matches!(
            step,
            Phase::Connecting | Phase::Ready | Phase::Failed
        ));
        self.phase = step;
    }

    /// The start succeeded.
    pub(in crate::session) fn finish(&mut self) {
        self.phase = Phase::Ready;
    }

    /// The start fails, unless it ended already (`false`: ready, or failed before).
    pub(in crate::session) fn fail(&mut self) -> bool {
        if matches!(self.phase, Phase::Ready | Phase::Failed) {
            return false;
        }
        self.phase = Phase::Failed;
        true
    }

    /// The transport is gone for good: a start that had not succeeded failed (`true`: settle
    /// the calls waiting for it).
    pub(in crate::session) fn transport_gone(&mut self) -> bool {
        if self.phase == Phase::Ready {
            return false;
        }
        self.phase = Phase::Failed;
        true
    }

    /// The socket was lost and the session will start again on a new one.
    pub(in crate::session) fn lose_socket(&mut self) {
        self.phase = Phase::Connecting;
    }

    /// The start's socket was lost mid-start: it starts again on a new socket, with no open
    /// timer until that socket is asked for.
    pub(in crate::session) fn restart(&mut self) {
        self.phase = Phase::Connecting;
        self.connect_deadline = None;
    }

    /// The runtime, once started.
    pub(in crate::session) fn runtime(&self) -> Option<&Runtime> {
        self.runtime.as_ref()
    }

    /// `runtime_start` succeeded on `runtime` (a first start, or a reopen of the same one).
    pub(in crate::session) fn started_on(&mut self, runtime: Runtime) {
        self.runtime = Some(runtime);
    }

    /// A call waits for the start (`initialize()`).
    pub(in crate::session) fn wait(&mut self, call: CallId) {
        self.init_calls.push(call);
    }

    /// The calls waiting for the start, to settle now (none wait afterwards).
    pub(in crate::session) fn take_waiting(&mut self) -> Vec<CallId> {
        std::mem::take(&mut self.init_calls)
    }

    /// `conversation_retrieve` named the conversation's agent.
    pub(in crate::session) fn resolve_agent(&mut self, agent: String) {
        self.resolved_agent = Some(agent);
    }

    /// The agent `conversation_retrieve` named.
    pub(in crate::session) fn resolved_agent(&self) -> Option<&String> {
        self.resolved_agent.as_ref()
    }

    /// When the socket must have opened by.
    pub(in crate::session) fn connect_deadline(&self) -> Option<u64> {
        self.connect_deadline
    }

    /// The socket must open by `at` (a reopen attempt's socket is asked for).
    pub(in crate::session) fn expect_socket_by(&mut self, at: u64) {
        self.connect_deadline = Some(at);
    }

    /// A call waits while the socket is awaited: it must open by `at`, unless a time is set.
    pub(in crate::session) fn expect_socket(&mut self, at: u64) {
        if self.phase == Phase::Connecting && self.connect_deadline.is_none() {
            self.connect_deadline = Some(at);
        }
    }

    /// The timers fired: `true` when the socket was due (the timer is cleared) while the start
    /// still waits for it.
    pub(in crate::session) fn connect_overdue(&mut self, now: u64) -> bool {
        if self.connect_deadline.is_none_or(|d| d > now) {
            return false;
        }
        self.connect_deadline = None;
        self.phase == Phase::Connecting
    }

    /// The socket opened: `true` when the start waited for it (it runs now; the timer ends).
    pub(in crate::session) fn socket_opened(&mut self) -> bool {
        if self.phase != Phase::Connecting {
            return false;
        }
        self.connect_deadline = None;
        true
    }
}
