//! `checkCloudOptions`: the Cloud option checks without the Cloud module. In every build, so
//! that a browser whose Cloud module is fetched on the first Cloud call (`browser/load.js`)
//! still rejects wrong options synchronously, in `new LettaAgentClient(…)` and
//! `createSession(…)`, with the same typed errors as the Cloud module's own constructors: both
//! read the options with the same core functions (`CloudConfig::from_json`,
//! `SessionPlan::check_options`, the options' part of `SessionPlan::parse`).

use super::error::cloud_error;
use crate::cloud::config::{CloudConfig, CloudEnv};
use crate::cloud::session_plan::SessionPlan;
use wasm_bindgen::prelude::*;

/// Checks the client options (JSON, as `lib/options.js` passed them) with the environment's
/// keys as the fallback, and, when given, a session's config (JSON, as `lib/session.js` builds
/// it). Throws the typed validation error.
#[wasm_bindgen(js_name = checkCloudOptions)]
pub fn check_cloud_options(
    options_json: &str,
    letta_api_key: Option<String>,
    letta_cloud_api_key: Option<String>,
    session_json: Option<String>,
) -> Result<(), JsValue> {
    let env = CloudEnv {
        letta_api_key,
        letta_cloud_api_key,
    };
    let config = CloudConfig::from_json(options_json, &env).map_err(|e| cloud_error(&e))?;
    if let Some(session) = session_json {
        SessionPlan::check_options(&config, &session).map_err(|e| cloud_error(&e))?;
    }
    Ok(())
}
