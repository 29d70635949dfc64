// Models of an ACP session: the `model` config option and the locally handled `/model` command.
import { permissionsOption } from "./permissions.js";

/**
 * The `session/set_config_option` options of a session: the permissions and model selects.
 * @returns {import("@agentclientprotocol/sdk").SessionConfigOption[]}
 */
export function configOptions(state) {
  const options = state.models.map((m) => ({ value: m.handle, name: m.label || m.handle, description: m.description ?? null }));
  if (state.model && !options.some((o) => o.value === state.model)) options.unshift({ value: state.model, name: state.model });
  /** @type {import("@agentclientprotocol/sdk").SessionConfigOption} */
  const model = { id: "model", name: "Model", category: "model", type: "select", currentValue: state.model ?? options[0]?.value ?? "", options };
  return [permissionsOption(state.mode), model];
}

/** A catalog entry matching what the user typed (handle, id or label), else `undefined`. */
function findModel(models, wanted) {
  const w = wanted.toLowerCase();
  return models.find((m) => m.handle.toLowerCase() === w || m.id?.toLowerCase() === w || m.label?.toLowerCase() === w);
}

/**
 * Runs `/model [name]` without a model turn: lists the catalog, or switches with
 * `updateModel()`. Returns the reply text; `switched` is true when the model changed.
 */
export async function runModelCommand(state, argument) {
  if (!argument) {
    const lines = state.models.map((m) => `- ${m.handle}${m.label && m.label !== m.handle ? ` (${m.label})` : ""}${m.handle === state.model ? "  ← current" : ""}`);
    return { text: `Models:\n${lines.join("\n")}\n\nSwitch with /model <handle>.`, switched: false };
  }
  const entry = findModel(state.models, argument);
  if (!entry) return { text: `Unknown model "${argument}". Type /model to list the models.`, switched: false };
  await switchModel(state, entry.handle);
  return { text: `Model switched to ${entry.handle}.`, switched: true };
}

/**
 * Switches the session's model (the conversation's, as the app server applies it), and
 * remembers it in the session's record: a later process that loads the session reports it.
 */
export async function switchModel(state, handle) {
  await state.session.updateModel(handle);
  state.model = handle;
  state.store?.put({ sessionId: state.id, model: handle });
}
