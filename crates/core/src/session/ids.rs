//! Request ids unique across every client in the process (spec §3.2):
//! `<prefix>-<nonce>-<n>`, where the nonce is per client and `n` is one process-wide counter.

use std::sync::atomic::{AtomicU64, Ordering};

/// One counter for the whole process (one WebAssembly instance serves every client).
static NEXT: AtomicU64 = AtomicU64::new(1);

/// Mints request ids for one client.
#[derive(Debug, Clone)]
pub struct RequestIds {
    nonce: String,
}

impl RequestIds {
    /// `nonce`: a short random string chosen once per client.
    pub fn new(nonce: impl Into<String>) -> Self {
        RequestIds {
            nonce: nonce.into(),
        }
    }

    /// The next id with this prefix (e.g. `runtime-start-k3j9x0ab-12`).
    pub fn next(&self, prefix: &str) -> String {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut id = String::with_capacity(prefix.len() + self.nonce.len() + 8);
        id.push_str(prefix);
        id.push('-');
        id.push_str(&self.nonce);
        id.push('-');
        crate::json::write_u64(&mut id, n);
        id
    }
}

/// A client's nonce from 8 random bytes: 8 base-36 digits (`0-9a-z`), like `k3j9x0ab`. The
/// bytes come from the platform (`transport::random`); only the formatting is here.
pub fn nonce_from_bytes(bytes: [u8; 8]) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut n = u64::from_le_bytes(bytes);
    let mut nonce = String::with_capacity(8);
    for _ in 0..8 {
        nonce.push(char::from(DIGITS[(n % 36) as usize]));
        n /= 36;
    }
    nonce
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_eight_base36_digits_that_follow_the_bytes() {
        let zero = nonce_from_bytes([0; 8]);
        assert_eq!(zero, "00000000");
        // 35 + 1 * 256 = 291 = 8 * 36 + 3, least significant digit first.
        assert_eq!(nonce_from_bytes([35, 1, 0, 0, 0, 0, 0, 0]), "38000000");
        assert_ne!(nonce_from_bytes([36, 1, 0, 0, 0, 0, 0, 0]), "38000000");
        assert_ne!(nonce_from_bytes([0, 0, 0, 0, 0, 0, 0, 1]), zero);
    }

    #[test]
    fn ids_never_repeat_across_clients_with_the_same_nonce() {
        let a = RequestIds::new("same");
        let b = RequestIds::new("same");
        let ids: Vec<String> = (0..50)
            .flat_map(|_| [a.next("sync"), b.next("sync")])
            .collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        assert!(ids[0].starts_with("sync-same-"));
    }
}
