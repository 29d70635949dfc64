//! Which requests may come from a browser: the `Host` and `Origin` rules.
//!
//! - `Origin`, when present, must be the relay's own origin (`http://<Host>`) or one given with
//!   `--allow-origin`; requests without `Origin` (same-origin GETs, non-browser clients) pass.
//! - `Host` must name the relay by an IP address, `localhost`, or the host of an allowed origin.
//!   A page on some other domain that re-points its name at this machine (DNS rebinding) would
//!   otherwise see the relay as its own origin.

use std::net::IpAddr;

use axum::http::header::{HOST, ORIGIN};
use axum::http::HeaderMap;

/// Why a browser request was refused (always a 403).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// `Host` names the relay by a domain that was not allowed.
    UnknownHost,
    /// `Origin` is neither the relay's own nor allowed.
    ForeignOrigin,
}

impl Refusal {
    /// A short explanation for the 403 body and the log.
    pub fn message(&self) -> &'static str {
        match self {
            Refusal::UnknownHost => {
                "unknown Host: reach the relay by IP address or localhost, or allow the page's origin with --allow-origin"
            }
            Refusal::ForeignOrigin => "origin not allowed (see --allow-origin)",
        }
    }
}

/// The relay's browser-facing policy.
#[derive(Debug, Clone, Default)]
pub struct OriginPolicy {
    allowed: Vec<String>,
    allowed_hosts: Vec<String>,
}

impl OriginPolicy {
    /// A policy allowing the relay's own origin plus `allowed` (normalized origins).
    pub fn new(allowed: Vec<String>) -> Self {
        let allowed_hosts = allowed
            .iter()
            .filter_map(|o| o.split_once("://"))
            .map(|(_, authority)| host_name(authority).to_owned())
            .collect();
        Self {
            allowed,
            allowed_hosts,
        }
    }

    /// Checks `Host` and then `Origin`. On success returns the request's `Origin` if it was one
    /// of the `--allow-origin` ones (CORS answers name it).
    pub fn check<'a>(&self, headers: &'a HeaderMap) -> Result<Option<&'a str>, Refusal> {
        let host = headers.get(HOST).and_then(|h| h.to_str().ok());
        if let Some(host) = host {
            if !self.trusted_host(host) {
                return Err(Refusal::UnknownHost);
            }
        }
        let Some(origin) = headers.get(ORIGIN) else {
            return Ok(None);
        };
        let origin = origin.to_str().map_err(|_| Refusal::ForeignOrigin)?;
        let origin = origin.trim_end_matches('/');
        if let Some(host) = host {
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|rest| rest.eq_ignore_ascii_case(host));
            if own {
                return Ok(None);
            }
        }
        if self.allowed.iter().any(|a| a.eq_ignore_ascii_case(origin)) {
            return Ok(Some(origin));
        }
        Err(Refusal::ForeignOrigin)
    }

    fn trusted_host(&self, host: &str) -> bool {
        let name = host_name(host);
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        bare.parse::<IpAddr>().is_ok()
            || name.eq_ignore_ascii_case("localhost")
            || self
                .allowed_hosts
                .iter()
                .any(|h| h.eq_ignore_ascii_case(name))
    }
}

/// The host name of an authority (`host[:port]`, `[v6][:port]`), without the port.
fn host_name(authority: &str) -> &str {
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => &authority[..=end],
            None => authority,
        };
    }
    match authority.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => authority,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn req(host: Option<&str>, origin: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(host) = host {
            h.insert(HOST, HeaderValue::from_str(host).unwrap());
        }
        if let Some(origin) = origin {
            h.insert(ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        h
    }

    #[test]
    fn own_origin_and_no_origin_pass() {
        let p = OriginPolicy::new(vec![]);
        assert_eq!(p.check(&req(Some("127.0.0.1:8080"), None)), Ok(None));
        assert_eq!(
            p.check(&req(Some("127.0.0.1:8080"), Some("http://127.0.0.1:8080"))),
            Ok(None)
        );
        assert_eq!(
            p.check(&req(Some("LOCALHOST:8080"), Some("http://localhost:8080"))),
            Ok(None)
        );
        assert_eq!(
            p.check(&req(Some("[::1]:8080"), Some("http://[::1]:8080"))),
            Ok(None)
        );
        assert_eq!(p.check(&req(None, None)), Ok(None));
    }

    #[test]
    fn foreign_origins_are_refused() {
        let p = OriginPolicy::new(vec![]);
        for origin in [
            "http://localhost:5173",
            "http://127.0.0.1:8081",
            "https://127.0.0.1:8080",
            "null",
            "http://127.0.0.1:8080.evil.com",
        ] {
            let h = req(Some("127.0.0.1:8080"), Some(origin));
            assert_eq!(p.check(&h), Err(Refusal::ForeignOrigin), "{origin}");
        }
        assert_eq!(
            p.check(&req(None, Some("http://x"))),
            Err(Refusal::ForeignOrigin)
        );
    }

    #[test]
    fn allowed_origins_pass_and_are_named() {
        let p = OriginPolicy::new(vec![
            "http://localhost:5173".into(),
            "https://app.example".into(),
        ]);
        let h = req(Some("127.0.0.1:8080"), Some("http://localhost:5173"));
        assert_eq!(p.check(&h), Ok(Some("http://localhost:5173")));
        let h = req(Some("app.example"), Some("https://app.example"));
        assert_eq!(p.check(&h), Ok(Some("https://app.example")));
    }

    #[test]
    fn domain_hosts_need_an_allowed_origin() {
        let p = OriginPolicy::new(vec![]);
        let rebound = req(Some("evil.example:8080"), Some("http://evil.example:8080"));
        assert_eq!(p.check(&rebound), Err(Refusal::UnknownHost));
        assert_eq!(
            p.check(&req(Some("evil.example"), None)),
            Err(Refusal::UnknownHost)
        );
        assert_eq!(p.check(&req(Some("10.1.2.3:80"), None)), Ok(None));
        let p = OriginPolicy::new(vec!["https://app.example".into()]);
        assert_eq!(p.check(&req(Some("app.example:8080"), None)), Ok(None));
    }

    #[test]
    fn host_names() {
        assert_eq!(host_name("a.b:80"), "a.b");
        assert_eq!(host_name("a.b"), "a.b");
        assert_eq!(host_name("[::1]:80"), "[::1]");
        assert_eq!(host_name("[::1]"), "[::1]");
    }
}
