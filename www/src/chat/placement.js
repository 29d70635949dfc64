// Where the page's own rows (the user's messages not yet in history, error rows) go among the
// accumulator's rows: after the row that was last when they happened; an error whose row is
// gone (history kept nothing of an interrupted reply) goes at the end of its turn.

/** The key of the last row of the turn opened by the user message sent with `otid`. */
function endOfTurn(rows, otid) {
  const start = rows.findIndex((row) => row.key === `user:otid:${otid}`);
  if (start < 0) return undefined;
  let end = start;
  while (end + 1 < rows.length && rows[end + 1].kind !== "user") end++;
  return rows[end].key;
}

/** `{after: Map(anchor key | null → extras), trailing: extras}` for the visible extras. */
export function placeExtras(rows, extras) {
  const keys = new Set(rows.map((row) => row.key));
  const after = new Map();
  const trailing = [];
  for (const extra of extras) {
    if (extra.queued) continue;
    let anchor = extra.anchor;
    if (anchor !== null && !keys.has(anchor) && extra.turn) anchor = endOfTurn(rows, extra.turn) ?? anchor;
    if (anchor === null || keys.has(anchor)) {
      const list = after.get(anchor) ?? [];
      list.push(extra);
      after.set(anchor, list);
    } else {
      trailing.push(extra);
    }
  }
  return { after, trailing };
}
