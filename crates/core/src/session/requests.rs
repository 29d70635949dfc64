//! Pending requests (spec §3.2): each request frame carries a `request_id`; a frame echoing
//! that id resolves the request when it also passes the request's match rule. Requests time out
//! at a deadline; the caller fires [`RequestTable::expired`] from its timer.

use crate::protocol::frames::ParsedFrame;

/// Identifies one API call of the JS layer (a Promise waiting for its outcome).
pub type CallId = u32;

/// Which echoing frame answers a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseMatch {
    /// The `<type>_response` frame of a command of this `type`.
    Reply(&'static str),
    /// A frame of exactly this `type`.
    Type(String),
    /// `remove_queue_item_response` whose `item_id` equals this one.
    QueueItem(String),
    /// Any frame with a string `type` (raw `sendCommand` without a response type).
    AnyTyped,
    /// The caller's own predicate decides: every echoing frame is offered as a candidate and
    /// the request stays pending until [`RequestTable::remove`].
    Candidates,
}

impl ResponseMatch {
    fn accepts(&self, frame: &ParsedFrame<'_>) -> bool {
        match self {
            ResponseMatch::Reply(t) => frame.frame_type.strip_suffix("_response") == Some(*t),
            ResponseMatch::Type(t) => frame.frame_type == t.as_str(),
            ResponseMatch::QueueItem(item) => {
                frame.frame_type == "remove_queue_item_response"
                    && crate::json::Object::parse(frame.raw)
                        .is_some_and(|o| o.get("item_id").as_str() == Some(item.as_str()))
            }
            ResponseMatch::AnyTyped | ResponseMatch::Candidates => !frame.frame_type.is_empty(),
        }
    }
}

/// What a request is for, so the session knows what to do with its response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A step of the start sequence.
    Handshake,
    /// An API call; `shape` says how to turn the response into the call's result.
    Call(CallId, Shape),
    /// The `sync` of a `getDeviceStatus` call.
    DeviceSync(CallId),
}

/// How a response frame becomes an API call's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The whole frame (raw `sendCommand`, management calls).
    Frame,
    /// The whole frame, after checking `success` (failure text: `Failed to <what>`).
    Checked(&'static str),
    ListMessages,
    ListModels,
    UpdateModel,
    RemoveQueueItem,
    /// `recoverPendingApprovals()`.
    RecoverApprovals,
    /// `abort()`: resolves with nothing.
    Abort,
}

/// One pending request.
#[derive(Debug, Clone)]
pub struct Pending {
    pub request_id: String,
    pub matcher: ResponseMatch,
    pub purpose: Purpose,
    /// Absolute time (ms) at which the request fails with `Timed out waiting for <request_id>`.
    pub deadline: u64,
}

/// The requests waiting for a response. Few are pending at once, so a vector is enough.
#[derive(Debug, Default)]
pub struct RequestTable {
    pending: Vec<Pending>,
}

impl RequestTable {
    pub fn insert(&mut self, pending: Pending) {
        self.pending.push(pending);
    }

    /// The request this frame answers, removed from the table — except for
    /// [`ResponseMatch::Candidates`] requests, which stay pending (what is returned for them
    /// carries only their purpose and matcher).
    pub fn answer(&mut self, frame: &ParsedFrame<'_>) -> Option<Pending> {
        let id = frame.request_id.as_deref()?;
        let index = self
            .pending
            .iter()
            .position(|p| p.request_id == id && p.matcher.accepts(frame))?;
        let pending = &self.pending[index];
        if matches!(pending.matcher, ResponseMatch::Candidates) {
            return Some(Pending {
                request_id: String::new(),
                matcher: ResponseMatch::Candidates,
                purpose: pending.purpose,
                deadline: pending.deadline,
            });
        }
        Some(self.pending.remove(index))
    }

    /// Removes the request of a call (its predicate accepted a frame, or it was cancelled).
    pub fn remove_call(&mut self, call: CallId) -> Option<Pending> {
        let index = self.pending.iter().position(|p| match p.purpose {
            Purpose::Call(c, _) | Purpose::DeviceSync(c) => c == call,
            Purpose::Handshake => false,
        })?;
        Some(self.pending.remove(index))
    }

    /// Removes and returns the oldest request whose deadline is at or before `now` (every
    /// request is due at `u64::MAX`).
    pub fn take_due(&mut self, now: u64) -> Option<Pending> {
        let index = self.pending.iter().position(|p| p.deadline <= now)?;
        Some(self.pending.remove(index))
    }

    /// The earliest deadline.
    pub fn next_deadline(&self) -> Option<u64> {
        self.pending.iter().map(|p| p.deadline).min()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

/// The earlier of two optional deadlines.
pub fn earlier(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}
