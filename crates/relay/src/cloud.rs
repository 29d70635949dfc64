//! `--cloud` mode, the pure part: where a page's request goes upstream and which headers cross.
//!
//! The page talks to the relay as if it were Letta Cloud (`apiBaseUrl` = the relay's origin) and
//! holds no key. The relay sends `/v1/...` on to `--cloud`'s base (path prefix kept) and relays
//! `/v1/environments/<connectionId>/status/ws` to the same base over `ws://` / `wss://`, adding
//! `Authorization: Bearer <key>` to both. What the page sent as its own credentials (cookies,
//! `Authorization`, a `token=` query parameter) never goes upstream; cookies the upstream sets
//! never reach the page.

use axum::http::header::{
    AUTHORIZATION, CONNECTION, COOKIE, HOST, ORIGIN, PROXY_AUTHORIZATION, REFERER, SET_COOKIE, TE,
    TRAILER, TRANSFER_ENCODING, UPGRADE,
};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Uri};

/// The Cloud API base (`--cloud`), split for the REST and WebSocket URLs.
#[derive(Debug, Clone)]
pub struct CloudBase {
    /// `https://` (and so `wss://`) rather than `http://` / `ws://`.
    pub tls: bool,
    /// `host[:port]` as given (the `Host` header sent upstream).
    pub authority: Authority,
    /// The host name without IPv6 brackets (for TCP and TLS server name).
    pub host: String,
    /// The port, explicit or the scheme's default.
    pub port: u16,
    /// The base URL's path without its trailing slash (usually empty).
    pub prefix: String,
}

impl CloudBase {
    /// Splits a base URL checked by the command line (`http` or `https`, a host, no query).
    pub fn new(base: &Uri) -> Result<Self, String> {
        let tls = base.scheme_str() == Some("https");
        let authority = base
            .authority()
            .cloned()
            .ok_or("--cloud: no host in the URL")?;
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let port = authority.port_u16().unwrap_or(if tls { 443 } else { 80 });
        let prefix = base.path().trim_end_matches('/').to_owned();
        Ok(Self {
            tls,
            authority,
            host,
            port,
            prefix,
        })
    }

    /// The upstream URL of a REST call to `path_and_query` (`/v1/...`).
    pub fn rest_uri(&self, path_and_query: &str) -> Result<Uri, String> {
        let scheme = if self.tls { "https" } else { "http" };
        format!(
            "{scheme}://{}{}{path_and_query}",
            self.authority, self.prefix
        )
        .parse()
        .map_err(|_| "the request path cannot be forwarded".to_owned())
    }

    /// The upstream URL of a status-relay socket: the page's `path`
    /// (`/v1/environments/<connectionId>/status/ws`) and its query without `token`.
    pub fn status_uri(&self, path: &str, query: Option<&str>) -> Result<Uri, String> {
        let scheme = if self.tls { "wss" } else { "ws" };
        let query = query.map(without_token).unwrap_or_default();
        let query = if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        };
        format!("{scheme}://{}{}{path}{query}", self.authority, self.prefix)
            .parse()
            .map_err(|_| "the socket path cannot be forwarded".to_owned())
    }
}

/// `query` without its `token=` parameters: a page's own credential never goes upstream (the
/// relay authenticates with the header).
pub fn without_token(query: &str) -> String {
    query
        .split('&')
        .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("token"))
        .collect::<Vec<_>>()
        .join("&")
}

/// Headers that describe one connection and never cross a proxy (RFC 9110 §7.6.1).
fn hop_by_hop(name: &HeaderName) -> bool {
    [
        CONNECTION,
        TE,
        TRAILER,
        TRANSFER_ENCODING,
        UPGRADE,
        PROXY_AUTHORIZATION,
    ]
    .contains(name)
        || matches!(name.as_str(), "keep-alive" | "proxy-connection")
}

