// Small text helpers of the page.

/** A random id (the otid of a sent message, keys of page-side rows). */
export function randomId() {
  if (globalThis.crypto?.randomUUID) return `demo-${crypto.randomUUID()}`;
  return `demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** History carries `<system-reminder>` parts inside user messages; the user never typed them. */
export function withoutSystemReminders(text) {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
}

/** The models served by scripts/offline-model.mjs. */
export function isOfflineModel(handle) {
  return typeof handle === "string" && /(^|\/)offline-demo(-2|-slow)?$/.test(handle);
}

/** What a tool call does, in one line: the shell command when there is one. */
export function toolSummary(row) {
  const command = row.toolInput?.command;
  if (typeof command === "string") return command;
  if (Array.isArray(command)) return command.join(" ");
  if (row.argumentsComplete) return JSON.stringify(row.toolInput);
  return row.rawArguments ?? "";
}
