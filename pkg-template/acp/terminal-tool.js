// Client-side terminals: when the editor offers `terminal/*` (clientCapabilities.terminal), the
// SDK-hosted tool `run_in_editor_terminal` runs a command in the editor's own terminal. It goes
// through the permission flow of any tool (canUseTool); once allowed it creates the terminal,
// embeds it in the tool card at once (the user watches it run), waits for the exit (killing
// the command when it runs too long, the turn is cancelled or the session closes), reads the
// output for the agent and releases the terminal. Every request has a deadline.
import { isAbsolute } from "node:path";
import { TERMINAL_REQUEST_TIMEOUT_MS, requestWithDeadline } from "./deadlines.js";
import { errorText, log } from "./log.js";

export const TERMINAL_TOOL = "run_in_editor_terminal";
const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** What the editor keeps of the output (it drops the oldest bytes beyond this). */
const OUTPUT_BYTE_LIMIT = 256 * 1024;

const PARAMETERS = {
  type: "object",
  properties: {
    command: { type: "string", description: "A shell command line; with `args`, the program to run" },
    args: { type: "array", items: { type: "string" }, description: "Arguments of `command` (no shell then)" },
    cwd: { type: "string", description: "Absolute working directory (default: the session's)" },
    timeout_ms: { type: "integer", description: `Kill the command after this many ms (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS})` },
  },
  required: ["command"],
};

/** Checks the arguments; throws a clear error the agent reads as the tool's failure. */
function checkedArguments(args, cwd) {
  if (typeof args?.command !== "string" || !args.command.trim()) throw new Error("command must be a non-empty string");
  if (args.args !== undefined && !(Array.isArray(args.args) && args.args.every((a) => typeof a === "string"))) throw new Error("args must be an array of strings");
  if (args.cwd !== undefined && (typeof args.cwd !== "string" || !isAbsolute(args.cwd))) throw new Error("cwd must be an absolute path");
  const timeout = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeout) || timeout < 1) throw new Error("timeout_ms must be a positive integer");
  // Without `args` the line runs through the system shell (the editor runs on this machine).
  const [command, argv] = args.args
    ? [args.command, args.args]
    : process.platform === "win32"
      ? ["cmd.exe", ["/d", "/s", "/c", args.command]]
      : ["/bin/sh", ["-c", args.command]];
  return { command, args: argv, cwd: args.cwd ?? cwd, timeoutMs: Math.min(timeout, MAX_TIMEOUT_MS) };
}

/** The agent's view of a finished command: its output and how it ended. */
function describe(output, exit, stoppedBecause) {
  const lines = [output.output ?? ""];
  if (output.truncated) lines.unshift(`[output truncated to the last ${OUTPUT_BYTE_LIMIT} bytes]`);
  if (stoppedBecause) lines.push(`[killed: ${stoppedBecause}]`);
  else if (exit?.signal) lines.push(`[terminated by ${exit.signal}]`);
  else lines.push(`[exit code ${exit?.exitCode ?? "unknown"}]`);
  return lines.join("\n");
}

/**
 * The terminal tool of a session (none when the client does not offer terminals). `state`:
 * {id, cwd, turn, editorTerminals}; `acp`: the client context; `notify(update)` sends a
 * `session/update` of this session.
 */
export function terminalTools(state, acp, capabilities, notify) {
  if (capabilities?.terminal !== true) return [];
  const call = (method, params, options = {}) =>
    requestWithDeadline(acp, method, { sessionId: state.id, ...params }, { timeoutMs: TERMINAL_REQUEST_TIMEOUT_MS, what: method, ...options });
  return [
    {
      name: TERMINAL_TOOL,
      label: "Run in editor terminal",
      description:
        "Runs a command in the user's editor terminal, where they watch it, and returns its output and exit code. " +
        "Use it for commands the user should see (builds, tests, servers' first output). `command` is a shell command line unless `args` is given.",
      parameters: PARAMETERS,
      async execute(toolCallId, args, sessionClosed) {
        const { command, args: argv, cwd, timeoutMs } = checkedArguments(args, state.cwd);
        // The command is killed when the turn is cancelled or the session closes.
        const stops = [state.turn?.abort.signal, sessionClosed].filter((s) => s instanceof AbortSignal);
        const stop = stops.length > 0 ? AbortSignal.any(stops) : undefined;
        const { terminalId } = await call("terminal/create", { command, args: argv, cwd, outputByteLimit: OUTPUT_BYTE_LIMIT });
        state.editorTerminals.set(toolCallId, terminalId);
        try {
          await notify({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress", content: [{ type: "terminal", terminalId }] });
          let exit;
          let stoppedBecause;
          try {
            exit = await call("terminal/wait_for_exit", { terminalId }, { timeoutMs, signal: stop, what: `the command ${command}` });
          } catch (error) {
            stoppedBecause = state.turn?.cancelled ? "the turn was cancelled" : sessionClosed?.aborted ? "the session closed" : errorText(error);
            await call("terminal/kill", { terminalId }).catch((e) => log(`terminal/kill failed: ${e?.message ?? e}`));
          }
          const output = await call("terminal/output", { terminalId });
          exit ??= output.exitStatus ?? undefined;
          const failed = Boolean(stoppedBecause) || Boolean(exit?.signal) || (exit?.exitCode ?? 0) !== 0;
          return { content: [{ type: "text", text: describe(output, exit, stoppedBecause) }], isError: failed };
        } finally {
          await call("terminal/release", { terminalId }).catch((e) => log(`terminal/release failed: ${e?.message ?? e}`));
        }
      },
    },
  ];
}
