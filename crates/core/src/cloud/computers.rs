//! Computers (`client.computers`, spec §1.3): the environment records of `GET /v1/environments`
//! (field names from `@letta-ai/letta-client`'s `EnvironmentListResponse.Connection`) and the
//! SDK's `Computer` view of them.

use super::error::{CloudError, CloudResult};
use super::http::{HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use crate::json::{self, Object, Value};
use serde::Serialize;

/// One environment record (a machine running Letta Code connected to Cloud).
#[derive(Debug, Clone, PartialEq)]
pub struct EnvironmentRecord {
    /// Record id (`{id}` selectors match it).
    pub id: String,
    /// The live connection, `null` while offline.
    pub connection_id: Option<String>,
    /// The device id (`{deviceId}` selectors, `GET /v1/environments/<deviceId>`).
    pub device_id: String,
    /// The computer's name (string and `{name}` selectors match it exactly).
    pub connection_name: String,
    /// Epoch ms of the current connection, or `null`.
    pub connected_at: Option<f64>,
    /// Epoch ms last seen.
    pub last_seen_at: Option<f64>,
    /// Free-form metadata (`gitBranch`, `os`, …), passed through.
    pub metadata: Option<Value<'static>>,
}

impl EnvironmentRecord {
    /// Reads a record: string `id`, `deviceId` and `connectionName` are required; a
    /// `connectionId`, `connectedAt` or `lastSeenAt` of another type than the API's is
    /// invalid (`null` is absent).
    fn read(o: &Object<'_>) -> Option<EnvironmentRecord> {
        let required = |key: &str| o.get(key).as_str().map(str::to_owned);
        Some(EnvironmentRecord {
            id: required("id")?,
            connection_id: o
                .get("connectionId")
                .clone()
                .opt_str()
                .ok()?
                .map(Into::into),
            device_id: required("deviceId")?,
            connection_name: required("connectionName")?,
            connected_at: o.get("connectedAt").opt_f64().ok()?,
            last_seen_at: o.get("lastSeenAt").opt_f64().ok()?,
            metadata: o.get("metadata").clone().non_null().map(Value::into_static),
        })
    }
}

/// `GET /v1/environments` response.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvironmentList {
    /// The records of this page.
    pub connections: Vec<EnvironmentRecord>,
    /// More pages follow.
    pub has_next_page: bool,
}

/// Online or offline (online iff there is a connection id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputerStatus {
    /// Connected.
    Online,
    /// Not connected.
    Offline,
}

/// The SDK's `Computer`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Computer {
    /// Environment record id.
    pub id: String,
    /// Device id.
    pub device_id: String,
    /// Connection id, `null` while offline.
    pub connection_id: Option<String>,
    /// Name.
    pub name: String,
    /// `"online"` iff `connectionId` is set.
    pub status: ComputerStatus,
    /// Epoch ms of the current connection, or `null`.
    pub connected_at: Option<f64>,
    /// Epoch ms last seen.
    pub last_seen_at: Option<f64>,
    /// Metadata, when the record has some.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value<'static>>,
}

impl From<EnvironmentRecord> for Computer {
    fn from(r: EnvironmentRecord) -> Self {
        Computer {
            status: if r.connection_id.is_some() {
                ComputerStatus::Online
            } else {
                ComputerStatus::Offline
            },
            id: r.id,
            device_id: r.device_id,
            connection_id: r.connection_id,
            name: r.connection_name,
            connected_at: r.connected_at,
            last_seen_at: r.last_seen_at,
            metadata: r.metadata,
        }
    }
}

/// `computers.list()` result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComputerList {
    /// The computers.
    pub computers: Vec<Computer>,
    /// More pages follow.
    pub has_next_page: bool,
}

/// `computers.list({limit?, after?, onlineOnly?})` options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListComputersOptions {
    /// Page size.
    pub limit: Option<u32>,
    /// Cursor: the last record id of the previous page.
    pub after: Option<String>,
    /// Only connected computers.
    pub online_only: Option<bool>,
}

impl ListComputersOptions {
    /// Reads `{limit?, after?, onlineOnly?}` (JSON text; other members ignored).
    pub fn from_json(text: &str) -> CloudResult<Self> {
        let invalid = || CloudError::invalid("Invalid computers.list() options.");
        let o = Object::parse(text).ok_or_else(invalid)?;
        let limit = match o.get("limit").opt_f64().map_err(|_| invalid())? {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Some(n as u32),
            Some(_) => return Err(invalid()),
            None => None,
        };
        Ok(ListComputersOptions {
            limit,
            after: o
                .get("after")
                .clone()
                .opt_str()
                .map_err(|_| invalid())?
                .map(Into::into),
            online_only: o.get("onlineOnly").opt_bool().map_err(|_| invalid())?,
        })
    }
}

/// `GET /v1/environments` (the generated client's params are strings: `limit`, `after`,
/// `onlineOnly`).
pub fn list_request(rb: &RequestBuilder, options: &ListComputersOptions) -> HttpRequest {
    let query = Query::new()
        .opt("limit", options.limit)
        .opt("after", options.after.as_deref())
        .opt("onlineOnly", options.online_only);
    rb.request(
        Method::Get,
        "/v1/environments",
        &query,
        super::http::Body::None,
    )
}

/// `GET /v1/environments/<deviceId>`.
pub fn get_request(rb: &RequestBuilder, device_id: &str) -> HttpRequest {
    let path = format!("/v1/environments/{}", segment(device_id));
    rb.request(Method::Get, &path, &Query::new(), super::http::Body::None)
}

/// Parses a list response (`{connections: [record…], hasNextPage?}`; one invalid record
/// makes the response invalid).
pub fn parse_list(response: HttpResponse<'_>) -> CloudResult<EnvironmentList> {
    let invalid = || CloudError::bad_response("Invalid Cloud environment list response.");
    let o = json::parse(response.ok()?)
        .and_then(Value::into_object)
        .ok_or_else(invalid)?;
    let connections = o
        .array("connections")
        .ok_or_else(invalid)?
        .iter()
        .map(|r| r.as_object().and_then(EnvironmentRecord::read))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(invalid)?;
    Ok(EnvironmentList {
        connections,
        has_next_page: o.get("hasNextPage").opt_bool().map_err(|_| invalid())? == Some(true),
    })
}

/// Parses `computers.list()`'s result.
pub fn parse_computer_list(response: HttpResponse<'_>) -> CloudResult<ComputerList> {
    let list = parse_list(response)?;
    Ok(ComputerList {
        computers: list.connections.into_iter().map(Computer::from).collect(),
        has_next_page: list.has_next_page,
    })
}

/// Parses one environment record.
pub fn parse_record(response: HttpResponse<'_>) -> CloudResult<EnvironmentRecord> {
    Object::parse(response.ok()?)
        .as_ref()
        .and_then(EnvironmentRecord::read)
        .ok_or_else(|| CloudError::bad_response("Invalid Cloud environment response."))
}
