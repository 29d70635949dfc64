// Logging of letta-acp: stderr only (stdout carries the ACP JSON-RPC stream).

/** What went wrong, as text (a caught value may be anything). */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

/** Writes one line to stderr. */
export function log(message) {
  process.stderr.write(`letta-acp: ${message}\n`);
}
