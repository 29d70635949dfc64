//! Repeated broadcast frames, dropped before they are parsed (issue 11).
//!
//! The app server stamps every broadcast frame (status, stream, control request, turn finished)
//! with `event_seq` and `idempotency_key`; responses and `input_accepted` carry neither and are
//! never dropped here. A frame whose key is among the last [`REPEAT_WINDOW`] keys, or whose
//! `event_seq` is among the last [`REPEAT_WINDOW`] sequence numbers, is a repeat (a relay or
//! proxy that delivers twice, as Cloud's status relay guards against, spec §4.6). The
//! identity is read from the frame's tail ([`peek_event_ids`]); a frame is remembered only once
//! it parsed, so a garbled copy never hides the real one.
//!
//! Both members are per connection in letta-code 0.32.18 (`event_seq` counts per listener
//! connection, the key embeds it and a fresh UUID per target socket): one window serves one
//! socket, and the same broadcast on two sockets does not share them.
//!
//! [`peek_event_ids`]: crate::protocol::peek_event_ids

use crate::protocol::EventIds;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use std::hash::Hash;
use std::rc::Rc;

/// How many keys (and sequence numbers) are remembered, as Cloud's relay does (spec §4.6).
pub const REPEAT_WINDOW: usize = 1_000;

/// The identities of the last [`REPEAT_WINDOW`] accepted broadcast frames of one connection.
#[derive(Debug, Default)]
pub struct RecentFrames {
    keys: Window<Rc<str>>,
    seqs: Window<u64>,
}

impl RecentFrames {
    /// Whether a frame with these ids was accepted before (no ids: never).
    pub fn is_repeat(&self, ids: &EventIds<'_>) -> bool {
        ids.idempotency_key
            .is_some_and(|key| self.keys.contains(key))
            || ids.event_seq.is_some_and(|seq| self.seqs.contains(&seq))
    }

    /// Remembers the ids of an accepted frame, forgetting the oldest beyond the window.
    pub fn remember(&mut self, ids: &EventIds<'_>) {
        if let Some(key) = ids.idempotency_key {
            if !self.keys.contains(key) {
                self.keys.insert(key.into());
            }
        }
        if let Some(seq) = ids.event_seq {
            if !self.seqs.contains(&seq) {
                self.seqs.insert(seq);
            }
        }
    }
}

/// A set that keeps its last [`REPEAT_WINDOW`] insertions: a hash set for the lookup (every
/// broadcast frame asks) and the insertion order for the eviction (keys are shared by both
/// through an `Rc`: one allocation per key).
#[derive(Debug)]
struct Window<T> {
    set: FxHashSet<T>,
    order: VecDeque<T>,
}

impl<T> Default for Window<T> {
    fn default() -> Self {
        Window {
            set: FxHashSet::default(),
            order: VecDeque::new(),
        }
    }
}

impl<T: Hash + Eq + Clone> Window<T> {
    fn contains<Q>(&self, item: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.set.contains(item)
    }

    /// Adds an item not yet present.
    fn insert(&mut self, item: T) {
        if self.order.len() >= REPEAT_WINDOW {
            if let Some(oldest) = self.order.pop_front() {
                self.set.remove(&oldest);
            }
        }
        self.order.push_back(item.clone());
        self.set.insert(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(seq: Option<u64>, key: Option<&str>) -> EventIds<'_> {
        EventIds {
            event_seq: seq,
            idempotency_key: key,
        }
    }

    #[test]
    fn a_key_or_a_sequence_number_seen_before_is_a_repeat() {
        let mut recent = RecentFrames::default();
        let first = ids(Some(1), Some("stream_delta:1:a"));
        assert!(!recent.is_repeat(&first));
        recent.remember(&first);
        assert!(recent.is_repeat(&first));
        assert!(recent.is_repeat(&ids(None, Some("stream_delta:1:a"))));
        assert!(recent.is_repeat(&ids(Some(1), None)));
        assert!(!recent.is_repeat(&ids(Some(2), Some("stream_delta:2:b"))));
        // Frames without ids (responses) are never repeats, however often they come.
        recent.remember(&ids(None, None));
        assert!(!recent.is_repeat(&ids(None, None)));
    }

    #[test]
    fn forgets_the_oldest_beyond_the_window() {
        let mut recent = RecentFrames::default();
        let keys: Vec<String> = (0..=REPEAT_WINDOW).map(|i| format!("k:{i}")).collect();
        for (i, key) in keys.iter().enumerate() {
            recent.remember(&ids(Some(i as u64), Some(key)));
        }
        assert!(!recent.is_repeat(&ids(Some(0), None)));
        assert!(!recent.is_repeat(&ids(None, Some("k:0"))));
        assert!(recent.is_repeat(&ids(Some(1), None)));
        assert!(recent.is_repeat(&ids(None, Some("k:1"))));
        assert!(recent.is_repeat(&ids(None, Some(&keys[REPEAT_WINDOW]))));
        assert_eq!(recent.keys.order.len(), REPEAT_WINDOW);
        assert_eq!(recent.keys.set.len(), REPEAT_WINDOW);
        // Remembering a known key again does not evict anything.
        recent.remember(&ids(Some(1), Some("k:1")));
        assert!(recent.is_repeat(&ids(None, Some("k:2"))));
    }
}
