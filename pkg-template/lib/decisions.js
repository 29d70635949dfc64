// `client.alpha.decisions.evaluate(params, {signal, timeoutMs})`: Letta Cloud's experimental
// classifier (`POST /v1/alpha/decisions`; no stability guarantee). It answers questions about
// the evidence in `state` without an agent or a sandbox. Part of the Cloud chunk (cloud.js).
//
// The request and the response are checked strictly, with the reference SDK's texts: what JSON
// cannot carry (cycles, `undefined`, holes, non-finite numbers) is refused before anything is
// sent, and an answer that does not fit its question is refused, never passed on. The checks
// are JavaScript's own: they look at JavaScript values, which cannot cross into Rust as they
// are. Rust sends the request (`CloudClient.decisionsEvaluate`: the client's key and headers,
// no retries); the timeout and the caller's `signal` abort it here.

import { LettaConnectionError, LettaInvalidArgumentError, LettaRequestError, LettaTimeoutError } from "./errors.js";
import { isObject } from "./values.js";

const DEFAULT_MODEL = "~typesafe/jev-latest";
const DEFAULT_TIMEOUT_MS = 40_000;
const MODEL = /^typesafe\/jev-[a-zA-Z0-9][a-zA-Z0-9.-]*$/;

const invalid = (detail) => new LettaInvalidArgumentError(`Invalid decision request: ${detail}.`);
const malformed = (detail) => new LettaRequestError(`Decisions API returned an invalid response: ${detail}.`);
const isNumberIn = (value, min, max) => typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;

/** Throws unless `value` is what `JSON.stringify` writes back unchanged (`what` names it). */
function checkJson(value, what, ancestors = new Set()) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw invalid(`${what} contains a non-finite number`);
    return;
  }
  if (typeof value !== "object") throw invalid(`${what} contains a value that JSON would omit`);
  if (ancestors.has(value)) throw invalid(`${what} contains a cycle`);
  ancestors.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!Object.hasOwn(value, i) || value[i] === undefined) throw invalid(`${what} contains an array value that JSON would replace`);
      checkJson(value[i], what, ancestors);
    }
  } else {
    for (const entry of Object.values(value)) {
      if (entry === undefined) throw invalid(`${what} contains a value that JSON would omit`);
      checkJson(entry, what, ancestors);
    }
  }
  ancestors.delete(value);
}

function checkQuestion(name, question) {
  if (!isObject(question) || typeof question.instructions !== "string") {
    throw invalid(`question "${name}" must have string instructions`);
  }
  if (question.type === "choice") {
    if (!isObject(question.criteria)) throw invalid(`choice question "${name}" must have a criteria object`);
    const count = Object.keys(question.criteria).length;
    if (count < 1 || count > 255) throw invalid(`choice question "${name}" must have 1 to 255 criteria`);
    if (!Object.values(question.criteria).every((text) => typeof text === "string")) {
      throw invalid(`choice question "${name}" criteria must be strings`);
    }
  } else if (question.type === "score") {
    const { criteria } = question;
    if (!Array.isArray(criteria) || criteria.length < 1 || !criteria.every((text) => typeof text === "string")) {
      throw invalid(`score question "${name}" must have a non-empty string criteria array`);
    }
  } else if (question.type !== "noul") {
    throw invalid(`question "${name}" has an unsupported type`);
  } else if (Object.hasOwn(question, "criteria")) {
    throw invalid(`noul question "${name}" must not have criteria`);
  }
}

/** The checked request body (wire names) and timeout of `evaluate(params, options)`. */
export function decisionRequest(params, options) {
  if (!isObject(params)) throw invalid("params must be an object");
  const { state, questions, sessionId, trace, user, provider } = params;
  if (!(typeof state === "string" || isObject(state) || Array.isArray(state))) {
    throw invalid("state must be a string, object, or array");
  }
  checkJson(state, "state");
  if (!isObject(questions) || Object.keys(questions).length === 0) throw invalid("questions must be a non-empty object");
  for (const [name, question] of Object.entries(questions)) checkQuestion(name, question);
  const model = params.model ?? DEFAULT_MODEL;
  if (model !== DEFAULT_MODEL && !(typeof model === "string" && MODEL.test(model))) {
    throw invalid("model must be a supported typesafe/jev identifier");
  }
  if (sessionId !== undefined && (typeof sessionId !== "string" || sessionId.length > 256)) {
    throw invalid("sessionId must be a string of at most 256 characters");
  }
  if (trace !== undefined) {
    if (!isObject(trace)) throw invalid("trace must be an object");
    checkJson(trace, "state");
  }
  if (user !== undefined && typeof user !== "string") throw invalid("user must be a string");
  if (provider !== undefined && (!isObject(provider) || (provider.allowFallbacks !== undefined && typeof provider.allowFallbacks !== "boolean"))) {
    throw invalid("provider.allowFallbacks must be a boolean");
  }
  const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw invalid("timeoutMs must be a positive finite number");
  }
  const body = { state, questions, model };
  if (sessionId !== undefined) body.session_id = sessionId;
  if (trace !== undefined) body.trace = trace;
  if (user !== undefined) body.user = user;
  if (provider !== undefined) body.provider = { allow_fallbacks: provider.allowFallbacks };
  return { body, timeoutMs };
}

