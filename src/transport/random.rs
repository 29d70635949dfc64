//! Randomness for request-id nonces: `getrandom` on the Web Crypto API (`crypto.getRandomValues`,
//! in browsers and Node). React Native has no `crypto` unless a polyfill installs one; there
//! the nonce falls back to `Math.random()`, which is enough for what it does (telling the
//! request ids of clients apart, spec §3.2) and is no secret.

use crate::session::ids::nonce_from_bytes;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Random bits drawn once per module instance (0: not yet). `crypto.getRandomValues` is slow
/// next to a client's construction (bench/RESULTS.md); one draw plus a counter tells the
/// clients of a page apart as well.
static SEED: AtomicU64 = AtomicU64::new(0);
/// Nonces handed out so far.
static ISSUED: AtomicU64 = AtomicU64::new(0);

/// A fresh client nonce (8 base-36 digits).
pub fn request_nonce() -> String {
    let mut seed = SEED.load(Relaxed);
    if seed == 0 {
        seed = random_bits() | 1;
        SEED.store(seed, Relaxed);
    }
    let issued = ISSUED.fetch_add(1, Relaxed);
    // An odd multiplier spreads consecutive counts over the digits the nonce keeps.
    let bits = seed.wrapping_add(issued.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    nonce_from_bytes(bits.to_le_bytes())
}

fn random_bits() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // 53 random bits of a double.
        return (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64;
    }
    u64::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::request_nonce;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn nonces_are_base36_and_differ() {
        let nonces: Vec<String> = (0..4).map(|_| request_nonce()).collect();
        for nonce in &nonces {
            assert_eq!(nonce.len(), 8);
            assert!(nonce
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()));
        }
        // One module instance: every nonce differs from the others.
        for (i, nonce) in nonces.iter().enumerate() {
            assert!(!nonces[..i].contains(nonce), "{nonce} repeats");
        }
    }
}
