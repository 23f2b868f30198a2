import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { LocalForge } from "../../src/adapters/local-forge/local-forge.js";
import { isLoreError } from "../../src/core/errors/lore-error.js";
import { makeRepo } from "./make-repo.js";

/**
 * A small Gitea stand-in for tests: real HTTP on 127.0.0.1 speaking the shapes of the
 * Gitea REST API v1 that Lore uses (no Gitea server can run here; the README says so).
 * Backed by real bare git repositories in a temp folder, so shas are real git blob shas.
 *
 * Routes under `/api/v1`: `GET /user/repos` (page/limit, `X-Total-Count`, `Link`),
 * `GET|PATCH /repos/{o}/{r}`, `GET /repos/{o}/{r}/branches[/{branch}]`,
 * `GET /repos/{o}/{r}/raw/{path}?ref=`, `GET|POST|PUT /repos/{o}/{r}/contents/{path}`.
 * Token required (`Authorization: token <t>`), 401 otherwise.
 */
export interface FakeGitea {
  /** Server address, e.g. `http://127.0.0.1:41234` (no `/api/v1`). */
  url: string;
  /** The accepted token. */
  token: string;
  /** The token's user (owner of every repository). */
  user: string;
  /** Folder of the bare repositories (`<name>.git`). */
  root: string;
  /** Behaviour knobs, changeable between requests. */
  knobs: FakeGiteaKnobs;
  /** Every request answered: method, decoded path (no `/api/v1`), query, status. */
  requests: { method: string; path: string; query: Record<string, string>; status: number }[];
  /** Adds a repository holding `files` on `branch` (default `main`); no files = an empty repository. */
  addRepo(
    name: string,
    files: Record<string, string>,
    options?: { branch?: string },
  ): Promise<void>;
  /** Answers `status` (e.g. 500) to the next `times` (default 1, `Infinity` = always) requests whose decoded path includes `pathIncludes`. */
  failWith(
    status: number,
    pathIncludes: string,
    options?: { method?: string; times?: number },
  ): void;
  /** Runs git in a repository's bare folder; returns stdout. */
  git(repo: string, args: string[], values?: string[]): Promise<string>;
  /** Stops the server and removes the repositories. */
  close(): Promise<void>;
}

/** Behaviour knobs of {@link FakeGitea}. */
export interface FakeGiteaKnobs {
  /** Files over this many bytes get no `content` from the contents API (case 2). Default: Infinity. */
  apiMaxBlobSize: number;
  /** What `content` is for such files: `null` or `""`. Default: `null`. */
  largeContent: null | "";
  /** Status of a PUT with a stale sha (Gitea answers 422 in some versions, 409 in others). Default: 409. */
  staleShaStatus: 409 | 422;
  /** When set, the first commit into an empty repository lands on this branch whatever was asked (case 4). */
  firstCommitBranch?: string;
  /** When false, `PATCH /repos/{o}/{r}` answers 403. Default: true. */
  allowEditRepo: boolean;
  /** Pagination headers of `/user/repos`: both, only `X-Total-Count`, or none. Default: both. */
  paginationHeaders: "both" | "total-only" | "none";
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? {} : JSON.parse(text);
}

