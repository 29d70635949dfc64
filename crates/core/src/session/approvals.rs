//! Tool approvals (spec §1.6, §3.6 `control_request`): the decision procedure, the decision
//! cache keyed by `[agent_id, conversation_id, request_id]`, and the mapping of a `canUseTool`
//! answer to the wire decision.

use crate::json::{Object, Value};
use crate::protocol::commands::ApprovalDecision;

/// How many answered (or pending) approvals are remembered; the oldest is evicted first.
pub const APPROVAL_CACHE_SIZE: usize = 256;

const NO_CALLBACK: &str = "No canUseTool callback registered";
const DENIED_BY_CALLBACK: &str = "Denied by canUseTool callback";

/// Identity of one control request: `[agent_id, conversation_id, request_id]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalKey {
    pub agent_id: Option<String>,
    pub conversation_id: String,
    pub request_id: String,
}

#[derive(Debug, Clone)]
enum Entry {
    /// The callback is running; `handle` identifies it to the JS layer.
    Pending { handle: u32 },
    /// The decision sent, re-sent verbatim if the server replays the request.
    Answered(ApprovalDecision),
}

/// What to do with an incoming `can_use_tool` request.
#[derive(Debug, Clone)]
pub enum Disposition {
    /// Already answered: send this decision again.
    Resend(ApprovalDecision),
    /// The callback is still deciding: ignore the replay.
    Ignore,
    /// Decided without asking anyone: send this.
    Decide(ApprovalDecision),
    /// Ask the `canUseTool` callback; answer later through `handle`.
    Ask { handle: u32 },
}

/// The approval decision cache of one session.
#[derive(Debug, Default)]
pub struct Approvals {
    /// At most [`APPROVAL_CACHE_SIZE`] entries; once full, a new one replaces the oldest.
    entries: Vec<(ApprovalKey, Entry)>,
    /// Index of the oldest entry once the cache is full.
    oldest: usize,
    next_handle: u32,
}

impl Approvals {
    /// Spec §1.6 `resolveAppServerToolApproval`, plus the replay rules of the cache.
    /// `auto_allowed`: the tool is one the session allows without asking (the wrapper's own
    /// `StructuredOutput` tool).
    pub fn dispose(
        &mut self,
        key: ApprovalKey,
        tool_name: &str,
        unrestricted: bool,
        has_callback: bool,
        auto_allowed: bool,
    ) -> Disposition {
        if let Some((_, entry)) = self.entries.iter().find(|(k, _)| *k == key) {
            return match entry {
                Entry::Answered(decision) => Disposition::Resend(decision.clone()),
                Entry::Pending { .. } => Disposition::Ignore,
            };
        }
        let needs_user_input = matches!(tool_name, "AskUserQuestion" | "ExitPlanMode");
        let decided = if auto_allowed {
            Some(allow())
        } else if needs_user_input && !has_callback {
            Some(deny(NO_CALLBACK))
        } else if unrestricted && !needs_user_input {
            Some(allow())
        } else if has_callback {
            None
        } else if tool_name == "EnterPlanMode" {
            Some(allow())
        } else {
            Some(deny(NO_CALLBACK))
        };
        match decided {
            Some(decision) => {
                self.remember(key, Entry::Answered(decision.clone()));
                Disposition::Decide(decision)
            }
            None => {
                self.next_handle = self.next_handle.wrapping_add(1);
                let handle = self.next_handle;
                self.remember(key, Entry::Pending { handle });
                Disposition::Ask { handle }
            }
        }
    }

    /// Records the callback's answer for `handle`; returns the request it answers and the
    /// decision to send, or `None` when the handle is unknown (evicted or already answered).
    pub fn answer(
        &mut self,
        handle: u32,
        response_json: &str,
    ) -> Option<(ApprovalKey, ApprovalDecision)> {
        let (key, entry) = self
            .entries
            .iter_mut()
            .find(|(_, e)| matches!(e, Entry::Pending { handle: h } if *h == handle))?;
        let decision = decision_from_response(response_json);
        *entry = Entry::Answered(decision.clone());
        Some((key.clone(), decision))
    }

