//! Connection tickets: handed to the page in an `HttpOnly` cookie and required on the WebSocket
//! upgrade. A ticket is stateless: it carries its own expiry and a random nonce, signed with
//! HMAC-SHA256 under the relay's ticket secret. Checking one needs no stored state (so a flood of
//! page loads cannot evict anything), and relays sharing the secret accept each other's tickets.
//!
//! Layout before base64url (no padding): version (1 byte) · expiry in ms since the Unix epoch
//! (8 bytes, big-endian) · nonce (16 bytes) · HMAC-SHA256 of the first 25 bytes (32 bytes).

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::header::COOKIE;
use axum::http::HeaderMap;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::secret::TicketSecret;

/// Name of the ticket cookie.
pub const COOKIE_NAME: &str = "letta_relay_ticket";

const VERSION: u8 = 1;
const NONCE_BYTES: usize = 16;
const SIGNED_BYTES: usize = 1 + 8 + NONCE_BYTES;
const TAG_BYTES: usize = 32;
const TICKET_BYTES: usize = SIGNED_BYTES + TAG_BYTES;
/// Length of a ticket's cookie value (base64url of 57 bytes, unpadded).
pub const TICKET_CHARS: usize = (TICKET_BYTES * 4).div_ceil(3);

/// Why a ticket was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    /// No ticket cookie on the request.
    Missing,
    /// Not a ticket signed with this relay's secret (malformed, forged or altered).
    Invalid,
    /// A genuine ticket past its lifetime.
    Expired,
}

impl Rejection {
    /// A short explanation for the 401 body and the log.
    pub fn message(self) -> &'static str {
        match self {
            Rejection::Missing => "missing relay ticket (load the page or GET /ticket first)",
            Rejection::Invalid => "invalid relay ticket",
            Rejection::Expired => "expired relay ticket (GET /ticket for a fresh one)",
        }
    }
}

/// Issues and checks tickets with one secret and one lifetime.
#[derive(Clone)]
pub struct Tickets {
    mac: Hmac<Sha256>,
    ttl: Duration,
}

impl fmt::Debug for Tickets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tickets(ttl: {:?}, key: <redacted>)", self.ttl)
    }
}

/// A freshly issued ticket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    /// The cookie value.
    pub value: String,
    /// When it expires, in ms since the Unix epoch.
    pub expires_at_ms: u64,
}

