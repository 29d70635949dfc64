// createTranscriptAccumulator() and extractStreamTextDelta(): the transcript logic lives in
// Rust; this wrapper keeps the snapshot contract of the reference SDK in JavaScript:
//  - a call that changes nothing returns the very same array object;
//  - a written row is a new object; untouched rows keep their identity across snapshots;
//  - arrays and row objects handed out earlier are never mutated.
// Rust answers each call with a JSON patch that lists only the rows written since the last
// snapshot (and, after a reorder, where every row came from).

import { wasm } from "./runtime.js";
import { closedError } from "./errors.js";
import { isObject } from "./values.js";

const disposeSymbol = Symbol.dispose ?? Symbol.for("Symbol.dispose");

function toJson(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // cycles, BigInt: not a message we can read
  }
}

// The common streamed fragment goes through typed arguments instead of JSON. Only messages
// whose fields all have the expected types take this path; anything else goes through JSON
// and is validated by Rust, so both paths give the same result.
const TEXT_KINDS = { assistant: "Assistant", reasoning: "Reasoning" };
/** The `TextFragment` enum of the bindings, read on first use. */
/** @type {any} */
let textFragment = null;
const optionalString = (v) => v === undefined || v === null || typeof v === "string";

/** The typed fast path applies to this message: a text fragment with well-typed fields. */
function isTextFragment(message) {
  return (
    TEXT_KINDS[message.type] !== undefined &&
    typeof message.content === "string" &&
    optionalString(message.uuid) &&
    optionalString(message.otid) &&
    optionalString(message.runId) &&
    (message.seqId == null || Number.isFinite(message.seqId))
  );
}

/**
 * Folds a text fragment in (see `apply_text` in src/js/transcript.rs); its identity crosses the
 * boundary only when it differs from the previous fragment's. `kind`: the `TextFragment` enum.
 */
function applyText(core, ids, message) {
  const uuid = message.uuid ?? undefined;
  const otid = message.otid ?? undefined;
  const runId = message.runId ?? undefined;
  textFragment ??= wasm().TextFragment;
  const kind = textFragment[TEXT_KINDS[message.type]];
  const seqId = message.seqId ?? undefined;
  if (uuid === ids.uuid && otid === ids.otid && runId === ids.runId) {
    return core.applyText(kind, message.content, seqId);
  }
  ids.uuid = uuid;
  ids.otid = otid;
  ids.runId = runId;
  return core.applyTextWithIds(kind, message.content, seqId, uuid, otid, runId);
}

/** Folds one message into the Rust core; true when rows changed. */
function fold(core, ids, message) {
  if (isTextFragment(message)) {
    return applyText(core, ids, message) !== -1;
  }
  if (
    message.type === "tool_call" &&
    typeof message.toolCallId === "string" &&
    optionalString(message.toolName) &&
    optionalString(message.rawArguments) &&
    optionalString(message.uuid) &&
    optionalString(message.runId) &&
    (message.toolInput == null || isObject(message.toolInput))
  ) {
    const input = message.toolInput == null ? undefined : toJson(message.toolInput);
    if (message.toolInput == null || input !== undefined) {
      const { toolCallId, toolName, rawArguments, uuid, runId } = message;
      return core.applyToolCall(toolCallId, toolName, rawArguments, input, uuid, runId);
    }
  }
  const json = toJson(message);
  return json !== undefined && core.applyMessage(json);
}

/**
 * A fragment appended to existing row `prev` without changing its identity: the new row is
 * `prev` with the text extended and the replay cursor raised, exactly as Rust computed it. Any
 * other case returns undefined and the wrapper takes the patch instead.
 */
function appended(prev, message) {
  if (prev === undefined || typeof prev.text !== "string") return undefined;
  if (message.otid && message.otid !== prev.otid) return undefined;
  if (message.runId != null && message.runId !== prev.runId) return undefined;
  const seqId = message.seqId == null ? prev.seqId : prev.seqId === undefined ? message.seqId : Math.max(prev.seqId, message.seqId);
  const row = { ...prev, text: prev.text + message.content };
  if (seqId !== undefined) row.seqId = seqId;
  return row;
}

/**
 * The rows after Rust's row `patch` (JSON, or undefined when nothing changed) of `snapshot`: a
 * new array with the written rows replaced; untouched rows keep their identity.
 */
export function applyPatch(snapshot, patch) {
  if (patch === undefined) return snapshot;
  const { len, moved, rows } = JSON.parse(patch);
  let next;
  if (moved === undefined) {
    next = snapshot.slice();
  } else {
    next = [];
    for (let i = 0; i < len; i++) next.push(moved[i] >= 0 ? snapshot[moved[i]] : undefined);
  }
  for (let i = 0; i < rows.length; i++) next[rows[i][0]] = rows[i][1];
  next.length = len;
  return next;
}

/** Creates an accumulator that folds SDK messages and history pages into transcript rows. */
export function createTranscriptAccumulator() {
  let core = new (wasm().TranscriptCore)();
  let snapshot = [];
  const ids = { uuid: undefined, otid: undefined, runId: undefined };

  function takeSnapshot() {
    snapshot = applyPatch(snapshot, core.takePatch());
    return snapshot;
  }

  function live() {
    if (core === null) throw closedError("This transcript accumulator was freed.");
    return core;
  }

  return {
    /** Folds one streamed SDK message; returns the current rows. */
    apply(message) {
      if (message === null || typeof message !== "object") return snapshot;
      const target = live();
      if (!isTextFragment(message)) return fold(target, ids, message) ? takeSnapshot() : snapshot;
      const at = applyText(target, ids, message);
      if (at === -1) return snapshot;
      const row = at >= 0 ? appended(snapshot[at], message) : undefined;
      if (row === undefined) return takeSnapshot();
      target.discardPatch();
      snapshot = snapshot.slice();
      snapshot[at] = row;
      return snapshot;
    },
    /** Folds a batch of messages and takes one snapshot (e.g. once per animation frame). */
    applyMany(messages) {
      if (!Array.isArray(messages)) return snapshot;
      const target = live();
      let changed = false;
      for (const message of messages) {
        if (message !== null && typeof message === "object" && fold(target, ids, message)) changed = true;
      }
      return changed ? takeSnapshot() : snapshot;
    },
    /** Merges a history page (`{messages}` or an array), oldest first; safe mid-stream. */
    rebase(page, options) {
      if (page === null || typeof page !== "object") return snapshot;
      const json = toJson(page);
      if (json === undefined) return snapshot;
      const order = options?.order === "asc" || options?.order === "desc" ? options.order : undefined;
      return live().rebase(json, order) ? takeSnapshot() : snapshot;
    },
    /** The current rows, in transcript order. */
    rows() {
      return snapshot;
    },
    /** Drops every row, alias and replay threshold. */
    reset() {
      live().reset();
      snapshot = [];
    },
    /** Releases the WebAssembly memory now (also done by a FinalizationRegistry later). */
    free() {
      if (core !== null) {
        core.free();
        core = null;
      }
    },
    [disposeSymbol]() {
      this.free();
    },
  };
}

/** Reads a token delta (`{kind, text}`) out of a raw stream event payload, or `null`. */
export function extractStreamTextDelta(event) {
  if (event === null || typeof event !== "object") return null;
  const json = toJson(event);
  return json === undefined ? null : JSON.parse(wasm().TranscriptCore.extractStreamTextDelta(json));
}
