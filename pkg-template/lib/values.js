// Value checks and helpers shared by the wrapper modules.

/** A non-null object that is not an array. */
export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** A string with something besides whitespace. */
export const isNonEmptyString = (value) => typeof value === "string" && value.trim() !== "";

/** Absent/null → `undefined`; a positive safe integer → it; anything else → `null` (invalid). */
export function positiveInteger(value) {
  if (value == null) return undefined;
  return Number.isSafeInteger(value) && value >= 1 ? value : null;
}

/** `JSON.parse`, passing `undefined` through. */
export const parse = (json) => (json === undefined ? undefined : JSON.parse(json));

/** `Symbol.asyncDispose`, or its registered stand-in where the engine lacks it. @type {typeof Symbol.asyncDispose} */
export const asyncDisposeSymbol = /** @type {any} */ (Symbol.asyncDispose ?? Symbol.for("Symbol.asyncDispose"));
