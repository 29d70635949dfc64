//! Requests and responses as plain values, the generated client's conventions for headers and
//! errors (`<status> <body>` messages with `status`), and its retry rule (Stainless defaults:
//! two retries, 0.5 s doubling to at most 8 s, up to 25 % jitter).

use super::config::{CloudConfig, LETTA_SOURCE};
use super::error::{CloudError, CloudResult};
use super::query::Query;

/// HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// POST.
    Post,
    /// PATCH.
    Patch,
    /// DELETE.
    Delete,
}

impl Method {
    /// The method name for `fetch`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// A request body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// No body.
    None,
    /// A JSON document (`Content-Type: application/json`).
    Json(String),
    /// `multipart/form-data` with the caller's files under `field`: the transport builds it
    /// with the platform's `FormData` (which also sets the boundary header), so the file bytes
    /// never pass through here.
    Multipart {
        /// The form field each file is appended under.
        field: &'static str,
    },
}

/// How the response body should be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseKind {
    /// Text (JSON) for a parser.
    Json,
    /// Bytes, handed to the caller as they are (file download).
    Binary,
}

/// A request to perform with `fetch`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// Method.
    pub method: Method,
    /// Absolute URL.
    pub url: String,
    /// Headers, in order; names unique ignoring case.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Body,
    /// How to read the response.
    pub response: ResponseKind,
}

impl HttpRequest {
    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

/// A header's value in a list (case-insensitive name).
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Sets a header, replacing one of the same name (any case).
pub fn set_header(headers: &mut Vec<(String, String)>, name: &str, value: &str) {
    headers.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
    headers.push((name.to_owned(), value.to_owned()));
}

/// Builds requests against one Cloud configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestBuilder {
    base_url: String,
    headers: Vec<(String, String)>,
}

impl RequestBuilder {
    /// Spec §4.1: `Authorization: Bearer <apiKey>` (when there is a key), `X-Letta-Source:
    /// letta-agent-sdk` unless the caller sets a header of that name in any case, then the
    /// caller's headers, which win over the defaults as in the generated client.
    pub fn new(config: &CloudConfig) -> Self {
        let mut headers = Vec::new();
        set_header(&mut headers, "Accept", "application/json");
        if let Some(key) = &config.api_key {
            set_header(&mut headers, "Authorization", &format!("Bearer {key}"));
        }
        if header(&config.headers, "x-letta-source").is_none() {
            set_header(&mut headers, "X-Letta-Source", LETTA_SOURCE);
        }
        for (k, v) in &config.headers {
            set_header(&mut headers, k, v);
        }
        RequestBuilder {
            base_url: config.api_base_url.clone(),
            headers,
        }
    }

    /// A request to `path` (starting with `/`) with a query and a body.
    pub fn request(&self, method: Method, path: &str, query: &Query, body: Body) -> HttpRequest {
        let mut headers = self.headers.clone();
        if matches!(body, Body::Json(_)) {
            set_header(&mut headers, "Content-Type", "application/json");
        }
        HttpRequest {
            method,
            url: format!("{}{}{}", self.base_url, path, query.to_suffix()),
            headers,
            body,
            response: ResponseKind::Json,
        }
    }

    /// A JSON body request.
    pub fn json<T: serde::Serialize>(
        &self,
        method: Method,
        path: &str,
        query: &Query,
        body: &T,
    ) -> HttpRequest {
        self.request(
            method,
            path,
            query,
            Body::Json(crate::json::to_string(body)),
        )
    }
}

/// A response as the transport read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpResponse<'a> {
    /// Status code.
    pub status: u16,
    /// Body text (empty for a binary response the transport kept as bytes).
    pub body: &'a str,
}

impl<'a> HttpResponse<'a> {
    /// A response.
    pub fn new(status: u16, body: &'a str) -> Self {
        HttpResponse { status, body }
    }

    /// The body of a 2xx response, else the generated client's `APIError`.
    pub fn ok(&self) -> CloudResult<&'a str> {
        if (200..300).contains(&self.status) {
            Ok(self.body)
        } else {
            Err(api_error(self.status, self.body))
        }
    }
}

/// The generated client's error message: `<status> <detail>`, where the detail is the body's
/// `message` when it is a string, else the parsed body re-serialized (members in document
/// order, as `JSON.stringify(JSON.parse(text))`), else the raw text; `<status> status code (no
/// body)` for an empty body.
pub fn api_error(status: u16, body: &str) -> CloudError {
    let detail = match crate::json::parse(body) {
        Some(crate::json::Value::Object(o)) => match o.get("message") {
            crate::json::Value::String(m) if !m.is_empty() => m.to_string(),
            // A truthy non-string message is shown as JSON; a falsy one shows the whole body.
            m @ (crate::json::Value::Object(_)
            | crate::json::Value::Array(_)
            | crate::json::Value::Bool(true)) => crate::json::to_string(m),
            m @ crate::json::Value::Number(n) if *n != 0.0 && !n.is_nan() => {
                crate::json::to_string(m)
            }
            _ => crate::json::to_string(&crate::json::Value::Object(o.clone())),
        },
        Some(value) if !body.trim().is_empty() => crate::json::to_string(&value),
        _ => body.to_owned(),
    };
    if detail.is_empty() {
        CloudError::api(status, format!("{status} status code (no body)"))
    } else {
        CloudError::api(status, format!("{status} {detail}"))
    }
}

/// Retries the generated client makes by default.
pub const MAX_RETRIES: u32 = 2;

/// The generated client's retry rule: `x-should-retry` decides when present, else 408, 409,
/// 429 and 5xx are retried. `None` when the response is final; else the delay before retry
/// number `retry` (0-based): `retry-after-ms`, `retry-after` seconds, or 0.5 s · 2^retry capped
/// at 8 s, reduced by `jitter` ∈ [0, 1) times 25 %.
pub fn retry_delay_ms(
    status: u16,
    should_retry: Option<&str>,
    retry_after_ms: Option<f64>,
    retry: u32,
    jitter: f64,
) -> Option<u64> {
    if retry >= MAX_RETRIES {
        return None;
    }
    let retryable = match should_retry {
        Some("true") => true,
        Some("false") => false,
        _ => matches!(status, 408 | 409 | 429) || status >= 500,
    };
    if !retryable {
        return None;
    }
    if let Some(ms) = retry_after_ms.filter(|ms| ms.is_finite() && *ms >= 0.0) {
        return Some(ms as u64);
    }
    let seconds = (0.5 * f64::from(1u32 << retry.min(16))).min(8.0);
    Some((seconds * (1.0 - jitter.clamp(0.0, 1.0) * 0.25) * 1000.0) as u64)
}

#[cfg(test)]
#[path = "tests_http.rs"]
mod tests;

/// What the Cloud tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use super::RequestBuilder;
    use crate::cloud::config::{CloudConfig, CloudEnv};

    /// A test literal (written with `serde_json::json!`) as the core's JSON tree.
    pub(crate) fn doc(value: serde_json::Value) -> crate::json::Value<'static> {
        crate::json::parse(&value.to_string())
            .expect("test JSON")
            .into_static()
    }

    /// [`doc`] of an object literal.
    pub(crate) fn object(value: serde_json::Value) -> crate::json::Object<'static> {
        doc(value).into_object().expect("a test object")
    }

    /// A request builder for the default base URL and the API key `k`.
    pub(crate) fn builder() -> RequestBuilder {
        let options = crate::json::Object::parse(r#"{"apiKey": "k"}"#).expect("test JSON");
        let config = CloudConfig::from_options(&options, &CloudEnv::default());
        RequestBuilder::new(&config.expect("the test options are valid"))
    }
}
