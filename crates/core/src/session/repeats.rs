//! Repeated broadcast frames, dropped before they are parsed (issue 11).
//!
//! The app server stamps every broadcast frame (status, stream, control request, turn finished)
//! with `event_seq` and `idempotency_key`; responses and `input_accepted` carry neither and are
//! never dropped here. A frame whose key is among the last [`REPEAT_WINDOW`] keys, or whose
//! `event_seq` was seen among the [`SEQ_WINDOW`] numbers up to the highest seen, is a repeat (a
//! relay or proxy that delivers twice, as Cloud's status sockets guards against, spec §4.6). The
//! identity is read from the frame's tail ([`peek_event_ids`]); a frame is remembered only once
//! it parsed, so a garbled copy never hides the real one.
//!
//! Both members are per connection in letta-code 0.32.18 (`event_seq` counts per listener
//! connection, the key embeds it and a fresh UUID per target socket): one filter serves one
//! socket, and the same broadcast on two sockets does not share them.
//!
//! [`peek_event_ids`]: crate::protocol::peek_event_ids

use crate::protocol::EventIds;
use std::collections::VecDeque;

/// How many idempotency keys are remembered, as Cloud's relay does (spec §4.6).
pub const REPEAT_WINDOW: usize = 1_000;
/// How far below the highest `event_seq` seen a repeat is still recognised (a power of two:
/// the numbers live in a ring of bits).
pub const SEQ_WINDOW: u64 = 1_024;

/// The identities of the broadcast frames one connection accepted lately.
///
/// A frame with an `event_seq` is known by it (letta-code's key embeds the same number, so a
/// repeated key comes with a repeated `event_seq`): a bit in a ring, no allocation, no hashing.
/// Only a key without an `event_seq` beside it is kept as text, in a list scanned on lookup
/// (such frames are rare; a hash set beside it costs wasm: bench/RESULTS.md).
#[derive(Debug, Default)]
pub struct RecentFrames {
    keys: VecDeque<String>,
    seqs: SeenSeqs,
}

impl RecentFrames {
    /// Whether a frame with these ids was accepted before (no ids: never).
    pub fn is_repeat(&self, ids: &EventIds<'_>) -> bool {
        match (ids.event_seq, ids.idempotency_key) {
            (Some(seq), _) => self.seqs.contains(seq),
            (None, Some(key)) => self.keys.iter().any(|known| known == key),
            (None, None) => false,
        }
    }

    /// Forgets every frame (a new primary socket numbers its frames anew).
    pub(crate) fn forget(&mut self) {
        *self = RecentFrames::default();
    }

    /// Remembers the ids of an accepted frame, forgetting the oldest beyond the windows.
    pub fn remember(&mut self, ids: &EventIds<'_>) {
        match (ids.event_seq, ids.idempotency_key) {
            (Some(seq), _) => self.seqs.insert(seq),
            (None, Some(key)) if !self.is_repeat(ids) => {
                if self.keys.len() >= REPEAT_WINDOW {
                    self.keys.pop_front();
                }
                self.keys.push_back(key.to_owned());
            }
            _ => {}
        }
    }
}

/// The `event_seq` numbers seen among the [`SEQ_WINDOW`] up to the highest: one bit each in a
/// ring (no allocation, no hashing; the server's numbers rise by one per frame).
#[derive(Debug, Default)]
struct SeenSeqs {
    highest: Option<u64>,
    bits: [u64; (SEQ_WINDOW / 64) as usize],
}

impl SeenSeqs {
    /// The word and bit of `seq` in the ring.
    fn slot(seq: u64) -> (usize, u64) {
        let index = seq % SEQ_WINDOW;
        ((index / 64) as usize, 1 << (index % 64))
    }

    fn contains(&self, seq: u64) -> bool {
        let Some(highest) = self.highest else {
            return false;
        };
        if seq > highest || highest - seq >= SEQ_WINDOW {
            return false;
        }
        let (word, bit) = Self::slot(seq);
        self.bits.get(word).is_some_and(|w| w & bit != 0)
    }

