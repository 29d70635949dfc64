// Permission modes of letta-acp and the `canUseTool` callback that enforces them, asking the
// editor with `session/request_permission` when the mode does not decide.
import { toolKind, toolTitle } from "./updates.js";

/** The modes offered with `session/set_mode` (the app server's permission modes). */
export const MODES = [
  { id: "standard", name: "Standard", description: "Ask before running tools" },
  { id: "acceptEdits", name: "Accept edits", description: "File edits run without asking; other tools ask" },
  { id: "unrestricted", name: "Unrestricted", description: "Every tool runs without asking" },
];
const LEGACY = { default: "standard", bypassPermissions: "unrestricted", fullAccess: "unrestricted" };

/** A mode id from LETTA_ACP_PERMISSION_MODE (legacy names mapped), else `standard`. */
export function initialMode(value) {
  const mode = LEGACY[value] ?? value;
  return MODES.some((m) => m.id === mode) ? mode : "standard";
}

export const modeState = (currentModeId) => ({ currentModeId, availableModes: MODES });

/** Tools that only keep the agent's own books: never worth a question. */
const BOOKKEEPING = new Set(["TodoWrite", "todo_write", "update_plan", "write_todos", "ExitPlanMode", "EnterPlanMode", "memory", "memory_apply_patch"]);
const EDIT_TOOLS = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch", "replace", "write_file", "edit_file", "write_via_editor"]);

const OPTIONS = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow this tool", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/**
 * The `canUseTool` of one ACP session `state` ({id, mode, alwaysAllowed, announced}); `acp` is
 * the connection's client context.
 */
export function permissionCallback(state, acp) {
  return async (toolName, toolInput, context) => {
    if (BOOKKEEPING.has(toolName) || state.mode === "unrestricted") return { behavior: "allow" };
    if (state.mode === "acceptEdits" && EDIT_TOOLS.has(toolName)) return { behavior: "allow" };
    if (state.alwaysAllowed.has(toolName)) return { behavior: "allow" };
    const toolCallId = context?.toolCallId ?? context?.requestId;
    const response = await acp.request("session/request_permission", {
      sessionId: state.id,
      toolCall: { toolCallId, title: toolTitle(toolName, toolInput), kind: toolKind(toolName), status: "pending", rawInput: toolInput },
      options: OPTIONS,
    });
    const outcome = response?.outcome;
    if (outcome?.outcome !== "selected") return { behavior: "deny", message: "The user cancelled the tool call" };
    if (outcome.optionId === "allow_always") state.alwaysAllowed.add(toolName);
    if (outcome.optionId === "allow_once" || outcome.optionId === "allow_always") return { behavior: "allow" };
    return { behavior: "deny", message: "The user rejected the tool call" };
  };
}
