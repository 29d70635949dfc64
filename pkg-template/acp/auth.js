// Authentication: the ACP auth methods of each backend and `authenticate`. The ACP registry lists
// only agents offering a method of type `agent` or `terminal`.
//   local   `letta-login` (terminal, when the client can run one: `auth.terminal`, or the older
//           `_meta["terminal-auth"]`): the client runs `letta-acp --login`, which runs the
//           installed Letta Code CLI's sign-in (`letta setup` in letta-code 0.32; there is no
//           `letta login` any more) in that terminal.
//   cloud   `letta-api-key` (env_var LETTA_API_KEY): the client starts letta-acp with the key.
//   remote  `letta-app-server-token` (env_var LETTA_APP_SERVER_TOKEN).
// `authenticate` with an env_var method checks the variable is set and the backend accepts it
// (a cheap management call); a terminal method is never passed to it (ACP forbids that).
import { spawn } from "node:child_process";
import { RequestError } from "@agentclientprotocol/sdk";
import { errorText } from "./log.js";

export const LOGIN_METHOD = "letta-login";
export const API_KEY_METHOD = "letta-api-key";
export const TOKEN_METHOD = "letta-app-server-token";

/** Whether the client runs terminal auth methods. */
const runsTerminalAuth = (capabilities) => capabilities?.auth?.terminal === true || capabilities?._meta?.["terminal-auth"] === true;

const ENV_METHODS = {
  cloud: {
    id: API_KEY_METHOD,
    name: "Letta API key",
    description: "Letta Cloud: letta-acp reads the key from LETTA_API_KEY",
    type: "env_var",
    vars: [{ name: "LETTA_API_KEY", label: "Letta API key", secret: true }],
    link: "https://platform.letta.com/api-keys",
  },
  remote: {
    id: TOKEN_METHOD,
    name: "App server token",
    description: "Your Letta Code app server's capability token (LETTA_APP_SERVER_TOKEN)",
    type: "env_var",
    vars: [{ name: "LETTA_APP_SERVER_TOKEN", label: "App server token", secret: true }],
  },
};

/** The auth methods of `initialize` for backend `kind`. */
export function authMethods(kind, capabilities) {
  if (kind === "local") {
    if (!runsTerminalAuth(capabilities)) return [];
    return [{ id: LOGIN_METHOD, name: "Sign in to Letta", description: "Runs the Letta Code CLI's sign-in in a terminal", type: "terminal", args: ["--login"] }];
  }
  return ENV_METHODS[kind] ? [ENV_METHODS[kind]] : [];
}

/**
 * `authenticate`: resolves `{}` when the method's credentials are there and the backend takes
 * them; otherwise rejects with a JSON-RPC error saying what to set. `backend` is the promise of
 * the connected backend. The credential itself never appears in a message.
 */
export async function authenticate(methodId, { kind, env, backend }) {
  const method = ENV_METHODS[kind];
  if (methodId === LOGIN_METHOD) {
    throw RequestError.invalidParams({ methodId }, `${LOGIN_METHOD} is a terminal method: the client runs \`letta-acp --login\` instead of calling authenticate`);
  }
  if (!method || method.id !== methodId) {
    throw RequestError.invalidParams({ methodId }, `unknown auth method "${methodId}" for the ${kind} backend`);
  }
  const variable = method.vars[0].name;
  if (!env[variable]) throw RequestError.authRequired({ methodId }, `${variable} is not set in letta-acp's environment`);
  try {
    const { client } = await backend;
    await client.agents.list({ limit: 1 });
  } catch (error) {
    throw RequestError.authRequired({ methodId }, `the ${kind} backend did not accept ${variable}: ${errorText(error)}`);
  }
  return {};
}

/**
 * `letta-acp --login`: runs the Letta Code CLI's interactive sign-in in this terminal (stdio
 * inherited). Resolves with the exit code (1 with a message when the CLI is not installed).
 */
export function runLogin(env = process.env) {
  const command = env.LETTA_CODE_BIN || "letta";
  const [file, args] = /\.[cm]?js$/.test(command) ? [process.execPath, [command, "setup"]] : [command, ["setup"]];
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: "inherit", env });
    child.once("error", (error) => {
      process.stderr.write(`letta-acp: could not run ${command}: ${error.message} (install Letta Code: npm install -g @letta-ai/letta-code, or set LETTA_CODE_BIN)\n`);
      resolve(1);
    });
    child.once("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}
