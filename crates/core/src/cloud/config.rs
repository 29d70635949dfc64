//! Cloud client options (spec §1.2, §4.1): validation with the reference's texts and the
//! normalized configuration every builder reads.
//!
//! The input is the JSON view of the caller's options (what `JSON.parse(JSON.stringify(o))`
//! gives: `undefined` members gone, the `fetch` and `WebSocket` functions removed), so each
//! check can produce the reference's message for a value of the wrong type. What both backends
//! share is checked once, in JavaScript (`pkg-template/lib/options.js`: that the options are an
//! object, `requestTimeoutMs`); here those members are read strictly, with the Cloud default.

use super::error::{CloudError, CloudResult};
use super::sandbox_options::SandboxOptions;
use super::selector::ComputerSelector;
use crate::json::{Object, Value};

/// `apiBaseUrl` when the caller gives none.
pub const DEFAULT_API_BASE_URL: &str = "https://api.letta.com";
/// `requestTimeoutMs` default on Cloud: requests and turns.
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 120_000;
/// `pingIntervalMs` default: the Cloud status heartbeat.
pub const DEFAULT_PING_INTERVAL_MS: u64 = 30_000;
/// The `X-Letta-Source` value sent unless the caller sets that header.
pub const LETTA_SOURCE: &str = "letta-agent-sdk";

/// How the status sockets authenticate (`webSocketAuth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebSocketAuth {
    /// `Authorization: Bearer <apiKey>` on the upgrade (Node, React Native).
    Header,
    /// `token=<apiKey>` in both socket URLs and no constructor options (browsers).
    Query,
}

/// API-key sources outside the options: `LETTA_API_KEY`, then `LETTA_CLOUD_API_KEY` (read by the
/// binding from `globalThis.process?.env`; both absent in browsers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CloudEnv {
    /// `LETTA_API_KEY`.
    pub letta_api_key: Option<String>,
    /// `LETTA_CLOUD_API_KEY`.
    pub letta_cloud_api_key: Option<String>,
}

/// The client-wide execution target default (`computer`, `environment` or `sandbox`).
#[derive(Debug, Clone, PartialEq)]
pub enum DefaultTarget {
    /// Neither: each session gets a managed sandbox with the default options.
    None,
    /// `computer` (or the deprecated `environment`, named by `option`).
    Computer {
        /// `"computer"` or `"environment"`: which option set it (error texts name it).
        option: &'static str,
        /// The selector.
        selector: ComputerSelector,
    },
    /// `sandbox` options for every session's managed sandbox.
    Sandbox(SandboxOptions),
}

/// Validated Cloud client options.
#[derive(Debug, Clone, PartialEq)]
pub struct CloudConfig {
    /// The API key, or `None` (requests then go without `Authorization`).
    pub api_key: Option<String>,
    /// Normalized base URL: no trailing slash, no query, no fragment.
    pub api_base_url: String,
    /// The caller's headers, as given.
    pub headers: Vec<(String, String)>,
    /// Request and turn timeout.
    pub request_timeout_ms: u64,
    /// Status-socket authentication.
    pub web_socket_auth: WebSocketAuth,
    /// Heartbeat interval of the status sockets.
    pub ping_interval_ms: u64,
    /// The execution target default.
    pub default_target: DefaultTarget,
}

/// The check the binding makes when neither the options nor `globalThis` give a WebSocket.
pub fn require_websocket(available: bool) -> CloudResult<()> {
    if available {
        Ok(())
    } else {
        Err(CloudError::connection(
            "No WebSocket implementation available for cloud backend.",
        ))
    }
}

fn invalid(message: impl Into<String>) -> CloudError {
    CloudError::invalid(message)
}

/// Absent/null → `Ok(None)`; a positive safe integer → it; anything else → the error text.
pub(crate) fn positive_integer(value: &Value, message: &str) -> CloudResult<Option<u64>> {
    match value {
        Value::Absent | Value::Null => Ok(None),
        Value::Number(n) if *n >= 1.0 && n.fract() == 0.0 && *n <= 9_007_199_254_740_991.0 => {
            Ok(Some(*n as u64))
        }
        _ => Err(invalid(message)),
    }
}

/// `Bearer <token>` (case-insensitive scheme) → the token.
fn bearer(value: &str) -> Option<&str> {
    let value = value.trim();
    let (scheme, token) = value.split_once(char::is_whitespace)?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Spec §1.2: trailing slashes removed from the path, query and fragment dropped.
pub fn normalize_api_base_url(url: &str) -> CloudResult<String> {
    let url = url.trim();
    let url = url.split('#').next().unwrap_or_default();
    let url = url.split('?').next().unwrap_or_default();
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(invalid("Invalid apiBaseUrl. Expected an absolute URL."));
    };
    let host = rest.split('/').next().unwrap_or_default();
    if scheme.is_empty() || host.is_empty() {
        return Err(invalid("Invalid apiBaseUrl. Expected an absolute URL."));
    }
    Ok(format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        rest.trim_end_matches('/')
    ))
}

