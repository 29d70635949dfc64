//! Randomness for request-id nonces: `getrandom` on the Web Crypto API (`crypto.getRandomValues`,
//! in browsers and Node). React Native has no `crypto` unless a polyfill installs one; there
//! the nonce falls back to `Math.random()`, which is enough for what it does (telling the
//! request ids of clients apart, spec §3.2) and is no secret.

use crate::session::ids::nonce_from_bytes;

/// A fresh client nonce (8 base-36 digits).
pub fn request_nonce() -> String {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // 53 random bits of a double.
        let bits = (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64;
        bytes = bits.to_le_bytes();
    }
    nonce_from_bytes(bytes)
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
        // 41 random bits each: four equal ones would mean the bytes were not random.
        assert!(nonces.iter().any(|n| n != &nonces[0]));
    }
}
