// Whether a path is inside the session's working directory, by real paths: `..`, a sibling
// with the same prefix (`/work/app-secrets` beside `/work/app`) and symlinks pointing out do
// not count as inside. A file that does not exist yet (a new editor buffer) is judged by its
// nearest existing ancestor; a dangling symlink, a relative path or anything unresolvable is
// not inside.
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** `true` when `path` (absolute) really lies in `cwd`. */
export async function isInsideWorkspace(path, cwd) {
  if (typeof path !== "string" || !isAbsolute(path) || typeof cwd !== "string" || !cwd) return false;
  try {
    const [root, target] = await Promise.all([realpath(resolve(cwd)), realTarget(path)]);
    const rel = relative(root, target);
    return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  } catch {
    return false;
  }
}

/** The real path of `path`, resolving its nearest existing ancestor when it does not exist. */
async function realTarget(path) {
  let cursor = resolve(path);
  const missing = [];
  for (;;) {
    try {
      return resolve(await realpath(cursor), ...missing);
    } catch (caught) {
      const error = /** @type {NodeJS.ErrnoException} */ (caught);
      if (error?.code !== "ENOENT") throw error;
      // realpath says ENOENT for a dangling symlink too: its target is anywhere, so refuse.
      const stat = await lstat(cursor).catch((e) => (e?.code === "ENOENT" ? undefined : Promise.reject(e)));
      if (stat) throw error;
      const parent = dirname(cursor);
      if (parent === cursor) throw error;
      missing.unshift(basename(cursor));
      cursor = parent;
    }
  }
}