fn non_empty(value: Option<&str>) -> Option<String> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}

impl CloudConfig {
    /// [`CloudConfig::from_options`] of the options as JSON text (what the bindings receive).
    pub fn from_json(options: &str, env: &CloudEnv) -> CloudResult<Self> {
        let options = Object::parse(options).ok_or_else(|| invalid("Invalid client options."))?;
        Self::from_options(&options, env)
    }

    /// Validates `new LettaAgentClient({backend: "cloud", …})` (the JSON view `lib/options.js`
    /// checked: an object, `requestTimeoutMs` absent or a positive integer) with `env` as the
    /// API-key fallback.
    pub fn from_options(o: &Object<'_>, env: &CloudEnv) -> CloudResult<Self> {
        let headers = match o.get("headers") {
            Value::Absent | Value::Null => Vec::new(),
            Value::Object(map) => map
                .members()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.to_owned(), v.to_owned())))
                .collect(),
            _ => return Err(invalid("Invalid headers. Expected an object of strings.")),
        };
        let header_key = headers
            .iter()
            .find(|(k, _)| k == "Authorization" || k == "authorization")
            .and_then(|(_, v)| bearer(v))
            .map(str::to_owned);
        let api_key = non_empty(o.get("apiKey").as_str())
            .or(header_key)
            .or_else(|| non_empty(env.letta_api_key.as_deref()))
            .or_else(|| non_empty(env.letta_cloud_api_key.as_deref()));
        let api_base_url = match o.get("apiBaseUrl") {
            Value::Absent | Value::Null => DEFAULT_API_BASE_URL.to_owned(),
            Value::String(url) => normalize_api_base_url(url)?,
            _ => return Err(invalid("Invalid apiBaseUrl. Expected an absolute URL.")),
        };
        // Checked by lib/options.js (the rule of both backends); read strictly here.
        let request_timeout_ms = match o.get("requestTimeoutMs").opt_f64() {
            Ok(None) => DEFAULT_REQUEST_TIMEOUT_MS,
            Ok(Some(ms)) if ms >= 1.0 && ms.fract() == 0.0 => ms as u64,
            _ => return Err(invalid("Invalid client configuration: requestTimeoutMs.")),
        };
        let web_socket_auth = match o.get("webSocketAuth") {
            Value::Absent | Value::Null => WebSocketAuth::Header,
            Value::String(s) if s == "header" => WebSocketAuth::Header,
            Value::String(s) if s == "query" => WebSocketAuth::Query,
            _ => {
                return Err(invalid(
                    "Invalid webSocketAuth. Valid values: header, query.",
                ))
            }
        };
        let ping_interval_ms = positive_integer(
            o.get("pingIntervalMs"),
            "Invalid pingIntervalMs. Expected a positive integer.",
        )?
        .unwrap_or(DEFAULT_PING_INTERVAL_MS);
        let default_target = client_target(o)?;
        Ok(CloudConfig {
            api_key,
            api_base_url,
            headers,
            request_timeout_ms,
            web_socket_auth,
            ping_interval_ms,
            default_target,
        })
    }
}

/// `computer`, `environment` and `sandbox` of the client options.
fn client_target(o: &Object<'_>) -> CloudResult<DefaultTarget> {
    let present = |key: &str| Some(o.get(key)).filter(|v| !v.is_nullish());
    let (computer, environment, sandbox) = (
        present("computer"),
        present("environment"),
        present("sandbox"),
    );
    if computer.is_some() && environment.is_some() {
        return Err(invalid(
            "Letta Cloud clients cannot specify both computer and deprecated environment.",
        ));
    }
    let chosen = computer
        .map(|v| ("computer", v))
        .or(environment.map(|v| ("environment", v)));
    match (chosen, sandbox) {
        (Some((option, _)), Some(_)) => Err(invalid(format!(
            "Letta Cloud sessions cannot specify both {option} and sandbox options."
        ))),
        (Some((option, value)), None) => Ok(DefaultTarget::Computer {
            option,
            selector: ComputerSelector::from_json(value)?,
        }),
        (None, Some(value)) => Ok(DefaultTarget::Sandbox(SandboxOptions::from_json(value)?)),
        (None, None) => Ok(DefaultTarget::None),
    }
}

#[cfg(test)]
#[path = "tests_config.rs"]
mod tests;