/** Throws unless `map` gives a probability in [0, 1] to some of `keys` only. */
function checkProbabilities(map, keys, what) {
  if (!isObject(map)) throw malformed(`${what} must be an object`);
  for (const [key, probability] of Object.entries(map)) {
    if (!keys.has(key) || !isNumberIn(probability, 0, 1)) throw malformed(`${what} contains an invalid entry`);
  }
}

/** The answer to `question`, checked (the members the reference passes on). */
function answerTo(question, answer) {
  if (!isObject(answer) || answer.type !== question.type) throw malformed("an answer has the wrong variant");
  if (question.type === "noul") {
    if (!isNumberIn(answer.noul, 0, 1)) throw malformed("noul must be between 0 and 1");
    return { type: "noul", noul: answer.noul };
  }
  const { probabilities, confidence } = answer;
  if (question.type === "choice") {
    const choices = new Set(Object.keys(question.criteria));
    if (typeof answer.choice !== "string" || !choices.has(answer.choice)) {
      throw malformed("a choice answer selected an unknown criterion");
    }
    checkProbabilities(probabilities, choices, "choice probabilities");
    if (!isNumberIn(confidence, 0, 1)) throw malformed("choice confidence must be between 0 and 1");
    return { type: "choice", choice: answer.choice, probabilities, confidence };
  }
  const scale = question.criteria;
  if (!isNumberIn(answer.score, 0, scale.length - 1)) throw malformed("score is outside the requested scale");
  if (!isObject(answer.legend) || Object.keys(answer.legend).length === 0) {
    throw malformed("score legend must be a non-empty object");
  }
  for (const [key, label] of Object.entries(answer.legend)) {
    const index = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : -1;
    if (!(index >= 0 && index < scale.length) || label !== scale[index]) {
      throw malformed("score legend contains an invalid scale entry");
    }
  }
  checkProbabilities(probabilities, new Set(scale.map((_, i) => String(i))), "score probabilities");
  if (!isNumberIn(confidence, 0, 1)) throw malformed("score confidence must be between 0 and 1");
  return { type: "score", score: answer.score, legend: answer.legend, probabilities, confidence };
}

/**
 * The checked result of a response body to `questions` (each answer fits its question, so it
 * is the declared `DecisionResult<Q>` of those questions).
 * @returns {any}
 */
export function decisionResult(value, questions) {
  if (!isObject(value)) throw malformed("body must be an object");
  const { id, model, provider, answers, usage } = value;
  if (![id, model, provider].every((text) => typeof text === "string" && text.length > 0)) {
    throw malformed("id, model, and provider must be non-empty strings");
  }
  if (!isObject(answers)) throw malformed("answers must be an object");
  const names = Object.keys(questions);
  if (Object.keys(answers).length !== names.length || !names.every((name) => Object.hasOwn(answers, name))) {
    throw malformed("answer keys do not match the requested questions");
  }
  const checked = Object.fromEntries(names.map((name) => [name, answerTo(questions[name], answers[name])]));
  if (!isObject(usage)) throw malformed("usage must be an object");
  const { input_tokens: inputTokens, output_tokens: outputTokens, cost } = usage;
  const count = (n) => Number.isInteger(n) && n >= 0;
  if (!count(inputTokens) || !count(outputTokens) || !isNumberIn(cost, 0, Infinity)) throw malformed("usage is invalid");
  return { id, model, provider, answers: checked, usage: { inputTokens, outputTokens, cost } };
}

/**
 * `evaluate(params, {signal, timeoutMs})` on the Rust `CloudClient` `client`: the checked
 * request, sent once; rejects with `LettaTimeoutError` after `timeoutMs` (default 40 s) and
 * with `LettaConnectionError` when `signal` aborts.
 */
export async function evaluateDecision(client, params, options) {
  const { body, timeoutMs } = decisionRequest(params, options);
  const signal = options?.signal;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const abort = () => controller.abort();
  if (signal?.aborted) abort();
  signal?.addEventListener?.("abort", abort, { once: true });
  let text;
  try {
    text = await client.decisionsEvaluate(JSON.stringify(body), controller.signal);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    throw timedOut
      ? new LettaTimeoutError("Request timed out.", { cause: error })
      : new LettaConnectionError("Request was aborted.", { cause: signal?.reason });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener?.("abort", abort);
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed("body must be an object");
  }
  return decisionResult(value, params.questions);
}
