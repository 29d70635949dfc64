// `new LettaAgentClient(options)`: remote (a Letta Code app server over WebSocket) or Cloud
// options, the WebSocket constructor shapes, and the Cloud-only computers and repositories.

/** The socket the client drives (browser `WebSocket`, the `ws` package, React Native's). */
export interface LettaCodeSocketLike {
  /** `1` when open. */
  readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener?(type: string, listener: (event: unknown) => void): void;
  removeEventListener?(type: string, listener: (event: unknown) => void): void;
  on?(type: string, listener: (event: unknown) => void): unknown;
  off?(type: string, listener: (event: unknown) => void): unknown;
}

/** The second constructor argument; only given (with `Authorization`) when there is a token. */
export interface LettaCodeSocketOptions {
  headers?: Record<string, string>;
}

/**
 * A WebSocket constructor called as `new WebSocket(url, {headers})` (Node `ws` style); needed
 * for `authToken`. React Native: wrap its class with `createReactNativeWebSocketConstructor()`.
 */
export type LettaCodeSocketConstructor = new (url: string, options?: LettaCodeSocketOptions) => LettaCodeSocketLike;

/** A constructor that only takes the URL (e.g. the browser's `WebSocket`): enough without a token. */
export type LettaCodeUrlSocketConstructor = new (url: string) => LettaCodeSocketLike;

/** React Native's `WebSocket(url, protocols, {headers})`. */
export type LettaCodeReactNativeSocketConstructor = new (
  url: string,
  protocols?: string | string[] | null,
  options?: LettaCodeSocketOptions,
) => LettaCodeSocketLike;

export type LettaCodeBackend = "local" | "remote" | "cloud";

interface LettaCodeRemoteOptionsBase {
  backend: "remote";
  /** `ws:`/`wss:` (or `http:`/`https:`) URL of the app server; an empty path becomes `/ws`. */
  url: string;
  /**
   * Request and turn timeout (positive integer, ms). Without it requests time out after
   * 30 000 ms and turns never do.
   */
  requestTimeoutMs?: number;
  /** `pin_global` of created agents (default: `!hidden`). */
  pinGlobalAgent?: boolean;
}

/** Remote options with a bearer token: needs a constructor that can send headers. */
export interface LettaCodeRemoteTokenOptions extends LettaCodeRemoteOptionsBase {
  /** Sent only as `Authorization: Bearer <token>` on the upgrade (non-blank). */
  authToken?: string;
  WebSocket: LettaCodeSocketConstructor;
}

/** Remote options without a token: any constructor, or `globalThis.WebSocket` by default. */
export interface LettaCodeRemoteOpenOptions extends LettaCodeRemoteOptionsBase {
  authToken?: undefined;
  WebSocket?: LettaCodeSocketConstructor | LettaCodeUrlSocketConstructor;
}

/** `backend: "remote"`: a Letta Code app server. */
export type LettaCodeRemoteClientOptions = LettaCodeRemoteTokenOptions | LettaCodeRemoteOpenOptions;

/**
 * Where a Cloud session runs: a computer name, or `{name}`, `{id}` (environment record id),
 * `{connectionId}`, `{deviceId}`.
 */
export type ComputerSelector =
  | string
  | { name: string }
  | { id: string }
  | { connectionId: string }
  | { deviceId: string };

/** @deprecated Alias of {@link ComputerSelector}. */
export type LettaCodeEnvironment = ComputerSelector;

/** A GitHub repository cloned into a managed sandbox. */
export interface GitHubRepositoryRef {
  owner: string;
  repo: string;
  /** 40 hex digits. */
  commit?: string;
}

/** SDK-managed Cloud sandbox settings. */
export interface LettaCodeCloudSandboxOptions {
  sandboxClass?: "linux-vm" | "container";
  /** Integer 1–60 (default 5). */
  ttlMinutes?: number;
  readyTimeoutMs?: number;
  readyPollIntervalMs?: number;
  refreshIntervalMs?: number;
  /** At most 10. */
  githubRepositories?: readonly GitHubRepositoryRef[];
  /** Default `false`. */
  terminateOnClose?: boolean;
}

interface LettaCodeCloudOptionsBase {
  backend: "cloud";
  apiKey?: string;
  /** Default `https://api.letta.com`. */
  apiBaseUrl?: string;
  headers?: Record<string, string>;
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  WebSocket?: LettaCodeSocketConstructor;
  /** Default 120 000 for requests and turns. */
  requestTimeoutMs?: number;
  /** Browsers must use `"query"`. Default `"header"`. */
  webSocketAuth?: "header" | "query";
  /** Default 30 000. */
  pingIntervalMs?: number;
}

/**
 * `backend: "cloud"` (Letta Cloud): sessions run on the client's `computer`, else on a managed
 * sandbox per session (`sandbox`). The key is `apiKey`, else `LETTA_API_KEY` in Node.
 */
