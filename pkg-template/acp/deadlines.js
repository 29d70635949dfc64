// Requests to the ACP client with a deadline: nothing letta-acp asks the editor (a permission,
// a file, a terminal) may wait forever. A request that runs out of time, or whose `signal`
// aborts (the turn was cancelled), is withdrawn with `$/cancel_request` and rejects at once.
import { RequestError } from "@agentclientprotocol/sdk";

/** fs/read_text_file and fs/write_text_file. */
export const FS_REQUEST_TIMEOUT_MS = 30_000;
/** terminal/create, terminal/output, terminal/kill and terminal/release. */
export const TERMINAL_REQUEST_TIMEOUT_MS = 30_000;
/**
 * A permission asked outside a prompt turn: ACP's only answer guarantee (the cancel contract)
 * does not hold there, so a client without an out-of-turn permission UI would never answer.
 */
export const OUT_OF_TURN_PERMISSION_TIMEOUT_MS = 300_000;
/** A permission asked during a turn: the user may think it over, but not forever. */
export const IN_TURN_PERMISSION_TIMEOUT_MS = 3_600_000;

/** Thrown when the client did not answer in time. */
export class ClientTimeoutError extends Error {
  constructor(what, timeoutMs) {
    super(`${what}: the client did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`);
    this.name = "ClientTimeoutError";
  }
}

/**
 * `acp.request(method, params)` within `timeoutMs`; `signal` withdraws it early (the promise
 * then rejects with the signal's reason). `what` names the request in the timeout error.
 * @param {import("@agentclientprotocol/sdk").AgentContext} acp
 * @param {string} method
 * @param {object} params
 * @param {{timeoutMs: number, signal?: AbortSignal, what?: string}} options
 * @returns {Promise<any>} the client's answer (typed by the caller's use of it)
 */
export async function requestWithDeadline(acp, method, params, { timeoutMs, signal, what = method }) {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new ClientTimeoutError(what, timeoutMs)), timeoutMs);
  const cancellationSignal = signal ? AbortSignal.any([timeout.signal, signal]) : timeout.signal;
  try {
    return await acp.request(method, params, { cancellationSignal, stopWaitingOnCancel: true });
  } catch (error) {
    // A withdrawn request rejects with -32800 carrying the abort reason as data.
    if (error instanceof RequestError && error.code === -32800 && cancellationSignal.aborted) throw cancellationSignal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
