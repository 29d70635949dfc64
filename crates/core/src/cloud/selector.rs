//! Explicit computer selection (spec §4.4): a `ComputerSelector` and its resolution to a
//! connection id, one REST call at most.
//!
//! The resolver is a two-step machine: [`resolve`] returns either the connection id (a
//! `{connectionId}` selector needs no call) or the request to make; [`resolve_response`] turns
//! that request's response into the connection id or the reference's error.

use super::computers::{self, Computer, EnvironmentRecord};
use super::error::{CloudError, CloudResult};
use super::http::{HttpRequest, HttpResponse, RequestBuilder};
use crate::json::Value;
use serde::Serialize;

/// `ComputerSelector`: a name, `{name}`, `{id}`, `{connectionId}` or `{deviceId}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComputerSelector {
    /// Exact `connectionName` (a string or `{name}`).
    Name(String),
    /// The environment record id.
    Id(String),
    /// A connection id, used as it is.
    ConnectionId(String),
    /// A device id, looked up with `GET /v1/environments/<deviceId>`.
    DeviceId(String),
}

const SELECTOR_ERROR: &str =
    "Invalid computer. Expected a name or one of {name}, {id}, {deviceId}, {connectionId}.";

impl ComputerSelector {
    /// Reads the JSON view of a selector; each form needs a non-blank string.
    pub fn from_json(value: &Value<'_>) -> CloudResult<Self> {
        let text = |v: &Value<'_>| {
            v.as_str()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .ok_or_else(|| CloudError::invalid(SELECTOR_ERROR))
        };
        match value {
            Value::String(_) => text(value).map(Self::Name),
            Value::Object(o) if o.len() == 1 => match o.members().next() {
                Some(("name", v)) => text(v).map(Self::Name),
                Some(("id", v)) => text(v).map(Self::Id),
                Some(("connectionId", v)) => text(v).map(Self::ConnectionId),
                Some(("deviceId", v)) => text(v).map(Self::DeviceId),
                _ => Err(CloudError::invalid(SELECTOR_ERROR)),
            },
            _ => Err(CloudError::invalid(SELECTOR_ERROR)),
        }
    }

    /// The selector's value, as error texts show it.
    pub fn label(&self) -> &str {
        match self {
            Self::Name(s) | Self::Id(s) | Self::ConnectionId(s) | Self::DeviceId(s) => s,
        }
    }
}

/// `computers.resolve()` result: the connection to open, and the record when one was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedComputer {
    /// The connection id of the status sockets.
    pub connection_id: String,
    /// The computer, unless a `{connectionId}` selector skipped the lookup.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<Computer>,
}

/// First step: the connection id right away, or the request whose response decides.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    /// Resolved without a call.
    Done(ResolvedComputer),
    /// Make this request, then call [`resolve_response`].
    Fetch(HttpRequest),
}

/// Starts resolving `selector`.
pub fn resolve(rb: &RequestBuilder, selector: &ComputerSelector) -> Resolution {
    match selector {
        ComputerSelector::ConnectionId(id) => Resolution::Done(ResolvedComputer {
            connection_id: id.clone(),
            computer: None,
        }),
        ComputerSelector::DeviceId(device) => Resolution::Fetch(computers::get_request(rb, device)),
        ComputerSelector::Name(_) | ComputerSelector::Id(_) => Resolution::Fetch(
            computers::list_request(rb, &computers::ListComputersOptions::default()),
        ),
    }
}

/// `Remote environment is offline: <label>`.
pub fn offline_error(label: &str) -> CloudError {
    CloudError::connection(format!("Remote environment is offline: {label}"))
}

fn online(record: EnvironmentRecord, label: &str) -> CloudResult<ResolvedComputer> {
    match record.connection_id.clone() {
        Some(connection_id) => Ok(ResolvedComputer {
            connection_id,
            computer: Some(record.into()),
        }),
        None => Err(offline_error(label)),
    }
}

/// Second step: the response of [`Resolution::Fetch`]'s request.
pub fn resolve_response(
    selector: &ComputerSelector,
    response: HttpResponse<'_>,
) -> CloudResult<ResolvedComputer> {
    match selector {
        ComputerSelector::ConnectionId(id) => Ok(ResolvedComputer {
            connection_id: id.clone(),
            computer: None,
        }),
        ComputerSelector::DeviceId(device) => online(computers::parse_record(response)?, device),
        ComputerSelector::Name(name) => {
            let list = computers::parse_list(response)?;
            let mut matches = list
                .connections
                .into_iter()
                .filter(|r| r.connection_name == *name);
            match (matches.next(), matches.next()) {
                (None, _) => Err(CloudError::connection(format!(
                    "Computer not found: {name}"
                ))),
                (Some(_), Some(_)) => Err(CloudError::invalid(format!(
                    "Computer name is ambiguous: {name}. Select it by id, deviceId or connectionId."
                ))),
                (Some(record), None) => online(record, name),
            }
        }
        ComputerSelector::Id(id) => {
            let list = computers::parse_list(response)?;
            match list.connections.into_iter().find(|r| r.id == *id) {
                Some(record) => online(record, id),
                None => Err(CloudError::connection(format!("Computer not found: {id}"))),
            }
        }
    }
}

#[cfg(test)]
#[path = "tests_selector.rs"]
mod tests;