    /// An answer given for the request `key` directly (`respondToApproval`), whether a callback
    /// is deciding it or nobody asked: the decision to send, or `None` when it was answered
    /// already (a later callback answer then finds it answered too).
    pub fn respond(&mut self, key: ApprovalKey, response_json: &str) -> Option<ApprovalDecision> {
        let decision = decision_from_response(response_json);
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, Entry::Answered(_))) => return None,
            Some((_, entry)) => *entry = Entry::Answered(decision.clone()),
            None => self.remember(key, Entry::Answered(decision.clone())),
        }
        Some(decision)
    }

    fn remember(&mut self, key: ApprovalKey, entry: Entry) {
        let full = self.entries.len() >= APPROVAL_CACHE_SIZE;
        match self.entries.get_mut(self.oldest) {
            Some(slot) if full => {
                *slot = (key, entry);
                self.oldest = (self.oldest + 1) % APPROVAL_CACHE_SIZE;
            }
            _ => self.entries.push((key, entry)),
        }
    }
}

fn allow() -> ApprovalDecision {
    ApprovalDecision::Allow {
        message: None,
        updated_input: None,
        selected_permission_suggestion_ids: Vec::new(),
    }
}

fn deny(message: &str) -> ApprovalDecision {
    ApprovalDecision::Deny {
        message: message.to_owned(),
    }
}

