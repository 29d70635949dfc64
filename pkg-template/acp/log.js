// Logging of letta-acp: stderr only (stdout carries the ACP JSON-RPC stream).

/** Writes one line to stderr. */
export function log(message) {
  process.stderr.write(`letta-acp: ${message}\n`);
}
