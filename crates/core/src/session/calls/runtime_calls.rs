//! The calls on the started runtime: `updateModel`, `removeQueuedMessage`,
//! `changeDeviceState`, `getDeviceStatus` and `recoverPendingApprovals`. Their arguments are
//! checked and their commands built by the free functions below; the session finds the
//! runtime and issues the decision.

use super::super::core::SessionCore;
use super::super::error::SessionError;
use super::super::ids::RequestIds;
use super::super::options::{normalize_permission_mode, positive_integer, text};
use super::super::requests::{CallId, Purpose, ResponseMatch, Shape};
use super::{options_of, timeout_option, CallRequest};
use crate::json::Value;
use crate::protocol::commands::{
    ChangeDeviceState, Command, DeviceStatePayload, ModelPayload, RemoveQueueItem, Sync,
    UpdateModel,
};
use crate::protocol::runtime::Runtime;

impl SessionCore {
    /// `updateModel(model | {model?, modelId?, modelHandle?, reasoningEffort?})`.
    pub fn update_model(&mut self, call: CallId, request_json: &str, now: u64) {
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        let stateless = self.config.options.stateless;
        let decision = update_model_request(&self.ids, call, runtime, request_json, stateless);
        self.issue(call, decision, now);
    }

    /// `removeQueuedMessage(itemId)`.
    pub fn remove_queued_message(&mut self, call: CallId, item_id: &str, now: u64) {
        if item_id.trim().is_empty() {
            let error =
                SessionError::invalid("Invalid queue item id. Expected a non-empty string.");
            return self.complete(call, Err(error));
        }
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        let request = remove_queue_item_request(&self.ids, call, runtime, item_id);
        self.issue(call, Ok(request), now);
    }

    /// `changeDeviceState({cwd?, permissionMode?})`: fire-and-forget.
    pub fn change_device_state(&mut self, update_json: &str) -> Result<(), SessionError> {
        let runtime = self.ready_runtime()?;
        let payload = device_state(update_json)?;
        let command = Command::ChangeDeviceState(ChangeDeviceState { runtime, payload });
        self.write(command.to_json());
        Ok(())
    }

    /// `getDeviceStatus({timeoutMs?})`: waits for the call's `sync` and for a status (see
    /// `device`); the wait's own deadline reports the timeout.
    pub fn get_device_status(&mut self, call: CallId, options_json: &str, now: u64) {
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        let timeout = match device_status_timeout(options_json) {
            Ok(timeout) => timeout.unwrap_or_else(|| self.request_timeout()),
            Err(error) => return self.complete(call, Err(error)),
        };
        self.devices.add(call, now.saturating_add(timeout));
        let request = device_sync_request(&self.ids, call, runtime, timeout);
        self.issue(call, Ok(request), now);
    }

    /// `recoverPendingApprovals({timeoutMs?})`.
    pub fn recover_pending_approvals(&mut self, call: CallId, options_json: &str, now: u64) {
        let Some(runtime) = self.runtime_for(call) else {
            return;
        };
        let decision = recover_approvals_request(&self.ids, call, runtime, options_json);
        self.issue(call, decision, now);
    }
}

/// `updateModel`'s request: refused in a stateless session; the argument is a model string or
/// `{model, modelId, modelHandle, reasoningEffort}`.
fn update_model_request(
    ids: &RequestIds,
    call: CallId,
    runtime: Runtime,
    request_json: &str,
    stateless: bool,
) -> Result<CallRequest, SessionError> {
    if stateless {
        return Err(SessionError::state("updateModel() is unavailable in a stateless session because it changes persistent model configuration."));
    }
    let payload = match crate::json::parse(request_json) {
        Some(Value::String(model)) if !model.trim().is_empty() => ModelPayload::from_model(&model),
        Some(Value::Object(o)) => {
            let mut payload = o
                .get("model")
                .as_str()
                .map(ModelPayload::from_model)
                .unwrap_or_default();
            if let Some(id) = text(&o, "modelId") {
                payload.model_id = Some(id);
            }
            if let Some(handle) = text(&o, "modelHandle") {
                payload.model_handle = Some(handle);
            }
            payload.reasoning_effort = text(&o, "reasoningEffort");
            payload
        }
        _ => return Err(SessionError::invalid("updateModel() expects a model string or {model, modelId, modelHandle, reasoningEffort}.")),
    };
    let request_id = ids.next("update_model");
    let command = Command::UpdateModel(UpdateModel {
        request_id: request_id.clone(),
        runtime,
        payload,
    });
    let purpose = Purpose::Call(call, Shape::UpdateModel);
    Ok(CallRequest::reply(&command, request_id, purpose))
}

/// `removeQueuedMessage`'s request, answered by the response naming the same item.
fn remove_queue_item_request(
    ids: &RequestIds,
    call: CallId,
    runtime: Runtime,
    item_id: &str,
) -> CallRequest {
    let request_id = ids.next("remove_queue_item");
    let command = Command::RemoveQueueItem(RemoveQueueItem {
        request_id: request_id.clone(),
        runtime,
        item_id: item_id.to_owned(),
    });
    CallRequest {
        frame: command.to_json(),
        request_id,
        matcher: ResponseMatch::QueueItem(item_id.to_owned()),
        purpose: Purpose::Call(call, Shape::RemoveQueueItem),
        timeout_ms: None,
    }
}

/// `changeDeviceState`'s update: `cwd` and/or `permissionMode` (normalized); neither is an
/// error.
fn device_state(update_json: &str) -> Result<DeviceStatePayload, SessionError> {
    let update = options_of(update_json);
    let cwd = text(&update, "cwd");
    let mode = update
        .get("permissionMode")
        .as_str()
        .map(|m| normalize_permission_mode(Some(m)).to_owned());
    if cwd.is_none() && mode.is_none() {
        return Err(SessionError::invalid(
            "Invalid device state update. Expected cwd or permissionMode.",
        ));
    }
    Ok(DeviceStatePayload { cwd, mode })
}

/// `getDeviceStatus`' `timeoutMs` (`None`: the request timeout).
fn device_status_timeout(options_json: &str) -> Result<Option<u64>, SessionError> {
    positive_integer(options_of(options_json).get("timeoutMs")).map_err(|_| {
        SessionError::invalid("Invalid device status timeout. Expected a positive integer.")
    })
}

/// The `sync` forcing a device status for a `getDeviceStatus` call: it outlives the call's
/// wait (`timeout`) by a moment, so the wait reports the timeout.
fn device_sync_request(
    ids: &RequestIds,
    call: CallId,
    runtime: Runtime,
    timeout: u64,
) -> CallRequest {
    let request_id = ids.next("sync");
    let command = Command::Sync(Sync {
        request_id: Some(request_id.clone()),
        runtime,
        recover_approvals: false,
        force_device_status: true,
    });
    CallRequest::reply(&command, request_id, Purpose::DeviceSync(call)).within(Some(timeout + 1))
}

/// `recoverPendingApprovals`' request: a `sync` recovering approvals within `timeoutMs`.
fn recover_approvals_request(
    ids: &RequestIds,
    call: CallId,
    runtime: Runtime,
    options_json: &str,
) -> Result<CallRequest, SessionError> {
    let timeout = timeout_option(&options_of(options_json))?;
    let request_id = ids.next("sync");
    let command = Command::Sync(Sync {
        request_id: Some(request_id.clone()),
        runtime,
        recover_approvals: true,
        force_device_status: true,
    });
    let purpose = Purpose::Call(call, Shape::RecoverApprovals);
    Ok(CallRequest::reply(&command, request_id, purpose).within(timeout))
}