fn unix_ms(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Tickets {
    /// Tickets signed with `secret` that live for `ttl`.
    pub fn new(secret: &TicketSecret, ttl: Duration) -> Self {
        let mac = Hmac::<Sha256>::new_from_slice(secret.key()).expect("HMAC takes any key length");
        Self { mac, ttl }
    }

    /// The lifetime of a ticket.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Issues a ticket at `now`.
    pub fn issue(&self, now: SystemTime) -> Result<Issued, getrandom::Error> {
        let expires_at_ms = unix_ms(now + self.ttl);
        let mut bytes = [0u8; TICKET_BYTES];
        bytes[0] = VERSION;
        bytes[1..9].copy_from_slice(&expires_at_ms.to_be_bytes());
        getrandom::fill(&mut bytes[9..SIGNED_BYTES])?;
        let mut mac = self.mac.clone();
        mac.update(&bytes[..SIGNED_BYTES]);
        bytes[SIGNED_BYTES..].copy_from_slice(&mac.finalize().into_bytes());
        Ok(Issued {
            value: URL_SAFE_NO_PAD.encode(bytes),
            expires_at_ms,
        })
    }

    /// Checks a cookie value at `now`. The signature is compared in constant time, before the
    /// expiry is looked at. Tickets may be used for several connections until they expire (a
    /// reconnecting page keeps working without reloading).
    pub fn check(&self, value: &str, now: SystemTime) -> Result<(), Rejection> {
        if value.len() != TICKET_CHARS {
            return Err(Rejection::Invalid);
        }
        let mut bytes = [0u8; TICKET_BYTES];
        match URL_SAFE_NO_PAD.decode_slice(value, &mut bytes) {
            Ok(TICKET_BYTES) => {}
            _ => return Err(Rejection::Invalid),
        }
        let mut mac = self.mac.clone();
        mac.update(&bytes[..SIGNED_BYTES]);
        mac.verify_slice(&bytes[SIGNED_BYTES..])
            .map_err(|_| Rejection::Invalid)?;
        if bytes[0] != VERSION {
            return Err(Rejection::Invalid);
        }
        let expires = u64::from_be_bytes(bytes[1..9].try_into().expect("8 bytes"));
        if expires > unix_ms(now) {
            Ok(())
        } else {
            Err(Rejection::Expired)
        }
    }

    /// Checks the ticket cookies of a request (any valid one is enough).
    pub fn check_request(&self, headers: &HeaderMap, now: SystemTime) -> Result<(), Rejection> {
        let mut outcome = Err(Rejection::Missing);
        for value in cookie_values(headers, COOKIE_NAME) {
            match self.check(value, now) {
                Ok(()) => return Ok(()),
                Err(rejection) if outcome != Err(Rejection::Expired) => outcome = Err(rejection),
                Err(_) => {}
            }
        }
        outcome
    }
}

/// The `Set-Cookie` value that hands `ticket` to the page.
pub fn set_cookie(ticket: &str, ttl: Duration) -> String {
    format!(
        "{COOKIE_NAME}={ticket}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}",
        ttl.as_secs()
    )
}

/// Every value of the cookie `name` in the request's `Cookie` headers.
fn cookie_values<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(move |pair| {
            let (key, value) = pair.trim().split_once('=')?;
            (key.trim() == name).then(|| value.trim().trim_matches('"'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn tickets(secret: &str, ttl_s: u64) -> Tickets {
        let secret = TicketSecret::new(secret).unwrap();
        Tickets::new(&secret, Duration::from_secs(ttl_s))
    }

    fn headers(cookies: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for c in cookies {
            h.append(COOKIE, HeaderValue::from_str(c).unwrap());
        }
        h
    }

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn issued_tickets_are_random_valid_reusable_and_expire() {
        let t0 = SystemTime::now();
        let store = tickets(SECRET, 5);
        let a = store.issue(t0).unwrap();
        let b = store.issue(t0).unwrap();
        assert_eq!(a.value.len(), TICKET_CHARS);
        assert_ne!(a.value, b.value);
        assert_eq!(a.expires_at_ms, unix_ms(t0) + 5000);
        let later = t0 + Duration::from_secs(4);
        assert_eq!(store.check(&a.value, later), Ok(()));
        assert_eq!(store.check(&a.value, later), Ok(()), "reusable");
        assert_eq!(
            store.check(&a.value, t0 + Duration::from_secs(5)),
            Err(Rejection::Expired)
        );
    }

    #[test]
    fn another_secret_shares_nothing_and_the_same_secret_everything() {
        let now = SystemTime::now();
        let a = tickets(SECRET, 60).issue(now).unwrap();
        let replica = tickets(SECRET, 60);
        assert_eq!(replica.check(&a.value, now), Ok(()));
        let stranger = tickets("another secret of at least 32 bytes!", 60);
        assert_eq!(stranger.check(&a.value, now), Err(Rejection::Invalid));
    }

    #[test]
    fn tampered_forged_and_malformed_values_are_invalid() {
        let now = SystemTime::now();
        let store = tickets(SECRET, 60);
        let a = store.issue(now).unwrap().value;
        let mut bytes = URL_SAFE_NO_PAD.decode(&a).unwrap();
        // A later expiry without a new signature.
        bytes[8] ^= 1;
        let extended = URL_SAFE_NO_PAD.encode(&bytes);
        bytes[8] ^= 1;
        // Another nonce, or a flipped signature bit.
        bytes[12] ^= 0x80;
        let other_nonce = URL_SAFE_NO_PAD.encode(&bytes);
        bytes[12] ^= 0x80;
        bytes[TICKET_BYTES - 1] ^= 1;
        let bad_tag = URL_SAFE_NO_PAD.encode(&bytes);
        let zeros = URL_SAFE_NO_PAD.encode([0u8; TICKET_BYTES]);
        let padded = format!("{}=", &a[..TICKET_CHARS - 1]);
        for bad in [
            extended.as_str(),
            &other_nonce,
            &bad_tag,
            &zeros,
            &padded,
            "",
            "zz",
            &a[..TICKET_CHARS - 1],
            &format!("{a}A"),
            &"ab".repeat(32),
        ] {
            assert_eq!(store.check(bad, now), Err(Rejection::Invalid), "{bad}");
        }
    }

    #[test]
    fn cookies_are_found_among_others() {
        let now = SystemTime::now();
        let store = tickets(SECRET, 5);
        let a = store.issue(now).unwrap().value;
        assert_eq!(
            store.check_request(&headers(&[]), now),
            Err(Rejection::Missing)
        );
        assert_eq!(
            store.check_request(&headers(&["x=1; letta_relay_ticket=nope"]), now),
            Err(Rejection::Invalid)
        );
        let good = format!("theme=dark; {COOKIE_NAME}={a}; z=2");
        assert_eq!(store.check_request(&headers(&[&good]), now), Ok(()));
        let stale = format!("{COOKIE_NAME}=00; {COOKIE_NAME}={a}");
        assert_eq!(store.check_request(&headers(&["a=b", &stale]), now), Ok(()));
        let later = now + Duration::from_secs(9);
        assert_eq!(
            store.check_request(&headers(&[&good]), later),
            Err(Rejection::Expired)
        );
    }

    #[test]
    fn cookie_attributes() {
        let c = set_cookie("abc", Duration::from_secs(300));
        assert_eq!(
            c,
            "letta_relay_ticket=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=300"
        );
    }
}