/** Starts a {@link FakeGitea}. */
export async function startFakeGitea(
  options: { user?: string; knobs?: Partial<FakeGiteaKnobs> } = {},
): Promise<FakeGitea> {
  const root = await mkdtemp(join(tmpdir(), "lore-fake-gitea-"));
  const user = options.user ?? "alice";
  const token = randomBytes(12).toString("hex");
  const forge = new LocalForge({ root, author: { name: "Gitea", email: "gitea@localhost" } });
  const knobs: FakeGiteaKnobs = {
    apiMaxBlobSize: Number.POSITIVE_INFINITY,
    largeContent: null,
    staleShaStatus: 409,
    allowEditRepo: true,
    paginationHeaders: "both",
    ...options.knobs,
  };
  const failures: { status: number; pathIncludes: string; method?: string; times: number }[] = [];
  const requests: FakeGitea["requests"] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const git = async (
    repo: string,
    args: string[],
    values: string[] = [],
    okExitCodes: number[] = [],
  ) =>
    (await runGit({ cwd: join(root, `${repo}.git`), args, values, okExitCodes })).stdout
      .toString("utf8")
      .trim();
  const branchHead = async (repo: string, branch: string) =>
    (await git(
      repo,
      ["rev-parse", "--verify", "--quiet"],
      [`refs/heads/${branch}^{commit}`],
      [1],
    )) || null;
  const repoJson = async (name: string, defaultBranch: string) => ({
    id: name.length,
    name,
    full_name: `${user}/${name}`,
    owner: { login: user },
    default_branch: defaultBranch,
    empty: (await git(name, ["for-each-ref", "--count=1", "refs/heads"])) === "",
    private: true,
  });
  const contentsJson = (path: string, sha: string, content: string) => {
    const size = Buffer.byteLength(content);
    const large = size > knobs.apiMaxBlobSize;
    return {
      name: path.split("/").at(-1),
      path,
      sha,
      type: "file",
      size,
      encoding: large ? null : "base64",
      content: large ? knobs.largeContent : Buffer.from(content, "utf8").toString("base64"),
    };
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: Record<string, string>,
  ) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ method: req.method ?? "", path, query, status });
      const text = typeof body === "string" ? body : JSON.stringify(body);
      res.writeHead(status, {
        "Content-Type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json",
        ...headers,
      });
      res.end(text);
    };
    const auth = req.headers.authorization ?? "";
    if (auth !== `token ${token}` && auth !== `Bearer ${token}`)
      return send(401, { message: "token is required", url: "" });
    const failure = failures.find(
      (f) => path.includes(f.pathIncludes) && (f.method === undefined || f.method === req.method),
    );
    if (failure !== undefined) {
      if (--failure.times <= 0) failures.splice(failures.indexOf(failure), 1);
      return send(failure.status, { message: "fake failure", url: "" });
    }
    const method = req.method ?? "GET";
    if (method === "GET" && path === "/user")
      return send(200, { id: 1, login: user, full_name: user });
    if (method === "GET" && path === "/user/repos") {
      const limit = Math.min(50, Math.max(1, Number(query.limit ?? 30) || 30));
      const page = Math.max(1, Number(query.page ?? 1) || 1);
      const all = await forge.listUserRepos();
      const slice = all.slice((page - 1) * limit, page * limit);
      const headers: Record<string, string> = {};
      if (knobs.paginationHeaders !== "none") headers["X-Total-Count"] = String(all.length);
      const last = Math.max(1, Math.ceil(all.length / limit));
      if (knobs.paginationHeaders === "both") {
        const link = (p: number, rel: string) =>
          `<${base}/api/v1/user/repos?limit=${limit}&page=${p}>; rel="${rel}"`;
        const links = [];
        if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
        if (page > 1) links.push(link(1, "first"), link(page - 1, "prev"));
        headers.Link = links.join(",");
      }
      return send(
        200,
        await Promise.all(slice.map((r) => repoJson(r.name, r.default_branch))),
        headers,
      );
    }
    const m = /^\/repos\/([^/]+)\/([^/]+)(?:\/(branches|raw|contents)(?:\/(.*))?)?$/.exec(path);
    const repos = await forge.listUserRepos();
    const repo = m === null ? undefined : repos.find((r) => r.name === m[2]);
    if (m === null || repo === undefined || m[1] !== user)
      return send(404, { message: "The target couldn't be found.", url: "" });
    const [, , name, kind, rest] = m as unknown as [
      string,
      string,
      string,
      string | undefined,
      string | undefined,
    ];
    if (kind === undefined) {
      if (method === "GET") return send(200, await repoJson(name, repo.default_branch));
      if (method === "PATCH") {
        if (!knobs.allowEditRepo) return send(403, { message: "forbidden", url: "" });
        const body = (await readBody(req)) as { default_branch?: string };
        if (body.default_branch !== undefined)
          await git(name, ["symbolic-ref", "HEAD"], [`refs/heads/${body.default_branch}`]);
        return send(200, await repoJson(name, body.default_branch ?? repo.default_branch));
      }
    }
    if (kind === "branches" && method === "GET") {
      if (rest === undefined || rest === "") {
        const names = (await git(name, ["for-each-ref", "--format=%(refname:short)", "refs/heads"]))
          .split("\n")
          .filter(Boolean);
        return send(
          200,
          await Promise.all(
            names.map(async (b) => ({ name: b, commit: { id: await branchHead(name, b) } })),
          ),
        );
      }
      const head = await branchHead(name, rest);
      return head === null
        ? send(404, { message: "branch does not exist", url: "" })
        : send(200, { name: rest, commit: { id: head } });
    }
    const filePath = rest ?? "";
    if (kind === "raw" && method === "GET") {
      const text = await forge.getRawFile(user, name, filePath, query.ref).catch(() => null);
      return text === null
        ? send(404, { message: "object does not exist", url: "" })
        : send(200, text);
    }
    if (kind === "contents" && method === "GET") {
      const file = await forge.getFileWithSha(user, name, filePath, query.ref).catch(() => null);
      return file === null
        ? send(404, { message: "object does not exist", url: "" })
        : send(200, contentsJson(filePath, file.sha, file.content));
    }
    if (kind === "contents" && (method === "POST" || method === "PUT")) {
      const body = (await readBody(req)) as {
        content: string;
        message: string;
        branch?: string;
        new_branch?: string;
        sha?: string;
      };
      const content = Buffer.from(body.content, "base64").toString("utf8");
      const wasEmpty = (await repoJson(name, repo.default_branch)).empty;
      let branch = body.new_branch ?? body.branch ?? repo.default_branch;
      if (wasEmpty && knobs.firstCommitBranch !== undefined) branch = knobs.firstCommitBranch;
      else if (body.new_branch !== undefined && (await branchHead(name, body.new_branch)) !== null)
        return send(422, { message: `branch already exists [name: ${body.new_branch}]`, url: "" });
      else if (
        body.new_branch === undefined &&
        !wasEmpty &&
        (await branchHead(name, branch)) === null
      )
        return send(404, { message: `branch does not exist [name: ${branch}]`, url: "" });
      if (method === "PUT") {
        // With new_branch the file is compared on the base branch, as Gitea does.
        const readFrom =
          body.new_branch === undefined ? branch : (body.branch ?? repo.default_branch);
        const current = await forge.getFileWithSha(user, name, filePath, readFrom);
        if (current === null) return send(404, { message: "file does not exist", url: "" });
        if (current.sha !== body.sha)
          return send(knobs.staleShaStatus, {
            message: `sha does not match [given: ${body.sha}, expected: ${current.sha}]`,
            url: "",
          });
      }
      try {
        const made = await forge.commitFile({
          owner: user,
          repo: name,
          path: filePath,
          content,
          message: body.message,
          branch,
          ...(method === "PUT" ? { sha: body.sha as string } : {}),
        });
        return send(method === "POST" ? 201 : 200, {
          content: contentsJson(filePath, made.sha, content),
          commit: { sha: made.commit },
        });
      } catch (error) {
        if (isLoreError(error) && error.code === "forge_conflict")
          return send(422, {
            message: `repository file already exists [path: ${filePath}]`,
            url: "",
          });
        throw error;
      }
    }
    return send(405, { message: "method not allowed", url: "" });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname
      .replace(/^\/api\/v1/, "")
      .split("/")
      .map((s) => decodeURIComponent(s))
      .join("/");
    const query = Object.fromEntries(url.searchParams);
    handle(req, res, path, query).catch((error: unknown) => {
      requests.push({ method: req.method ?? "", path, query, status: 500 });
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    token,
    user,
    root,
    knobs,
    requests,
    async addRepo(name, files, opts = {}) {
      const branch = opts.branch ?? "main";
      const dir = join(root, `${name}.git`);
      if (Object.keys(files).length === 0) {
        await mkdir(dir);
        await runGit({ cwd: dir, args: ["init", "-q", "--bare", "-b", branch] });
        return;
      }
      const work = await makeRepo(files, { branch });
      cleanups.push(work.cleanup);
      await runGit({ cwd: root, args: ["clone", "-q", "--bare"], paths: [work.dir, dir] });
    },
    failWith(status, pathIncludes, opts = {}) {
      failures.push({
        status,
        pathIncludes,
        times: opts.times ?? 1,
        ...(opts.method === undefined ? {} : { method: opts.method }),
      });
    },
    git: (repo, args, values) => git(repo, args, values),
    async close() {
      await new Promise<void>((done) => server.close(() => done()));
      for (const cleanup of cleanups) await cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}