export type LettaCodeCloudClientOptions =
  | (LettaCodeCloudOptionsBase & { computer?: ComputerSelector; environment?: undefined; sandbox?: undefined })
  /** @deprecated `environment` is the old name of `computer`. */
  | (LettaCodeCloudOptionsBase & { environment?: ComputerSelector; computer?: undefined; sandbox?: undefined })
  | (LettaCodeCloudOptionsBase & { sandbox?: LettaCodeCloudSandboxOptions; computer?: undefined; environment?: undefined });

/** What `new LettaAgentClient()` accepts. */
export type PortableLettaAgentClientOptions = LettaCodeRemoteClientOptions | LettaCodeCloudClientOptions;

/** Alias of {@link PortableLettaAgentClientOptions}. */
export type LettaAgentClientOptions = PortableLettaAgentClientOptions;

export interface ComputerMetadata {
  os?: string;
  lettaCodeVersion?: string;
  nodeVersion?: string;
  workingDirectory?: string;
  gitBranch?: string;
  [key: string]: unknown;
}

/** A registered Cloud computer. */
export interface Computer {
  /** Environment record id. */
  id: string;
  /** Stable across reconnects. */
  deviceId: string;
  /** Current connection lease (`null` when offline). */
  connectionId: string | null;
  name: string;
  status: "online" | "offline";
  connectedAt: number | null;
  lastSeenAt: number;
  metadata?: ComputerMetadata;
}

export interface ListComputersOptions {
  limit?: number;
  after?: string;
  onlineOnly?: boolean;
}

export interface ListComputersResult {
  computers: Computer[];
  hasNextPage: boolean;
}

export interface ResolvedComputer {
  connectionId: string;
  /** Absent when the selector was a `connectionId`. */
  computer?: Computer;
}

/** `client.computers` (Cloud only). */
export interface ComputersClient {
  list(options?: ListComputersOptions): Promise<ListComputersResult>;
  get(deviceId: string): Promise<Computer>;
  resolve(selector: ComputerSelector): Promise<ResolvedComputer>;
}

/** A Cloud repository attached to a session (`resources` option). */
export interface RepositoryResource {
  type: "repository";
  repositoryId: string;
  /** Recompile the system prompt after attaching (default `true`). */
  recompile?: boolean;
}

export interface Repository {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface CreateRepositoryParams {
  name: string;
}

export interface ListRepositoriesParams {
  limit?: number;
  offset?: number;
}

export interface ListRepositoriesResult {
  repositories: Repository[];
  hasNextPage: boolean;
}

export interface RepositoryFileEntry {
  path: string;
  type: "file" | "directory";
}

export interface ListRepositoryFilesParams {
  pathPrefix?: string;
  depth?: number;
  ref?: string;
}

export interface ListRepositoryFilesResult {
  files: RepositoryFileEntry[];
  ref: string;
}

export interface CreateRepositoryFileParams {
  path: string;
  content: string;
}

export interface ReadRepositoryFileParams {
  path: string;
  ref?: string;
}

export interface RepositoryFile {
  path: string;
  content: string;
  contentSha256: string;
  ref?: string;
}

export interface UpdateRepositoryFileParams {
  path: string;
  content?: string;
  newPath?: string;
  precondition?: { contentSha256: string };
}

export interface RepositoryFileMutationResult {
  path: string;
  contentSha256: string;
  commitSha: string;
}

export interface DeleteRepositoryFileParams {
  path: string;
}

export interface DeleteRepositoryFileResult {
  success: boolean;
  commitSha: string;
}

export interface RepositoryVersion {
  sha: string;
  message: string;
  timestamp: string;
  author_name: string | null;
}

export interface ListRepositoryVersionsParams {
  path?: string;
  limit?: number;
}

export interface GetRepositoryVersionParams {
  path: string;
}

/**
 * Letta Cloud repositories: use `client.repositories` of a Cloud client. Exported for source
 * compatibility; constructing it directly throws `LettaUnsupportedError`.
 */
export declare class RepositoriesClient {
  constructor(options: LettaCodeCloudClientOptions);
  create(params: CreateRepositoryParams): Promise<Repository>;
  list(params?: ListRepositoriesParams): Promise<ListRepositoriesResult>;
  get(repositoryId: string): Promise<Repository>;
  delete(repositoryId: string): Promise<void>;
  readonly files: {
    list(repositoryId: string, params?: ListRepositoryFilesParams): Promise<ListRepositoryFilesResult>;
    create(repositoryId: string, params: CreateRepositoryFileParams): Promise<RepositoryFileMutationResult>;
    read(repositoryId: string, params: ReadRepositoryFileParams): Promise<RepositoryFile>;
    update(repositoryId: string, params: UpdateRepositoryFileParams): Promise<RepositoryFileMutationResult>;
    delete(repositoryId: string, params: DeleteRepositoryFileParams): Promise<DeleteRepositoryFileResult>;
  };
  readonly versions: {
    list(repositoryId: string, params?: ListRepositoryVersionsParams): Promise<RepositoryVersion[]>;
    get(repositoryId: string, sha: string, params: GetRepositoryVersionParams): Promise<RepositoryFile>;
  };
}
