//! `sandbox` options of a managed Cloud sandbox (spec §1.2), validated at construction and per
//! session, with the defaults the lifecycle uses.

use super::config::positive_integer;
use super::error::{CloudError, CloudResult};
use crate::json::Value;
use serde::Serialize;

/// Most GitHub repositories one sandbox may clone.
pub const MAX_GITHUB_REPOSITORIES: usize = 10;

/// The sandbox kind (newest reference only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SandboxClass {
    /// `"linux-vm"`.
    #[serde(rename = "linux-vm")]
    LinuxVm,
    /// `"container"`.
    #[serde(rename = "container")]
    Container,
}

/// A repository cloned into the sandbox at creation (sent in the create body as given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GithubRepository {
    /// `/^[A-Za-z0-9-]+$/`.
    pub owner: String,
    /// `/^[A-Za-z0-9._-]+$/`.
    pub repo: String,
    /// 40 hex digits, when pinned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// Validated sandbox options with their defaults filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxOptions {
    /// `sandboxClass`, if given.
    pub sandbox_class: Option<SandboxClass>,
    /// Lease length, 1–60 (default 5).
    pub ttl_minutes: u32,
    /// How long to wait for the sandbox to come online (default 120 000).
    pub ready_timeout_ms: u64,
    /// Poll interval while waiting (default 1 000).
    pub ready_poll_interval_ms: u64,
    /// Lease refresh interval (default max(1000, floor(ttl·60 000·0.8))).
    pub refresh_interval_ms: u64,
    /// Repositories cloned at creation.
    pub github_repositories: Vec<GithubRepository>,
    /// Terminate the sandbox when the session closes (default false).
    pub terminate_on_close: bool,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            sandbox_class: None,
            ttl_minutes: 5,
            ready_timeout_ms: 120_000,
            ready_poll_interval_ms: 1_000,
            refresh_interval_ms: default_refresh_interval_ms(5),
            github_repositories: Vec::new(),
            terminate_on_close: false,
        }
    }
}

/// max(1000, floor(ttl · 60 000 · 0.8)): refresh at 80 % of the lease.
pub fn default_refresh_interval_ms(ttl_minutes: u32) -> u64 {
    (u64::from(ttl_minutes) * 48_000).max(1_000)
}

fn all_chars(text: &str, ok: impl Fn(char) -> bool) -> bool {
    !text.is_empty() && text.chars().all(ok)
}

fn github_repository(index: usize, value: &Value<'_>) -> CloudResult<GithubRepository> {
    let field = |name: &str| {
        CloudError::invalid(format!(
            "Invalid sandbox.githubRepositories[{index}].{name}."
        ))
    };
    let Some(o) = value.as_object() else {
        return Err(CloudError::invalid(format!(
            "Invalid sandbox.githubRepositories[{index}]. Expected an object."
        )));
    };
    let owner = o.get("owner").as_str().unwrap_or_default();
    if !all_chars(owner, |c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(field("owner"));
    }
    let repo = o.get("repo").as_str().unwrap_or_default();
    if !all_chars(repo, |c| {
        c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
    }) {
        return Err(field("repo"));
    }
    let commit = match o.get("commit") {
        Value::Absent | Value::Null => None,
        Value::String(c) if c.len() == 40 && all_chars(c, |c| c.is_ascii_hexdigit()) => {
            Some(c.to_string())
        }
        _ => return Err(field("commit")),
    };
    Ok(GithubRepository {
        owner: owner.to_owned(),
        repo: repo.to_owned(),
        commit,
    })
}

impl SandboxOptions {
    /// Validates the JSON view of `sandbox` options.
    pub fn from_json(value: &Value<'_>) -> CloudResult<Self> {
        let Some(o) = value.as_object() else {
            return Err(CloudError::invalid(
                "Invalid sandbox options. Expected an object.",
            ));
        };
        let sandbox_class = match o.get("sandboxClass") {
            Value::Absent | Value::Null => None,
            Value::String(s) if s == "linux-vm" => Some(SandboxClass::LinuxVm),
            Value::String(s) if s == "container" => Some(SandboxClass::Container),
            _ => {
                return Err(CloudError::invalid(
                    "Invalid sandbox.sandboxClass. Valid values: linux-vm, container.",
                ))
            }
        };
        let ttl = positive_integer(
            o.get("ttlMinutes"),
            "Invalid sandbox.ttlMinutes. Expected an integer between 1 and 60.",
        )?;
        let ttl_minutes = match ttl {
            None => 5,
            Some(n @ 1..=60) => n as u32,
            Some(_) => {
                return Err(CloudError::invalid(
                    "Invalid sandbox.ttlMinutes. Expected an integer between 1 and 60.",
                ))
            }
        };
        let ms = |key: &str, default: u64| {
            positive_integer(
                o.get(key),
                &format!("Invalid sandbox.{key}. Expected a positive integer."),
            )
            .map(|v| v.unwrap_or(default))
        };
        let github_repositories = match o.get("githubRepositories") {
            Value::Absent | Value::Null => Vec::new(),
            Value::Array(list) if list.len() > MAX_GITHUB_REPOSITORIES => {
                return Err(CloudError::invalid(
                    "Invalid sandbox.githubRepositories. Expected at most 10 repositories.",
                ))
            }
            Value::Array(list) => list
                .iter()
                .enumerate()
                .map(|(i, v)| github_repository(i, v))
                .collect::<CloudResult<_>>()?,
            _ => {
                return Err(CloudError::invalid(
                    "Invalid sandbox.githubRepositories. Expected an array.",
                ))
            }
        };
        let terminate_on_close = match o.get("terminateOnClose") {
            Value::Absent | Value::Null => false,
            Value::Bool(b) => *b,
            _ => {
                return Err(CloudError::invalid(
                    "Invalid sandbox.terminateOnClose. Expected a boolean.",
                ))
            }
        };
        Ok(SandboxOptions {
            sandbox_class,
            ttl_minutes,
            ready_timeout_ms: ms("readyTimeoutMs", 120_000)?,
            ready_poll_interval_ms: ms("readyPollIntervalMs", 1_000)?,
            refresh_interval_ms: ms(
                "refreshIntervalMs",
                default_refresh_interval_ms(ttl_minutes),
            )?,
            github_repositories,
            terminate_on_close,
        })
    }
}
