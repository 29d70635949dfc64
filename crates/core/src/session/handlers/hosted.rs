//! The state of what the session answers itself: the SDK-hosted tool calls being executed and
//! the server queue items that carry our messages. Fields private; the handlers ask through
//! the methods.

/// SDK-hosted tool calls being executed, by handle.
#[derive(Debug, Default)]
pub(in crate::session) struct ToolRuns {
    /// (handle, request id of the `external_tool_call_request`).
    running: Vec<(u32, String)>,
    last_handle: u32,
}

impl ToolRuns {
    /// A tool call starts: its handle for the `RunTool` effect.
    pub(in crate::session) fn start(&mut self, request_id: String) -> u32 {
        self.last_handle = self.last_handle.wrapping_add(1);
        self.running.push((self.last_handle, request_id));
        self.last_handle
    }

    /// A tool call settled: the request id to answer (`None`: unknown or settled before).
    pub(in crate::session) fn finish(&mut self, handle: u32) -> Option<String> {
        let index = self.running.iter().position(|(h, _)| *h == handle)?;
        Some(self.running.swap_remove(index).1)
    }
}

/// The server queue items of this session: (item id, client message id).
#[derive(Debug, Default)]
pub(in crate::session) struct QueueItems {
    items: Vec<(String, String)>,
}

impl QueueItems {
    /// The queue as the server last reported it (only items carrying a message of ours).
    pub(in crate::session) fn replace(
        &mut self,
        items: impl IntoIterator<Item = (String, String)>,
    ) {
        self.items.clear();
        self.items.extend(items);
    }

    /// The item was removed: the client message id it carried, if it was ours.
    pub(in crate::session) fn take(&mut self, item_id: &str) -> Option<String> {
        let index = self.items.iter().position(|(id, _)| id == item_id)?;
        Some(self.items.swap_remove(index).1)
    }
}
