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
  if (!isObject(value)) throw invalidArgument("Invalid outputFormat. Expected an object.");
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


/** True when the catalog entry of `model` (an id or a handle) supports native structured outputs. */
export function supportsNative(entries, model) {
  if (!Array.isArray(entries) || typeof model !== "string" || model === "") return false;
  const entry = entries.find((e) => e?.handle === model || e?.id === model || e?.model === model);
  return entry?.supportsStructuredOutputs === true;
}

/** The state of one session's structured turns. */
export class StructuredOutputTurns {
  #validator;
  #format;
  #attempts = 0;
  /** @type {{toolCallId: string, value: unknown} | null} {toolCallId, value} of a valid StructuredOutput call */
  #captured = null;
  /** @type {string | null} why the last StructuredOutput call was refused */
  #toolErrors = null;
  /** @type {{uuid: string | null, parts: string[]}} the last assistant message after the last tool activity */
  #text = { uuid: null, parts: [] };
  #aborting = false;

  /** `format`: the validated `outputFormat` (options.js). */
  constructor(format) {
    this.#format = format;
    this.#validator = new Validator(format.schema, "2020-12", false);
    /** `"native"` or `"portable"`, set by `afterStart()`. */
    this.mode = "portable";
    /** Native mode: the `response_format` (JSON) every input of the session carries. */
    this.format = undefined;
  }

  /**
   * After the start: picks the mode from the model catalog. Native mode sets the inputs'
   * `response_format` and re-registers the session's tools without the reserved one.
   */
  async afterStart(driver, info, tools) {
    let catalog;
    try {
      catalog = JSON.parse(await driver.listModels());
    } catch {
      catalog = undefined; // no catalog: portable mode works with every model
    }
    this.mode = supportsNative(catalog?.entries, info.model) ? "native" : "portable";
    if (this.mode !== "native") return;
    this.format = JSON.stringify(this.responseFormat());
    const runtime = { agent_id: info.agentId, conversation_id: info.conversationId };
    const external = [{ tools: tools.filter((tool) => tool.name !== TOOL) }];
    const command = { type: "runtime_external_tools_update", updates: [{ runtimes: [runtime], external_tools: external }] };
    try {
      await driver.sendCommand(JSON.stringify(command), JSON.stringify({ responseType: "runtime_external_tools_update_response" }), undefined);
    } catch {
      // A runtime without the update keeps the tool; native mode works regardless.
    }
  }

  /** The `response_format` of native mode. */
  responseFormat() {
    return { type: "json_schema", json_schema: { name: "response_schema", schema: this.#format.schema, strict: true } };
  }

  /** A new user turn: resets the attempt count; returns the message to send. */
  begin(message) {
    this.#attempts = 0;
    this.#reset();
    return this.mode === "portable" && typeof message === "string" ? `${message}\n\n${PROMPT_SUFFIX}` : message;
  }

  #reset() {
    this.#captured = null;
    this.#toolErrors = null;
    this.#text = { uuid: null, parts: [] };
    this.#aborting = false;
  }

  /** `''` when `value` validates, else the validator's errors as one line. */
  #errors(value) {
    const outcome = this.#validator.validate(value);
    if (outcome.valid) return "";
    return outcome.errors
      .filter((e) => e.keyword !== "properties" || outcome.errors.length === 1)
      .map((e) => `${e.instanceLocation}: ${e.error}`)
      .join("; ");
  }

  /** Runs the `StructuredOutput` tool (portable mode). */
  runTool(toolCallId, args) {
    const errors = this.#errors(args);
    if (errors === "") {
      this.#captured = { toolCallId, value: args };
      return { content: [{ type: "text", text: "Structured output accepted." }] };
    }
    this.#toolErrors = errors;
    return {
      content: [{ type: "text", text: `The arguments do not match the required schema: ${errors}. Call StructuredOutput again with corrected fields.` }],
      isError: true,
    };
  }

  /**
   * Looks at one stream message of `driver`'s session: returns the message to yield (a result
   * possibly rewritten), or `undefined` when a result is held back because a corrective turn
   * was sent instead. Aborts the run after the tool result of a valid StructuredOutput call.
   */
  observe(message, driver) {
    const step = this.#step(message);
    if (step.abort) driver.abort().catch(() => {});
    if (step.corrective === undefined) return step.message;
    driver.send(JSON.stringify(step.corrective), undefined, this.format);
    return undefined;
  }

  #step(message) {
    switch (message.type) {
      case "assistant":
        if (message.uuid !== this.#text.uuid) this.#text = { uuid: message.uuid, parts: [] };
        this.#text.parts.push(message.content);
        return { message };
      case "tool_call":
        this.#text = { uuid: null, parts: [] };
        return { message };
      case "tool_result": {
        this.#text = { uuid: null, parts: [] };
        const abort = !this.#aborting && this.#captured?.toolCallId === message.toolCallId;
        if (abort) this.#aborting = true;
        return { message, abort };
      }
      case "result":
        return this.#settle(message);
      default:
        return { message };
    }
  }

  #settle(result) {
    const outcome = this.#outcome(result);
    if (outcome.value !== undefined) {
      const { error, errorCode, errorDetail, recoverable, stopReason, ...rest } = result;
      this.#reset();
      return { message: { ...rest, success: true, structuredOutput: outcome.value } };
    }
    // A turn that failed for its own reasons (interrupted, model error) is passed on as it is.
    if (outcome.reason === undefined) {
      this.#reset();
      return { message: result };
    }
    this.#attempts += 1;
    this.#reset();
    if (this.#attempts <= this.#format.maxRetries) {
      return { corrective: this.#corrective(outcome.reason) };
    }
    const { result: _text, structuredOutput: _value, ...rest } = result;
    return {
      message: {
        ...rest,
        success: false,
        error: ERROR_CODE,
        errorCode: ERROR_CODE,
        recoverable: false,
        stopReason: ERROR_CODE,
        errorDetail: `Structured output failed after ${this.#attempts} turns: ${outcome.reason}`,
      },
    };
  }

  /** `{value}` on success, `{reason}` when the answer is missing or invalid, `{}` to pass on. */
  #outcome(result) {
    if (this.mode === "portable") {
      if (this.#captured !== null) return { value: this.#captured.value };
      if (!result.success) return {};
      return {
        reason: this.#toolErrors === null ? "StructuredOutput was not called." : `StructuredOutput arguments were invalid: ${this.#toolErrors}`,
      };
    }
    if (!result.success) return {};
    const text = this.#text.parts.join("").trim();
    if (text === "") return { reason: "The final message has no text." };
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      return { reason: "The final message is not valid JSON." };
    }
    const errors = this.#errors(value);
    return errors === "" ? { value } : { reason: `The final message does not match the schema: ${errors}` };
  }

  #corrective(reason) {
    const ask =
      this.mode === "portable"
        ? PROMPT_SUFFIX
        : "Reply with only a JSON object that matches the required schema, with no other text.";
    return `Your previous answer did not produce the required structured output (${reason}). ${ask}`;
  }
}

/**
 * Validates `outputFormat` and sets up a session's structured turns (before its start):
 * registers the reserved `StructuredOutput` tool (portable mode needs it at start) in the
 * session's `options.tools` and `callbacks.executors`, and lets it run without an approval
 * (`options.autoAllowedTools`, decided by the core: other tools still go to the caller's
 * `canUseTool`, or without one get the reference's denial).
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
  options.autoAllowedTools.push(TOOL);
  return turns;
}
