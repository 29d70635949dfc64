//! Queued inputs the server runs as one turn (issue 36).
//!
//! letta-code dequeues every queued message of a conversation at once when it pumps its queue
//! and runs them as one turn: one `update_queue` lists them all as `dequeued`, the loop status
//! maps one run to all their `client_message_id`s, and one `turn_finished` (`turn_id`
//! `batch-N`) ends them. Each `send()` still gets its own `result`: the first input's turn
//! carries the later ones (its [`Turn::batched`]), and when it ends each of them ends too, in
//! the order they were sent, with the same outcome, runs and text, and `result.batch` naming
//! the turn that carried them.

use super::echo::echo_started;
use super::result::{build_result, ResultContext};
use super::turn::{Outcome, Turn};
use super::TurnCoordinator;
use crate::protocol::sdk_message::{SdkMessage, TurnBatch};

impl TurnCoordinator {
    /// The server runs the inputs `client_message_ids` (in any order) as one turn: those of
    /// ours in flight become one batch, carried by the earliest of them; inputs joining a
    /// carrier that started already start now (their echoes go out). Fewer than two of ours:
    /// nothing to do.
    pub(super) fn batch_together(&mut self, client_message_ids: &[&str], now_ms: u64) {
        let out = &mut self.out;
        self.turns
            .batch_together(client_message_ids, now_ms, |turn| echo_started(out, turn));
    }

    /// The ended carrier's batch label (index 0), when it carried others.
    pub(super) fn batch_label(carrier: &Turn) -> Option<TurnBatch> {
        if carrier.batched.is_empty() {
            return None;
        }
        let id = carrier
            .turn_id
            .clone()
            .or_else(|| carrier.run_ids.first().cloned())
            .unwrap_or_else(|| carrier.client_message_id.clone());
        Some(TurnBatch {
            id,
            index: 0,
            size: carrier.batched.len() + 1,
        })
    }

    /// After the carrier's result: one result for each input it carried, in send order, with
    /// the carrier's outcome, runs and text.
    pub(super) fn end_carried(
        &mut self,
        carrier: &Turn,
        outcome: &Outcome,
        batch: &TurnBatch,
        now_ms: u64,
    ) {
        for (index, turn) in carrier.batched.iter().enumerate() {
            let message = build_result(
                outcome.clone(),
                ResultContext {
                    assistant_text: &carrier.assistant_text,
                    duration_ms: now_ms.saturating_sub(turn.started_at),
                    conversation_id: Some(&self.runtime.conversation_id),
                    run_ids: carrier.run_ids.clone(),
                    batch: Some(TurnBatch {
                        index: index + 1,
                        ..batch.clone()
                    }),
                },
            );
            self.out.push(SdkMessage::Result(message));
        }
    }
}
