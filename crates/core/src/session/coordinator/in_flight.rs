//! Our turns in flight: the active one, and the turns sent after it that wait for server
//! activity, oldest first. Its fields are private: the coordinator adds, starts, finds and
//! ends turns through it, and it decides which turn starts next (FIFO), which turn a frame
//! names (see `correlation`) and which turns join a batch (see `batch`).

use super::turn::Turn;

/// Which of our in-flight turns a frame names.
#[derive(Clone, Copy)]
pub(super) enum Key<'a> {
    /// By `client_message_id`.
    Message(&'a str),
    /// By the `request_id` of its `input`.
    Request(&'a str),
    /// The oldest the server has not acknowledged.
    Unacknowledged,
}

/// The active turn and the queued ones.
#[derive(Debug, Default)]
pub(super) struct InFlight {
    /// The turn server activity is attributed to.
    active: Option<Turn>,
    /// Sent turns waiting for server activity, oldest first (a handful at most).
    queued: Vec<Turn>,
}

impl InFlight {
    /// The active turn.
    pub fn active(&self) -> Option<&Turn> {
        self.active.as_ref()
    }

    /// The active turn, to update.
    pub fn active_mut(&mut self) -> Option<&mut Turn> {
        self.active.as_mut()
    }

    /// No turn is active or queued.
    pub fn is_empty(&self) -> bool {
        self.active.is_none() && self.queued.is_empty()
    }

    /// A sent turn: queued behind those in flight, or handed back when nothing is in flight
    /// (it starts now: the caller activates it and [`Self::start`]s it).
    pub fn enqueue(&mut self, turn: Turn) -> Option<Turn> {
        if self.is_empty() {
            return Some(turn);
        }
        self.queued.push(turn);
        None
    }

    /// Makes the activated `turn` the active one.
    pub fn start(&mut self, turn: Turn) {
        self.active = Some(turn);
    }

    /// When none is active: the oldest queued turn, taken out (protocol activity started it;
    /// the caller activates it and [`Self::start`]s it).
    pub fn next_to_start(&mut self) -> Option<Turn> {
        if self.active.is_none() && !self.queued.is_empty() {
            Some(self.queued.remove(0))
        } else {
            None
        }
    }

    /// Ends the active turn: it is handed back for its result.
    pub fn take_active(&mut self) -> Option<Turn> {
        self.active.take()
    }

    /// Forgets every turn (the stream closed).
    pub fn clear(&mut self) {
        self.active = None;
        self.queued.clear();
    }

    /// Forgets the queued turns the server acknowledged (the connection dropped: the server
    /// cancelled them); the others stay, to be sent again.
    pub fn drop_acknowledged_queued(&mut self) {
        self.queued.retain(|turn| !turn.acknowledged);
    }

    /// Forgets turn `client_message_id` wherever it is: active, queued or carried in a batch.
    /// Returns whether it was in flight.
    pub fn remove(&mut self, client_message_id: &str) -> bool {
        if self
            .active
            .as_ref()
            .is_some_and(|t| t.client_message_id == client_message_id)
        {
            self.active = None;
            return true;
        }
        let mut removed = false;
        let mut i = 0;
        while let Some(turn) = self.queued.get(i) {
            if turn.client_message_id == client_message_id {
                self.queued.remove(i);
                removed = true;
            } else {
                i += 1;
            }
        }
        for carrier in self.active.iter_mut().chain(self.queued.iter_mut()) {
            let before = carrier.batched.len();
            carrier
                .batched
                .retain(|t| t.client_message_id != client_message_id);
            removed |= carrier.batched.len() != before;
        }
        removed
    }

    /// In-flight turn `slot` (0: the active one, then the queued ones in order).
    fn at(&mut self, slot: usize) -> Option<&mut Turn> {
        match slot {
            0 => self.active.as_mut(),
            _ => self.queued.get_mut(slot - 1),
        }
    }

    /// The first in-flight turn (active first) that `key` names.
    pub fn find_mut(&mut self, key: Key<'_>) -> Option<&mut Turn> {
        let mut found = None;
        for slot in 0..=self.queued.len() {
            let Some(turn) = self.at(slot) else {
                continue;
            };
            let hit = match key {
                Key::Message(id) => turn.client_message_id == id,
                Key::Request(id) => turn.input_request_id.as_deref() == Some(id),
                Key::Unacknowledged => !turn.acknowledged,
            };
            if hit {
                found = Some(slot);
                break;
            }
        }
        self.at(found?)
    }

    /// The server runs the inputs `client_message_ids` as one turn (see `batch`): those in
    /// flight join the earliest of them (the carrier), in send order, starting at `now_ms`.
    /// When the carrier has started already, `started` sees each joining turn first (it
    /// starts now). Fewer than two of ours named: nothing changes.
    pub fn batch_together(
        &mut self,
        client_message_ids: &[&str],
        now_ms: u64,
        mut started: impl FnMut(&mut Turn),
    ) {
        if client_message_ids.len() < 2 {
            return;
        }
        let named = |turn: &Turn| client_message_ids.contains(&turn.client_message_id.as_str());
        let active_named = self.active.as_ref().is_some_and(named);
        let queued: Vec<usize> = (0..self.queued.len())
            .filter(|&i| named(&self.queued[i]))
            .collect();
        // The carrier is the earliest named turn: the active one, else the first queued.
        let followers = if active_named {
            &queued[..]
        } else {
            queued.get(1..).unwrap_or(&[])
        };
        if followers.is_empty() {
            return;
        }
        let mut joining = Vec::with_capacity(followers.len());
        for &i in followers.iter().rev() {
            joining.push(self.queued.remove(i));
        }
        joining.reverse();
        if active_named {
            // The carrier started already: the inputs joining it start now.
            for turn in &mut joining {
                started(turn);
            }
        }
        let carrier = if active_named {
            self.active.as_mut()
        } else {
            self.queued.get_mut(queued[0])
        };
        let Some(carrier) = carrier else {
            return;
        };
        for mut turn in joining {
            turn.started_at = now_ms;
            let nested = std::mem::take(&mut turn.batched);
            carrier.batched.push(turn);
            carrier.batched.extend(nested);
        }
    }
}