/// Maps a `canUseTool` answer (`{behavior:"allow", message?, updatedInput?, updatedPermissions?}`
/// or `{behavior:"deny", message, interrupt?}`) to the wire decision. Anything that is not an
/// `allow` is a deny; a deny without a message gets the reference's default text.
pub fn decision_from_response(response_json: &str) -> ApprovalDecision {
    let Some(o) = Object::parse(response_json) else {
        return deny(DENIED_BY_CALLBACK);
    };
    let message = o.get("message").non_empty_str().map(str::to_owned);
    if o.get("behavior").as_str() != Some("allow") {
        return deny(message.as_deref().unwrap_or(DENIED_BY_CALLBACK));
    }
    let updated_input = o.object("updatedInput").map(Object::to_static);
    let mut selected_permission_suggestion_ids = Vec::new();
    for item in o.array("updatedPermissions").unwrap_or_default() {
        let id = match item {
            Value::String(id) => Some(id.as_ref()),
            Value::Object(p) => ["id", "suggestion_id", "permission_suggestion_id"]
                .into_iter()
                .find_map(|k| p.get(k).as_str()),
            _ => None,
        };
        if let Some(id) = id {
            selected_permission_suggestion_ids.push(id.to_owned());
        }
    }
    ApprovalDecision::Allow {
        message,
        updated_input,
        selected_permission_suggestion_ids,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: &str) -> ApprovalKey {
        ApprovalKey {
            agent_id: Some("a".into()),
            conversation_id: "c".into(),
            request_id: id.into(),
        }
    }

    fn json(decision: &ApprovalDecision) -> String {
        crate::json::to_string(decision)
    }

    #[test]
    fn procedure_without_callback() {
        let mut a = Approvals::default();
        let Disposition::Decide(d) = a.dispose(key("1"), "Bash", false, false, false) else {
            panic!()
        };
        assert_eq!(
            json(&d),
            r#"{"behavior":"deny","message":"No canUseTool callback registered"}"#
        );
        let Disposition::Decide(d) = a.dispose(key("2"), "EnterPlanMode", false, false, false)
        else {
            panic!()
        };
        assert_eq!(
            json(&d),
            r#"{"behavior":"allow","updated_input":null,"selected_permission_suggestion_ids":[]}"#
        );
        let Disposition::Decide(d) = a.dispose(key("3"), "Bash", true, false, false) else {
            panic!()
        };
        assert!(
            json(&d).contains("allow"),
            "unrestricted allows without asking"
        );
        let Disposition::Decide(d) = a.dispose(key("4"), "AskUserQuestion", true, false, false)
        else {
            panic!()
        };
        assert!(
            json(&d).contains("deny"),
            "user-input tools need a callback even when unrestricted"
        );
    }

    #[test]
    fn auto_allowed_tools_are_never_asked() {
        let mut a = Approvals::default();
        for (id, has_callback) in [("1", false), ("2", true)] {
            let Disposition::Decide(d) =
                a.dispose(key(id), "StructuredOutput", false, has_callback, true)
            else {
                panic!("an auto-allowed tool is decided without asking")
            };
            assert!(json(&d).contains("allow"));
        }
        assert!(matches!(
            a.dispose(key("3"), "Bash", false, true, false),
            Disposition::Ask { .. }
        ));
    }

    #[test]
    fn callback_runs_once_and_replays_resend_the_decision() {
        let mut a = Approvals::default();
        let Disposition::Ask { handle } = a.dispose(key("perm-1"), "Bash", false, true, false)
        else {
            panic!()
        };
        assert!(matches!(
            a.dispose(key("perm-1"), "Bash", false, true, false),
            Disposition::Ignore
        ));
        let (k, d) = a.answer(handle, r#"{"behavior":"allow","updatedPermissions":["s1",{"suggestion_id":"s2"},{"x":1}]}"#).unwrap();
        assert_eq!(k, key("perm-1"));
        assert_eq!(
            json(&d),
            r#"{"behavior":"allow","updated_input":null,"selected_permission_suggestion_ids":["s1","s2"]}"#
        );
        assert!(a.answer(handle, "{}").is_none(), "answered once");
        let Disposition::Resend(again) = a.dispose(key("perm-1"), "Bash", false, true, false)
        else {
            panic!()
        };
        assert_eq!(json(&again), json(&d));
    }

    #[test]
    fn a_direct_answer_wins_over_the_callback_and_counts_once() {
        let mut a = Approvals::default();
        let Disposition::Ask { handle } = a.dispose(key("perm-7"), "Bash", false, true, false)
        else {
            panic!()
        };
        let decision = a.respond(key("perm-7"), r#"{"behavior":"deny","message":"no"}"#);
        assert!(json(&decision.unwrap()).contains("deny"));
        assert!(
            a.answer(handle, r#"{"behavior":"allow"}"#).is_none(),
            "the callback is late"
        );
        assert!(a.respond(key("perm-7"), "{}").is_none(), "answered once");
        // A request nobody asked about in this session (recovered after a reload).
        let recovered = a.respond(key("perm-8"), r#"{"behavior":"allow"}"#).unwrap();
        assert!(json(&recovered).contains("allow"));
        assert!(matches!(
            a.dispose(key("perm-8"), "Bash", false, true, false),
            Disposition::Resend(_)
        ));
    }

    #[test]
    fn deny_answers_get_a_default_message() {
        assert_eq!(
            json(&decision_from_response(r#"{"behavior":"deny"}"#)),
            r#"{"behavior":"deny","message":"Denied by canUseTool callback"}"#
        );
        assert_eq!(
            json(&decision_from_response(
                r#"{"behavior":"deny","message":"no","interrupt":true}"#
            )),
            r#"{"behavior":"deny","message":"no"}"#
        );
        assert!(json(&decision_from_response("oops")).contains("deny"));
        assert_eq!(
            json(&decision_from_response(
                r#"{"behavior":"allow","message":"ok","updatedInput":{"command":"ls"}}"#
            )),
            r#"{"behavior":"allow","message":"ok","updated_input":{"command":"ls"},"selected_permission_suggestion_ids":[]}"#
        );
    }

    #[test]
    fn the_cache_is_bounded() {
        let mut a = Approvals::default();
        for i in 0..(APPROVAL_CACHE_SIZE + 10) {
            a.dispose(key(&i.to_string()), "Bash", false, false, false);
        }
        assert_eq!(a.entries.len(), APPROVAL_CACHE_SIZE);
        assert!(
            matches!(
                a.dispose(key("0"), "Bash", false, false, false),
                Disposition::Decide(_)
            ),
            "evicted"
        );
    }
}
