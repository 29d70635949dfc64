// Permission modes of letta-acp (`session/set_mode`, and the same choice as the `permissions`
// select of `configOptions`) and the `canUseTool` callback that enforces them, asking the
// editor with `session/request_permission` when the mode does not decide. Every question has
// a deadline (deadlines.js); a cancelled turn's question is withdrawn and answered "deny".
import { randomUUID } from "node:crypto";
import { IN_TURN_PERMISSION_TIMEOUT_MS, OUT_OF_TURN_PERMISSION_TIMEOUT_MS, requestWithDeadline } from "./deadlines.js";
import { errorText, log } from "./log.js";
import { toolKind, toolLocations, toolTitle } from "./tool-cards.js";
import { isInsideWorkspace } from "./workspace.js";

/** The modes offered with `session/set_mode` (the app server's permission modes). */
export const MODES = [
  { id: "standard", name: "Standard", description: "Ask before running tools (reads of the editor's workspace files do not ask)" },
  { id: "acceptEdits", name: "Accept edits", description: "File edits run without asking; other tools ask" },
  { id: "unrestricted", name: "Unrestricted", description: "Every tool runs without asking" },
];
const LEGACY = { default: "standard", bypassPermissions: "unrestricted", fullAccess: "unrestricted" };

/** A mode id from LETTA_ACP_PERMISSION_MODE (legacy names mapped), else `standard`. */
export function initialMode(value) {
  const mode = LEGACY[value] ?? value;
  return MODES.some((m) => m.id === mode) ? mode : "standard";
}

/** Whether `value` names a mode exactly. */
export const isMode = (value) => MODES.some((m) => m.id === value);

export const modeState = (currentModeId) => ({ currentModeId, availableModes: MODES });

/** The config option id of the permissions select. */
export const PERMISSIONS_OPTION = "permissions";

/**
 * The permissions select of `configOptions` (clients that render modes from config options).
 * @returns {import("@agentclientprotocol/sdk").SessionConfigOption}
 */
export function permissionsOption(mode) {
  return {
    id: PERMISSIONS_OPTION,
    name: "Permissions",
    description: "Approval behavior for tool calls",
    category: "mode",
    type: "select",
    currentValue: mode,
    options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })),
  };
}

/** Tools that only keep the agent's own books: never worth a question. */
const BOOKKEEPING = new Set([
  "TodoWrite", "todo_write", "update_plan", "UpdatePlan", "write_todos", "ExitPlanMode", "EnterPlanMode",
  "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "memory", "memory_apply_patch",
]);
const EDIT_TOOLS = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch", "ApplyPatch", "replace", "write_file", "edit_file", "write_via_editor"]);

const OPTIONS = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow this tool", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/** The answer for a call of a cancelled turn (a fresh object each time: the package keeps it). */
const cancelled = () => ({ behavior: "deny", message: "The user cancelled the turn", interrupt: true });

/** Whether the mode (or the tool's nature) lets the call run without asking. */
async function allowedWithoutAsking(state, toolName, toolInput) {
  if (BOOKKEEPING.has(toolName) || state.mode === "unrestricted") return true;
  if (state.mode === "acceptEdits" && EDIT_TOOLS.has(toolName)) return true;
  if (state.alwaysAllowed.has(toolName)) return true;
  // Reading the editor's own copy of a workspace file is what the server's Read does unasked.
  return toolName === "read_editor_buffer" && (await isInsideWorkspace(toolInput?.path, state.cwd));
}

/**
 * The `canUseTool` of one ACP session `state` ({id, cwd, mode, alwaysAllowed, turn}); `acp` is
 * the connection's client context. During a turn (`state.turn`: {cancelled, abort}) a question
 * waits up to an hour and is withdrawn when the turn is cancelled; outside one, five minutes.
 * Withdrawn, timed out or failed questions deny the call with `interrupt`.
 */
export function permissionCallback(state, acp, { inTurnTimeoutMs = IN_TURN_PERMISSION_TIMEOUT_MS, outOfTurnTimeoutMs = OUT_OF_TURN_PERMISSION_TIMEOUT_MS } = {}) {
  return async (toolName, toolInput, context) => {
    if (await allowedWithoutAsking(state, toolName, toolInput)) return { behavior: "allow" };
    const turn = state.turn;
    if (turn?.cancelled) {
      log(`denied ${toolName}: the turn was cancelled`);
      return cancelled();
    }
    const toolCallId = context?.toolCallId ?? context?.requestId ?? `${toolName}-${randomUUID()}`;
    const params = {
      sessionId: state.id,
      toolCall: { toolCallId, title: toolTitle(toolName, toolInput), kind: toolKind(toolName), status: "pending", rawInput: toolInput, locations: toolLocations(toolInput) },
      options: OPTIONS,
    };
    let response;
    try {
      response = await requestWithDeadline(acp, "session/request_permission", params, {
        timeoutMs: turn ? inTurnTimeoutMs : outOfTurnTimeoutMs,
        signal: turn?.abort.signal,
        what: `permission for ${toolName}${turn ? "" : " (outside a turn)"}`,
      });
    } catch (error) {
      if (turn?.cancelled) {
        log(`denied ${toolName}: the turn was cancelled while its permission was asked`);
        return cancelled();
      }
      log(`denied ${toolName}: ${errorText(error)}`);
      return { behavior: "deny", message: `No permission: ${errorText(error)}`, interrupt: true };
    }
    const outcome = response?.outcome;
    if (outcome?.outcome !== "selected") return cancelled();
    if (outcome.optionId === "allow_always") state.alwaysAllowed.add(toolName);
    if (outcome.optionId === "allow_once" || outcome.optionId === "allow_always") return { behavior: "allow" };
    return { behavior: "deny", message: "The user rejected the tool call" };
  };
}
