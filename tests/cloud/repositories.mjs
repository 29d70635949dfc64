// The stand-in's repositories (`client.repositories`, spec §4.2 RepositoriesClient), in memory:
// every write is a commit with a `commit_sha`; files carry `content_sha256`. Field names are
// snake_case as the API sends them (the client camel-cases them).
import { createHash, randomUUID } from "node:crypto";

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

class RouteError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** `{routes, get(id)}`: the `/v1/repositories` routes in the stand-in's route-table form. */
export function repositoryRoutes() {
  const repositories = new Map();

  function repository(id) {
    const repo = repositories.get(id);
    if (!repo) throw new RouteError(404, "Repository not found");
    return repo;
  }

  function commit(repo, message, files) {
    const commitSha = sha256(`${repo.id}:${repo.commits.length}:${message}:${randomUUID()}`).slice(0, 40);
    repo.commits.unshift({ commit_sha: commitSha, message, created_at: new Date().toISOString(), files: new Map(files) });
    repo.updated_at = new Date().toISOString();
    return commitSha;
  }

  const head = (repo) => repo.commits[0]?.files ?? new Map();
  const at = (repo, ref) => (ref ? repo.commits.find((c) => c.commit_sha === ref)?.files : head(repo)) ?? new Map();
  const view = ({ id, name, created_at, updated_at }) => ({ id, name, created_at, updated_at });

  function file(repo, path, ref) {
    const content = at(repo, ref).get(path);
    if (content === undefined) throw new RouteError(404, "File not found");
    return content;
  }

  const routes = [
    ["POST", /^\/v1\/repositories$/, ({ body }) => {
      if (typeof body.name !== "string" || body.name === "") throw new RouteError(422, "name is required");
      const now = new Date().toISOString();
      const repo = { id: `repo-${randomUUID().slice(0, 8)}`, name: body.name, created_at: now, updated_at: now, commits: [] };
      repositories.set(repo.id, repo);
      return view(repo);
    }],
    ["GET", /^\/v1\/repositories$/, ({ query }) => {
      const list = [...repositories.values()];
      const offset = Number(query.offset ?? 0);
      const limit = Number(query.limit ?? list.length);
      return { repositories: list.slice(offset, offset + limit).map(view), has_next_page: offset + limit < list.length };
    }],
    ["GET", /^\/v1\/repositories\/([^/]+)$/, ({ params }) => view(repository(params[0]))],
    ["DELETE", /^\/v1\/repositories\/([^/]+)$/, ({ params }) => {
      repository(params[0]);
      repositories.delete(params[0]);
      return { success: true };
    }],
    ["GET", /^\/v1\/repositories\/([^/]+)\/files$/, ({ params, query }) => {
      const repo = repository(params[0]);
      const prefix = query.path_prefix ?? "";
      const depth = query.depth ? Number(query.depth) : Infinity;
      const entries = new Map();
      for (const path of at(repo, query.ref).keys()) {
        if (!path.startsWith(prefix)) continue;
        const parts = path.slice(prefix.length).split("/");
        for (let i = 1; i <= Math.min(parts.length, depth); i++) {
          const entry = prefix + parts.slice(0, i).join("/");
          entries.set(entry, i === parts.length ? "file" : "directory");
        }
      }
      return { files: [...entries].map(([path, type]) => ({ path, type })), ref: query.ref ?? repo.commits[0]?.commit_sha ?? null };
    }],
    ["POST", /^\/v1\/repositories\/([^/]+)\/files$/, ({ params, body }) => {
      const repo = repository(params[0]);
      if (head(repo).has(body.path)) throw new RouteError(409, "File exists");
      const files = new Map(head(repo)).set(body.path, body.content ?? "");
      const commitSha = commit(repo, `create ${body.path}`, files);
      return { path: body.path, content_sha256: sha256(body.content ?? ""), commit_sha: commitSha };
    }],
    ["GET", /^\/v1\/repositories\/([^/]+)\/files\/content$/, ({ params, query }) => {
      const repo = repository(params[0]);
      const content = file(repo, query.path, query.ref);
      return { path: query.path, content, content_sha256: sha256(content), commit_sha: query.ref ?? repo.commits[0].commit_sha };
    }],
    ["POST", /^\/v1\/repositories\/([^/]+)\/files\/content$/, ({ params, body }) => {
      const repo = repository(params[0]);
      const current = file(repo, body.path);
      if (body.precondition && body.precondition.content_sha256 !== sha256(current)) {
        throw new RouteError(412, "Precondition failed: content_sha256 does not match");
      }
      const files = new Map(head(repo));
      const path = body.new_path ?? body.path;
      const content = body.content ?? current;
      files.delete(body.path);
      files.set(path, content);
      const commitSha = commit(repo, `update ${path}`, files);
      return { path, content_sha256: sha256(content), commit_sha: commitSha };
    }],
    ["DELETE", /^\/v1\/repositories\/([^/]+)\/files\/content$/, ({ params, query }) => {
      const repo = repository(params[0]);
      file(repo, query.path);
      const files = new Map(head(repo));
      files.delete(query.path);
      return { success: true, commit_sha: commit(repo, `delete ${query.path}`, files) };
    }],
    ["GET", /^\/v1\/repositories\/([^/]+)\/versions$/, ({ params, query }) => {
      const repo = repository(params[0]);
      const touched = repo.commits.filter((c, i) => !query.path || c.files.get(query.path) !== repo.commits[i + 1]?.files.get(query.path));
      const limit = query.limit ? Number(query.limit) : touched.length;
      return { commits: touched.slice(0, limit).map(({ commit_sha, message, created_at }) => ({ commit_sha, message, created_at })) };
    }],
    ["GET", /^\/v1\/repositories\/([^/]+)\/versions\/([^/]+)$/, ({ params, query }) => {
      const repo = repository(params[0]);
      const found = repo.commits.find((c) => c.commit_sha === params[1]);
      if (!found) throw new RouteError(404, "Version not found");
      const out = { commit_sha: found.commit_sha, message: found.message, created_at: found.created_at };
      if (query.path) out.content = file(repo, query.path, found.commit_sha);
      return out;
    }],
  ];
  return { routes, get: (id) => repositories.get(id) };
}
