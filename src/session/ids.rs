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

#[cfg(test)]
mod tests {
    use super::*;

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