    fn insert(&mut self, seq: u64) {
        match self.highest {
            Some(highest) if seq > highest => {
                // The numbers above the old highest enter the window: their slots (held by
                // numbers that leave it) start clear.
                if seq - highest >= SEQ_WINDOW {
                    self.bits = Default::default();
                } else {
                    for passed in highest + 1..seq {
                        self.clear(passed);
                    }
                }
                self.highest = Some(seq);
            }
            Some(highest) if highest - seq >= SEQ_WINDOW => return,
            Some(_) => {}
            None => self.highest = Some(seq),
        }
        let (word, bit) = Self::slot(seq);
        if let Some(w) = self.bits.get_mut(word) {
            *w |= bit;
        }
    }

    fn clear(&mut self, seq: u64) {
        let (word, bit) = Self::slot(seq);
        if let Some(w) = self.bits.get_mut(word) {
            *w &= !bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(seq: Option<u64>, key: Option<&str>) -> EventIds<'_> {
        EventIds {
            event_seq: seq,
            idempotency_key: key,
            envelope_at: None,
        }
    }

    #[test]
    fn a_key_or_a_sequence_number_seen_before_is_a_repeat() {
        let mut recent = RecentFrames::default();
        let first = ids(Some(1), Some("stream_delta:1:a"));
        assert!(!recent.is_repeat(&first));
        recent.remember(&first);
        assert!(recent.is_repeat(&first));
        assert!(recent.is_repeat(&ids(Some(1), None)));
        // A key alone is known when it came alone.
        assert!(!recent.is_repeat(&ids(None, Some("k"))));
        recent.remember(&ids(None, Some("k")));
        assert!(recent.is_repeat(&ids(None, Some("k"))));
        assert!(!recent.is_repeat(&ids(Some(2), Some("stream_delta:2:b"))));
        assert!(!recent.is_repeat(&ids(Some(0), None)));
        // Frames without ids (responses) are never repeats, however often they come.
        recent.remember(&ids(None, None));
        assert!(!recent.is_repeat(&ids(None, None)));
    }

    #[test]
    fn forgets_the_oldest_keys_beyond_the_window() {
        let mut recent = RecentFrames::default();
        let keys: Vec<String> = (0..=REPEAT_WINDOW).map(|i| format!("k:{i}")).collect();
        for key in &keys {
            recent.remember(&ids(None, Some(key)));
        }
        assert!(!recent.is_repeat(&ids(None, Some("k:0"))));
        assert!(recent.is_repeat(&ids(None, Some("k:1"))));
        assert!(recent.is_repeat(&ids(None, Some(&keys[REPEAT_WINDOW]))));
        assert_eq!(recent.keys.len(), REPEAT_WINDOW);
        // Remembering a known key again does not evict anything.
        recent.remember(&ids(None, Some("k:1")));
        assert!(recent.is_repeat(&ids(None, Some("k:1"))));
        assert!(recent.is_repeat(&ids(None, Some("k:2"))));
    }

    #[test]
    fn sequence_numbers_in_order_out_of_order_and_beyond_the_window() {
        let mut seqs = SeenSeqs::default();
        for seq in [5, 6, 8] {
            seqs.insert(seq);
        }
        assert!(seqs.contains(5) && seqs.contains(6) && seqs.contains(8));
        assert!(!seqs.contains(7), "a gap is not seen");
        assert!(!seqs.contains(4) && !seqs.contains(9));
        seqs.insert(7);
        assert!(
            seqs.contains(7),
            "a late number in the window is remembered"
        );
        // 8 + SEQ_WINDOW - 1 reuses no slot of a number still in the window.
        seqs.insert(8 + SEQ_WINDOW - 1);
        assert!(seqs.contains(8) && !seqs.contains(7), "7 left the window");
        assert!(
            !seqs.contains(8 + SEQ_WINDOW - 2),
            "a passed number starts clear"
        );
        seqs.insert(3);
        assert!(!seqs.contains(3), "too old to be remembered");
        // A jump beyond the window forgets everything before it.
        seqs.insert(10 * SEQ_WINDOW);
        assert!(seqs.contains(10 * SEQ_WINDOW));
        assert!(!seqs.contains(8 + SEQ_WINDOW - 1));
        for seq in 9 * SEQ_WINDOW + 1..10 * SEQ_WINDOW {
            assert!(!seqs.contains(seq), "{seq}");
        }
        // The first frame after 0 and the largest numbers work too.
        let mut seqs = SeenSeqs::default();
        seqs.insert(u64::MAX);
        assert!(seqs.contains(u64::MAX) && !seqs.contains(u64::MAX - 1));
    }
}