/// The headers of a REST call sent upstream: the page's, minus hop-by-hop ones, its cookies,
/// `Authorization`, `Origin` and `Referer` (the relay's own page, nothing Cloud needs), plus the
/// upstream's `Host` and the key's `Authorization` (marked sensitive).
pub fn upstream_headers(
    page: &HeaderMap,
    base: &CloudBase,
    authorization: HeaderValue,
) -> HeaderMap {
    let mut headers = HeaderMap::with_capacity(page.len() + 2);
    for (name, value) in page {
        let dropped =
            hop_by_hop(name) || [HOST, COOKIE, AUTHORIZATION, ORIGIN, REFERER].contains(name);
        if !dropped {
            headers.append(name.clone(), value.clone());
        }
    }
    if let Ok(host) = HeaderValue::from_str(base.authority.as_str()) {
        headers.insert(HOST, host);
    }
    headers.insert(AUTHORIZATION, authorization);
    headers
}

/// The headers of the upstream's answer passed to the page: all but hop-by-hop ones and
/// `Set-Cookie` (the page's cookies are the relay's).
pub fn page_headers(upstream: &HeaderMap) -> HeaderMap {
    let mut headers = HeaderMap::with_capacity(upstream.len());
    for (name, value) in upstream {
        if !hop_by_hop(name) && name != SET_COOKIE {
            headers.append(name.clone(), value.clone());
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(text: &str) -> CloudBase {
        CloudBase::new(&text.parse().unwrap()).unwrap()
    }

    #[test]
    fn rest_and_socket_urls_keep_the_prefix_and_drop_a_token() {
        let cloud = base("https://api.letta.com/");
        assert_eq!(
            (cloud.tls, cloud.port, cloud.prefix.as_str()),
            (true, 443, "")
        );
        assert_eq!(
            cloud.rest_uri("/v1/agents/?limit=5").unwrap().to_string(),
            "https://api.letta.com/v1/agents/?limit=5"
        );
        let local = base("http://127.0.0.1:9000/cloud");
        assert_eq!(
            (local.tls, local.port, local.host.as_str()),
            (false, 9000, "127.0.0.1")
        );
        assert_eq!(
            local
                .status_uri(
                    "/v1/environments/conn%201/status/ws",
                    Some("agentId=a&token=sk-page&conversationId=c&channel=control")
                )
                .unwrap()
                .to_string(),
            "ws://127.0.0.1:9000/cloud/v1/environments/conn%201/status/ws?agentId=a&conversationId=c&channel=control"
        );
        assert_eq!(
            cloud
                .status_uri("/v1/environments/x/status/ws", Some("token=k"))
                .unwrap()
                .to_string(),
            "wss://api.letta.com/v1/environments/x/status/ws"
        );
        assert_eq!(base("http://[::1]:81").host, "::1");
        assert_eq!(without_token("a=1&&tokens=2&token&token=3"), "a=1&tokens=2");
    }

    #[test]
    fn the_page_credentials_stay_home_and_the_key_goes_upstream() {
        let mut page = HeaderMap::new();
        for (name, value) in [
            ("cookie", "letta_relay_ticket=abc"),
            ("authorization", "Bearer page-supplied"),
            ("origin", "http://127.0.0.1:8080"),
            ("referer", "http://127.0.0.1:8080/"),
            ("host", "127.0.0.1:8080"),
            ("connection", "keep-alive"),
            ("transfer-encoding", "chunked"),
            ("content-type", "application/json"),
            ("x-letta-source", "letta-agent-sdk"),
            ("x-project-id", "p1"),
        ] {
            page.append(
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        let mut key = HeaderValue::from_static("Bearer sk-relay");
        key.set_sensitive(true);
        let up = upstream_headers(&page, &base("https://api.letta.com"), key);
        let names: Vec<_> = up.keys().map(|n| n.as_str().to_owned()).collect();
        assert_eq!(
            names,
            [
                "content-type",
                "x-letta-source",
                "x-project-id",
                "host",
                "authorization"
            ]
        );
        assert_eq!(up[HOST], "api.letta.com");
        assert_eq!(up[AUTHORIZATION], "Bearer sk-relay");
        assert!(up[AUTHORIZATION].is_sensitive());

        let mut answer = HeaderMap::new();
        answer.append(SET_COOKIE, HeaderValue::from_static("session=cloud"));
        answer.append(CONNECTION, HeaderValue::from_static("close"));
        answer.append(
            HeaderName::from_static("content-disposition"),
            HeaderValue::from_static("attachment"),
        );
        let back = page_headers(&answer);
        assert_eq!(back.len(), 1);
        assert_eq!(back["content-disposition"], "attachment");
    }
}
