//! The content identity of the stream frames a session took lately, from either of its
//! sockets (see `reconnect`): the two copies of a broadcast frame differ only in the per-socket
//! envelope the server appends, so they share a key.

use super::STREAM_KEY_WINDOW;

/// The content identity of stream frames taken lately, from either socket: a ring of hashes,
/// scanned on lookup. The two sockets drift apart by a few frames, so a short window is
/// plenty, and a hash set (or a `VecDeque`) costs more wasm (bench/RESULTS.md).
#[derive(Debug, Default)]
pub(super) struct StreamKeys {
    pub(super) ring: Vec<u64>,
    /// Where the next key goes once the ring is full (the oldest one's slot).
    next: usize,
}

impl StreamKeys {
    /// Whether `key` was taken lately.
    pub(super) fn contains(&self, key: u64) -> bool {
        self.ring.contains(&key)
    }

    /// Remembers `key`; `false` when it was taken already.
    pub(super) fn insert(&mut self, key: u64) -> bool {
        if self.ring.contains(&key) {
            return false;
        }
        if self.ring.len() < STREAM_KEY_WINDOW {
            self.ring.push(key);
        } else {
            self.ring[self.next] = key;
            self.next = (self.next + 1) % STREAM_KEY_WINDOW;
        }
        true
    }
}

/// The content key of a broadcast frame: a 64-bit hash of its text before the per-socket
/// envelope (`event_seq`, `emitted_at`, `idempotency_key`, which the server appends to each
/// copy), which begins at `envelope_at` when the caller read it already (the frame's tail,
/// [`peek_event_ids`](crate::protocol::peek_event_ids)), else at the last `,"event_seq":`. Every stream frame of a session with a
/// standby is hashed, so it takes eight bytes a step (multiply-rotate, then murmur3's finalizer
/// so that every input bit reaches every key bit): FNV-1a's byte loop was a visible share of a
/// turn. Not a `Hasher` and `str::rfind`: those cost more wasm (bench/RESULTS.md), and
/// `FxHasher` keeps only 32 bits on wasm32.
pub(super) fn content_key(text: &str, envelope_at: Option<usize>) -> u64 {
    const ENVELOPE: &[u8] = b",\"event_seq\":";
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let bytes = text.as_bytes();
    // Looking for the envelope (the frames' last ≈ 130 bytes, a window each) was most of the
    // key's time, so it is taken from the tail scan when the caller has it. When the search
    // runs, the first byte alone rules out almost every window (figures: bench/RESULTS.md,
    // "Whole turn").
    let end = envelope_at
        .filter(|&at| at <= bytes.len())
        .unwrap_or_else(|| {
            bytes
                .windows(ENVELOPE.len())
                .rposition(|window| window[0] == b',' && window == ENVELOPE)
                .unwrap_or(bytes.len())
        });
    let mut words = bytes[..end].chunks_exact(8);
    let mut hash = (end as u64).wrapping_mul(K);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        hash = (hash.rotate_left(23) ^ word).wrapping_mul(K);
    }
    let tail = words
        .remainder()
        .iter()
        .fold(0, |tail, &byte| (tail << 8) | u64::from(byte));
    hash = (hash.rotate_left(23) ^ tail).wrapping_mul(K);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ (hash >> 33)
}
