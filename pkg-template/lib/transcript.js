// createTranscriptAccumulator() and extractStreamTextDelta(): the transcript logic lives in
// Rust; this wrapper keeps the snapshot contract of the reference SDK in JavaScript:
//  - a call that changes nothing returns the very same array object;
//  - a written row is a new object; untouched rows keep their identity across snapshots;
//  - arrays and row objects handed out earlier are never mutated.
// Rust answers each call with a JSON patch that lists only the rows written since the last
// snapshot (and, after a reorder, where every row came from).

import { TranscriptCore, extractStreamTextDelta as extractJson } from "../wasm/letta_agent_wasm.js";
import { assertReady } from "./runtime.js";

const disposeSymbol = Symbol.dispose ?? Symbol.for("Symbol.dispose");
const ORDER_CODES = { asc: 1, desc: 2 };

function toJson(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // cycles, BigInt: not a message we can read
  }
}

/** Creates an accumulator that folds SDK messages and history pages into transcript rows. */
export function createTranscriptAccumulator() {
  assertReady();
  let core = new TranscriptCore();
  let snapshot = [];

  function applyPatch(patch) {
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
    snapshot = next;
    return snapshot;
  }

  function live() {
    if (core === null) {
      const error = new Error("This transcript accumulator was freed.");
      error.name = "LettaClosedError";
      error.code = "closed";
      throw error;
    }
    return core;
  }

  return {
    /** Folds one streamed SDK message; returns the current rows. */
    apply(message) {
      if (message === null || typeof message !== "object") return snapshot;
      const json = toJson(message);
      return json === undefined ? snapshot : applyPatch(live().apply(json));
    },
    /** Folds a batch of messages and takes one snapshot (e.g. once per animation frame). */
    applyMany(messages) {
      if (!Array.isArray(messages) || messages.length === 0) return snapshot;
      const json = toJson(messages);
      if (json !== undefined) return applyPatch(live().applyMany(json));
      for (const message of messages) this.apply(message); // one unreadable element: go one by one
      return snapshot;
    },
    /** Merges a history page (`{messages}` or an array), oldest first; safe mid-stream. */
    rebase(page, options) {
      if (page === null || typeof page !== "object") return snapshot;
      const json = toJson(page);
      if (json === undefined) return snapshot;
      const order = ORDER_CODES[options?.order] ?? 0;
      return applyPatch(live().rebase(json, order));
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
  assertReady();
  const json = toJson(event);
  return json === undefined ? null : JSON.parse(extractJson(json));
}
