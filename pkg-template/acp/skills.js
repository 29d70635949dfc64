// Skills in the `/` menu, as letta-acp lists them: the skills bundled with the installed Letta
// Code CLI (LETTA_CODE_BIN, else `letta` on PATH), the user's (~/.letta/skills) and the
// project's (<cwd>/.claude/skills), plus those the app server reports for the session
// (`current_available_skills` of its device status). A skill is a directory holding SKILL.md
// with `name:` and `description:` front matter. Typing `/<skill> …` sends the text to the
// agent, whose harness treats it as invoking the skill.
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";

/** A command name an editor's `/` menu can offer. */
const SLUG = /^[a-z0-9][a-z0-9._-]*$/i;
const MAX_DESCRIPTION = 160;

/** The `skills/` directory of the installed Letta Code package, `undefined` when not found. */
export function bundledSkillsDir(env = process.env) {
  let bin = env.LETTA_CODE_BIN;
  if (!bin) {
    for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
      if (existsSync(join(dir, "letta"))) {
        bin = join(dir, "letta");
        break;
      }
    }
  }
  if (!bin) return undefined;
  try {
    // `letta` is a symlink to …/@letta-ai/letta-code/letta.js; the skills sit beside it.
    const dir = join(dirname(realpathSync(bin)), "skills");
    return statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** `{name, description}` from a SKILL.md's front matter, `undefined` without a name. */
function readSkill(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const front = text.match(/^---\r?\n([\s\S]*?)\r?\n---/)?.[1] ?? "";
  const name = front.match(/^name:\s*(.+)$/m)?.[1]?.trim().replace(/^["']|["']$/g, "");
  if (!name) return undefined;
  const description = front.match(/^description:\s*(.+)$/m)?.[1]?.trim().replace(/^["']|["']$/g, "");
  return { name, description };
}

const shortened = (text, name) => {
  const value = text || `Invoke the ${name} skill`;
  return value.length > MAX_DESCRIPTION ? `${value.slice(0, MAX_DESCRIPTION - 1)}…` : value;
};

/** The skills of one root directory (each sub-directory with a SKILL.md). */
function skillsIn(root) {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const found = [];
  for (const entry of entries) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const skill = readSkill(join(root, entry.name, "SKILL.md"));
    if (!skill) continue;
    // The menu needs a typable name: fall back to the directory's when the front matter's is not.
    const name = SLUG.test(skill.name) ? skill.name : entry.name;
    if (SLUG.test(name)) found.push({ name, description: shortened(skill.description, name) });
  }
  return found;
}

/**
 * The skills of a session in `cwd`, sorted by name, each once (the project's win over the
 * user's, which win over the bundled and the server's). `serverSkills`: the device status's
 * `current_available_skills` (anything else counts as none).
 * @param {string} cwd
 * @param {{env?: NodeJS.ProcessEnv, serverSkills?: unknown}} [options]
 * @returns {{name: string, description: string}[]}
 */
export function discoverSkills(cwd, { env = process.env, serverSkills = [] } = {}) {
  const byName = new Map();
  const add = (skill) => byName.set(skill.name, skill);
  for (const s of Array.isArray(serverSkills) ? serverSkills : []) if (typeof s?.name === "string" && SLUG.test(s.name)) add({ name: s.name, description: shortened(s.description, s.name) });
  const bundled = bundledSkillsDir(env);
  if (bundled) skillsIn(bundled).forEach(add);
  skillsIn(join(env.HOME || homedir(), ".letta", "skills")).forEach(add);
  if (cwd) skillsIn(join(cwd, ".claude", "skills")).forEach(add);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
