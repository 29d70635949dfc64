// The transcript of a recording as the test pages render it, computed in Node with the installed
// package, and the projection of a row onto what the pages show (see renderedRows()).

/** Rows of `recording`: its `messages` folded, then rebased onto its `history`. */
export function transcriptOf(createTranscriptAccumulator, recording) {
  const transcript = createTranscriptAccumulator();
  transcript.applyMany(recording.messages);
  const rows = transcript.rebase(recording.history, { order: recording.historyOrder });
  transcript.free();
  return rows;
}

/** What a page shows of a row (every page renders rows with the same markup). */
export function visible(row) {
  if (row.kind === "tool_call") {
    return {
      key: row.key,
      kind: row.kind,
      status: row.status,
      toolName: row.toolName,
      toolInput: JSON.stringify(row.toolInput),
      result: row.result?.content ?? null,
      isError: row.result ? String(row.result.isError) : null,
    };
  }
  return { key: row.key, kind: row.kind, text: row.text };
}

/** Reads the rendered rows (`#rows > li`) out of a page, in the same shape as visible(). */
export function renderedRows(page) {
  return page.$$eval("#rows > li", (items) =>
    items.map((li) => {
      if (li.dataset.kind !== "tool_call") {
        return { key: li.dataset.key, kind: li.dataset.kind, text: li.querySelector(".text")?.textContent ?? null };
      }
      const result = li.querySelector(".tool-result");
      return {
        key: li.dataset.key,
        kind: li.dataset.kind,
        status: li.dataset.status,
        toolName: li.querySelector(".tool-name")?.textContent ?? null,
        toolInput: li.querySelector(".tool-input")?.textContent ?? null,
        result: result?.textContent ?? null,
        isError: result?.dataset.error ?? null,
      };
    }),
  );
}
