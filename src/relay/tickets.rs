//! Connection tickets: 256-bit random values handed to the page in an `HttpOnly` cookie and
//! required on the WebSocket upgrade. Kept in memory, bounded, expired ones pruned.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use axum::http::header::COOKIE;
use axum::http::HeaderMap;

/// Name of the ticket cookie.
pub const COOKIE_NAME: &str = "letta_relay_ticket";

/// Most tickets kept at once; the oldest is dropped beyond that.
pub const MAX_TICKETS: usize = 10_000;

const TICKET_BYTES: usize = 32;

type TicketId = [u8; TICKET_BYTES];

/// Why a ticket was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    /// No ticket cookie on the request.
    Missing,
    /// A ticket the relay never issued, or already dropped.
    Unknown,
    /// A ticket past its lifetime.
    Expired,
}

impl Rejection {
    /// A short explanation for the 401 body and the log.
    pub fn message(self) -> &'static str {
        match self {
            Rejection::Missing => "missing relay ticket (load the page or GET /ticket first)",
            Rejection::Unknown => "unknown relay ticket",
            Rejection::Expired => "expired relay ticket (GET /ticket for a fresh one)",
        }
    }
}

/// The issued tickets. Every ticket lives for the same `ttl`, so insertion order is expiry order
/// and pruning only looks at the front of the queue.
#[derive(Debug)]
pub struct TicketStore {
    ttl: Duration,
    capacity: usize,
    expiry: HashMap<TicketId, Instant>,
    order: VecDeque<(TicketId, Instant)>,
}

impl TicketStore {
    /// An empty store whose tickets live for `ttl`, holding at most `capacity`.
    pub fn new(ttl: Duration, capacity: usize) -> Self {
        Self {
            ttl,
            capacity: capacity.max(1),
            expiry: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// The lifetime of a ticket.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Number of tickets currently kept.
    pub fn len(&self) -> usize {
        self.expiry.len()
    }

    /// Whether no ticket is kept.
    pub fn is_empty(&self) -> bool {
        self.expiry.is_empty()
    }

    /// Issues a fresh ticket at `now`; returns its cookie value (lowercase hex).
    pub fn issue(&mut self, now: Instant) -> Result<String, getrandom::Error> {
        let mut id = [0u8; TICKET_BYTES];
        getrandom::fill(&mut id)?;
        self.insert(id, now);
        Ok(hex(&id))
    }

    fn insert(&mut self, id: TicketId, now: Instant) {
        self.prune(now);
        while self.expiry.len() >= self.capacity {
            match self.order.pop_front() {
                Some((old, _)) => {
                    self.expiry.remove(&old);
                }
                None => break,
            }
        }
        let expires = now + self.ttl;
        self.expiry.insert(id, expires);
        self.order.push_back((id, expires));
    }

    /// Drops every ticket expired at `now`.
    pub fn prune(&mut self, now: Instant) {
        while let Some(&(id, expires)) = self.order.front() {
            if expires > now {
                break;
            }
            self.order.pop_front();
            self.expiry.remove(&id);
        }
    }

    /// Checks a cookie value at `now`. Tickets may be used for several connections until they
    /// expire (a reconnecting page keeps working without reloading).
    pub fn check(&mut self, value: &str, now: Instant) -> Result<(), Rejection> {
        let id = parse_hex(value).ok_or(Rejection::Unknown)?;
        match self.expiry.get(&id) {
            Some(&expires) if expires > now => Ok(()),
            Some(_) => {
                self.prune(now);
                Err(Rejection::Expired)
            }
            None => Err(Rejection::Unknown),
        }
    }

    /// Checks the ticket cookies of a request (any valid one is enough).
    pub fn check_request(&mut self, headers: &HeaderMap, now: Instant) -> Result<(), Rejection> {
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

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

fn parse_hex(text: &str) -> Option<TicketId> {
    let text = text.as_bytes();
    if text.len() != TICKET_BYTES * 2 {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut id = [0u8; TICKET_BYTES];
    for (i, pair) in text.chunks_exact(2).enumerate() {
        id[i] = (digit(pair[0])? << 4) | digit(pair[1])?;
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(cookies: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for c in cookies {
            h.append(COOKIE, HeaderValue::from_str(c).unwrap());
        }
        h
    }

    #[test]
    fn issued_tickets_are_random_valid_and_expire() {
        let t0 = Instant::now();
        let mut store = TicketStore::new(Duration::from_secs(5), 100);
        let a = store.issue(t0).unwrap();
        let b = store.issue(t0).unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(store.check(&a, t0 + Duration::from_secs(4)), Ok(()));
        assert_eq!(
            store.check(&a, t0 + Duration::from_secs(4)),
            Ok(()),
            "reusable"
        );
        assert_eq!(
            store.check(&a, t0 + Duration::from_secs(5)),
            Err(Rejection::Expired)
        );
        assert!(store.is_empty(), "expired tickets are pruned");
        assert_eq!(store.check(&a, t0), Err(Rejection::Unknown));
    }

    #[test]
    fn unknown_and_malformed_values() {
        let mut store = TicketStore::new(Duration::from_secs(5), 100);
        let now = Instant::now();
        let a = store.issue(now).unwrap();
        let mut flipped = a.clone().into_bytes();
        flipped[0] = if flipped[0] == b'0' { b'1' } else { b'0' };
        let flipped = String::from_utf8(flipped).unwrap();
        for bad in [flipped.as_str(), "", "zz", &a[..63], &a.to_uppercase()] {
            assert_eq!(store.check(bad, now), Err(Rejection::Unknown), "{bad}");
        }
    }

    #[test]
    fn the_store_is_bounded() {
        let now = Instant::now();
        let mut store = TicketStore::new(Duration::from_secs(60), 3);
        let first = store.issue(now).unwrap();
        for _ in 0..5 {
            store.issue(now).unwrap();
        }
        assert_eq!(store.len(), 3);
        assert_eq!(store.check(&first, now), Err(Rejection::Unknown));
        store.prune(now + Duration::from_secs(61));
        assert!(store.is_empty());
    }

    #[test]
    fn cookies_are_found_among_others() {
        let now = Instant::now();
        let mut store = TicketStore::new(Duration::from_secs(5), 10);
        let a = store.issue(now).unwrap();
        assert_eq!(
            store.check_request(&headers(&[]), now),
            Err(Rejection::Missing)
        );
        assert_eq!(
            store.check_request(&headers(&["x=1; letta_relay_ticket=nope"]), now),
            Err(Rejection::Unknown)
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
