// Structured output (`outputFormat`, spec §1.8): turns a session's turn into a validated JSON
// value. Loaded lazily by session.js (dynamic import) only for sessions with `outputFormat`, so
// the validator stays out of the browser bundle otherwise.
//
// Two modes, chosen once per session from the model catalog:
//   native    every input carries `response_format`; the last assistant message must be JSON
//             that validates;
//   portable  the reserved `StructuredOutput` tool takes the answer as its arguments; string
//             prompts get a suffix asking for it; after a valid call the run is aborted.
// Both send up to `maxRetries` corrective turns, then give a `structured_output_error` result.

import { Validator } from "@cfworker/json-schema";
import { invalidArgument } from "./errors.js";
import { isObject } from "./values.js";

/** Appended to string prompts in portable mode. */
export const PROMPT_SUFFIX =
  "Return the final result by calling StructuredOutput exactly once with the requested fields. Do not write the result as prose.";
const ERROR_CODE = "structured_output_error";
const TOOL = "StructuredOutput";
const shown = (value) => (typeof value === "string" ? value : "?");

/** `outputFormat` (§1.8): `{type: "json_schema", schema, maxRetries? (default 2)}`. */
export function outputFormatOption(value) {
  if (value.type !== "json_schema") {
    throw invalidArgument(`Invalid outputFormat.type '${shown(value.type)}'. Valid values: json_schema.`);
  }
  if (!isObject(value.schema)) throw invalidArgument("Invalid outputFormat.schema. Expected a JSON Schema object.");
  const maxRetries = value.maxRetries ?? 2;
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) {
    throw invalidArgument("Invalid outputFormat.maxRetries. Expected a non-negative integer.");
  }
  return { type: "json_schema", schema: value.schema, maxRetries };
}


/**
 * Validates `outputFormat` and sets up a session's structured turns (before its start):
 * registers the reserved `StructuredOutput` tool (portable mode needs it at start) in the
 * session's `options.tools` and `callbacks.executors`, and lets it run without an approval:
 * other tools still go to the caller's `canUseTool`, or without one get the reference's denial.
 */
export function structuredTurns(outputFormat, options, callbacks) {
  const format = outputFormatOption(outputFormat);
  if (options.tools.some((tool) => tool.name === TOOL)) {
    throw invalidArgument("StructuredOutput is a reserved tool name when outputFormat is set.");
  }
  const turns = new StructuredOutputTurns(format);
  const description = "Returns the final result of this turn as structured data matching the parameters' schema. Call it exactly once.";
  options.tools.push({ name: TOOL, label: TOOL, description, parameters: format.schema });
  callbacks.executors.set(TOOL, (toolCallId, args) => turns.runTool(toolCallId, args));
  const canUseTool = callbacks.canUseTool;
  callbacks.canUseTool = (toolName, ...rest) => {
    if (toolName === TOOL) return { behavior: "allow" };
    return canUseTool ? canUseTool(toolName, ...rest) : { behavior: "deny", message: "No canUseTool callback registered" };
  };
  options.hasCanUseTool = true;
  return turns;
}
