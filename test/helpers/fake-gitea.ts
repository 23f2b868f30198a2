import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { LocalForge } from "../../src/adapters/local-forge/local-forge.js";
import { isLoreError } from "../../src/core/errors/lore-error.js";
import { commitFiles, type PlumbingChange } from "./fake-gitea-commit.js";
import { makeRepo } from "./make-repo.js";

/**
 * A small Gitea stand-in for tests: real HTTP on 127.0.0.1 speaking the shapes of the
 * Gitea REST API v1 that Lore uses (no Gitea server can run here; the README says so).
 * Backed by real bare git repositories in a temp folder, so shas are real git blob shas.
 *
 * Routes under `/api/v1`: `GET /user/repos` (page/limit, `X-Total-Count`, `Link`),
 * `GET|PATCH /repos/{o}/{r}`, `GET /repos/{o}/{r}/branches[/{branch}]`,
 * `GET /repos/{o}/{r}/raw/{path}?ref=`, `GET|POST|PUT /repos/{o}/{r}/contents/{path}`,
 * `POST /repos/{o}/{r}/contents` (ChangeFiles, Gitea 1.20+: every operation in ONE real
 * commit written with git plumbing), `GET /repos/{o}/{r}/git/trees/{sha}` (recursive,
 * page, per_page), `GET|POST /repos/{o}/{r}/pulls`, `GET /repos/{o}/{r}/pulls/{index}`,
 * `GET|POST /repos/{o}/{r}/labels`, `POST /repos/{o}/{r}/issues/{index}/labels`.
 * Branch protection ({@link FakeGitea.protectBranch}) refuses a ChangeFiles write into the
 * branch with 403 "user cannot commit to repo [user: …]", as Gitea does.
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
  /**
   * Protects a branch: ChangeFiles into it answers 403 and GET branch says `protected`
   * (and `user_can_push: false` unless `userCanPush`).
   */
  protectBranch(repo: string, branch: string, options?: { userCanPush?: boolean }): void;
  /** The pull requests of a repository, as stored (the API's shape). */
  pulls(repo: string): FakePullRequest[];
  /** Closes a pull request (`merged` marks it merged). */
  closePull(repo: string, index: number, options?: { merged?: boolean }): void;
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
  /** Runs inside ChangeFiles after the request is read and before anything is checked (a concurrent push). */
  beforeChangeFiles?: (repo: string) => Promise<void>;
  /** Tree entries per page of `git/trees` when `per_page` is not given (Gitea: 1000). */
  treePerPage: number;
}

/** A pull request as the fake stores and answers it (structs.PullRequest). */
export interface FakePullRequest {
  id: number;
  url: string;
  number: number;
  user: { id: number; login: string };
  title: string;
  body: string;
  labels: FakeLabel[];
  milestone: null;
  assignee: null;
  assignees: null;
  state: "open" | "closed";
  is_locked: boolean;
  comments: number;
  html_url: string;
  diff_url: string;
  patch_url: string;
  mergeable: boolean;
  merged: boolean;
  merged_at: string | null;
  merge_commit_sha: string | null;
  merged_by: null;
  allow_maintainer_edit: boolean;
  base: { label: string; ref: string; sha: string; repo_id: number; repo: unknown };
  head: { label: string; ref: string; sha: string; repo_id: number; repo: unknown };
  merge_base: string;
  due_date: null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

/** A label as the fake answers it (structs.Label: colour without `#`). */
export interface FakeLabel {
  id: number;
  name: string;
  exclusive: boolean;
  is_archived: boolean;
  color: string;
  description: string;
  url: string;
}

/** Body of ChangeFiles as the fake reads it (structs.ChangeFilesOptions). */
interface ChangeFilesBody {
  files?: { operation?: string; path: string; content?: string; sha?: string }[];
  branch?: string;
  new_branch?: string;
  message?: string;
  author?: { name: string; email: string };
  committer?: { name: string; email: string };
  dates?: { author?: string; committer?: string };
}

/** Body of a label's creation (structs.CreateLabelOption). */
interface LabelBody {
  name?: string;
  color?: string;
  description?: string;
  exclusive?: boolean;
}

/** The value of `key`, made by `make` and stored the first time. */
function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
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
    treePerPage: 1000,
    ...options.knobs,
  };
  const protections = new Map<string, { userCanPush: boolean }>();
  const pullsOf = new Map<string, FakePullRequest[]>();
  const labelsOf = new Map<string, FakeLabel[]>();
  /** Issues and pull requests share one index per repository, as in Gitea. */
  const issueLabels = new Map<string, Map<number, FakeLabel[]>>();
  let nextId = 1;
  const pullList = (repo: string) => getOrSet(pullsOf, repo, () => []);
  const labelList = (repo: string) => getOrSet(labelsOf, repo, () => []);
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

  const branchJson = async (repo: string, branch: string) => {
    const head = await branchHead(repo, branch);
    if (head === null) return null;
    const rule = protections.get(`${repo}\u0000${branch}`);
    const [message, timestamp] = (
      await git(repo, ["log", "-1", "--format=%B%x00%cI"], [head])
    ).split("\0");
    return {
      name: branch,
      commit: {
        id: head,
        message: `${(message ?? "").trim()}\n`,
        url: `${base}/${user}/${repo}/commit/${head}`,
        author: { name: "", email: "", username: "" },
        committer: { name: "", email: "", username: "" },
        verification: {
          verified: false,
          reason: "gpg.error.not_signed_commit",
          signature: "",
          signer: null,
          payload: "",
        },
        timestamp: timestamp ?? "",
        added: null,
        removed: null,
        modified: null,
      },
      protected: rule !== undefined,
      required_approvals: 0,
      enable_status_check: false,
      status_check_contexts: [],
      user_can_push: rule === undefined || rule.userCanPush,
      user_can_merge: true,
      effective_branch_protection_name: rule === undefined ? "" : branch,
    };
  };
  type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;
  const notFound = (send: Send) => send(404, { message: "The target couldn't be found.", url: "" });
  /** A page of `items` (Gitea: `page`, `limit` default 30, at most 50; X-Total-Count and Link). */
  const sendPage = (items: unknown[], query: Record<string, string>, path: string, send: Send) => {
    const limit = Math.min(50, Math.max(1, Number(query.limit ?? 30) || 30));
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    const last = Math.max(1, Math.ceil(items.length / limit));
    const extra = Object.entries(query)
      .filter(([k]) => k !== "page" && k !== "limit")
      .map(([k, v]) => `&${k}=${encodeURIComponent(v)}`)
      .join("");
    const link = (p: number, rel: string) =>
      `<${base}/api/v1${path}?limit=${limit}&page=${p}${extra}>; rel="${rel}"`;
    const links = [];
    if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
    if (page > 1) links.push(link(1, "first"), link(page - 1, "prev"));
    return send(200, items.slice((page - 1) * limit, page * limit), {
      "X-Total-Count": String(items.length),
      ...(links.length === 0 ? {} : { Link: links.join(",") }),
    });
  };
  const blobAt = async (repo: string, commit: string, path: string) => {
    const line = await git(repo, ["ls-tree", "-z", commit, "--"], [path]);
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t/.exec(line);
    return match !== null && match[2] === "blob" ? (match[3] as string) : null;
  };
  const changeFiles = async (
    repo: string,
    defaultBranch: string,
    body: ChangeFilesBody,
    send: Send,
  ) => {
    await knobs.beforeChangeFiles?.(repo);
    if (!Array.isArray(body.files) || body.files.length === 0)
      return send(422, { message: "[Files]: Required", url: "" });
    const oldBranch = body.branch || defaultBranch;
    const newBranch = body.new_branch || oldBranch;
    const parent = await branchHead(repo, oldBranch);
    if (parent === null)
      return send(404, { message: `branch does not exist [name: ${oldBranch}]`, url: "" });
    if (newBranch !== oldBranch) {
      if ((await branchHead(repo, newBranch)) !== null)
        return send(422, { message: `branch already exists [name: ${newBranch}]`, url: "" });
    } else if (
      protections.has(`${repo}\u0000${oldBranch}`) &&
      !protections.get(`${repo}\u0000${oldBranch}`)?.userCanPush
    )
      // Gitea: services/repository/files VerifyBranchProtection → ErrUserCannotCommit → 403.
      return send(403, { message: `user cannot commit to repo [user: ${user}]`, url: "" });
    const changes: PlumbingChange[] = [];
    for (const file of body.files) {
      const current = await blobAt(repo, parent, file.path);
      if (file.operation === "create" && current !== null)
        return send(422, {
          message: `repository file already exists [path: ${file.path}]`,
          url: "",
        });
      if ((file.operation === "update" || file.operation === "delete") && current === null)
        return send(404, {
          message: `repository file does not exist [path: ${file.path}]`,
          url: "",
        });
      if ((file.operation === "update" || file.operation === "delete") && current !== file.sha)
        return send(422, {
          message: `sha does not match [given: ${file.sha ?? ""}, expected: ${current}]`,
          url: "",
        });
      if (file.operation === "delete") changes.push({ path: file.path, delete: true });
      else if (file.operation === "create" || file.operation === "update")
        changes.push({
          path: file.path,
          content: Buffer.from(file.content ?? "", "base64").toString("utf8"),
        });
      else return send(422, { message: `unknown operation [${String(file.operation)}]`, url: "" });
    }
    const author = body.author ??
      body.committer ?? { name: user, email: `${user}@noreply.localhost` };
    const committer = body.committer ?? author;
    const now = Date.now();
    const dateOf = (iso: string | undefined) => (iso === undefined ? now : Date.parse(iso));
    const commit = await commitFiles({
      gitDir: join(root, `${repo}.git`),
      ref: `refs/heads/${newBranch}`,
      parent,
      create: newBranch !== oldBranch,
      changes,
      message: body.message || "Update files",
      author: { ...author, at: dateOf(body.dates?.author) },
      committer: { ...committer, at: dateOf(body.dates?.committer) },
    });
    const tree = await git(repo, ["rev-parse"], [`${commit}^{tree}`]);
    const files = await Promise.all(
      changes.map(async (change) => {
        if ("delete" in change) return null;
        const sha = (await blobAt(repo, commit, change.path)) as string;
        return {
          ...contentsJson(change.path, sha, change.content),
          last_commit_sha: commit,
          url: `${base}/api/v1/repos/${user}/${repo}/contents/${change.path}?ref=${newBranch}`,
          html_url: `${base}/${user}/${repo}/src/branch/${newBranch}/${change.path}`,
          git_url: `${base}/api/v1/repos/${user}/${repo}/git/blobs/${sha}`,
          download_url: `${base}/${user}/${repo}/raw/branch/${newBranch}/${change.path}`,
          target: null,
          submodule_git_url: null,
          _links: {
            self: `${base}/api/v1/repos/${user}/${repo}/contents/${change.path}?ref=${newBranch}`,
            git: `${base}/api/v1/repos/${user}/${repo}/git/blobs/${sha}`,
            html: `${base}/${user}/${repo}/src/branch/${newBranch}/${change.path}`,
          },
        };
      }),
    );
    const iso = (at: number) =>
      new Date(Math.floor(at / 1000) * 1000).toISOString().replace(".000Z", "Z");
    return send(201, {
      files,
      commit: {
        url: `${base}/api/v1/repos/${user}/${repo}/git/commits/${commit}`,
        sha: commit,
        created: iso(now),
        html_url: `${base}/${user}/${repo}/commit/${commit}`,
        author: { name: author.name, email: author.email, date: iso(dateOf(body.dates?.author)) },
        committer: {
          name: committer.name,
          email: committer.email,
          date: iso(dateOf(body.dates?.committer)),
        },
        parents: [
          {
            url: `${base}/api/v1/repos/${user}/${repo}/git/commits/${parent}`,
            sha: parent,
            created: iso(now),
          },
        ],
        message: `${body.message || "Update files"}\n`,
        tree: {
          url: `${base}/api/v1/repos/${user}/${repo}/git/trees/${tree}`,
          sha: tree,
          created: iso(now),
        },
      },
      verification: {
        verified: false,
        reason: "gpg.error.not_signed_commit",
        signature: "",
        signer: null,
        payload: "",
      },
    });
  };
  const gitTree = async (repo: string, sha: string, query: Record<string, string>, send: Send) => {
    const tree = /^[0-9a-f]{40}$/.test(sha)
      ? await git(repo, ["rev-parse", "--verify", "--quiet"], [`${sha}^{tree}`], [1])
      : "";
    // Gitea answers 400 for an object it cannot read as a tree.
    if (tree === "")
      return send(400, { message: `object does not exist [id: ${sha}, rel_path: ]`, url: "" });
    const recursive = query.recursive === "true" || query.recursive === "1";
    const raw = await git(
      repo,
      ["ls-tree", "-z", "-l", ...(recursive ? ["-r", "-t"] : [])],
      [tree],
    );
    const entries = raw
      .split("\0")
      .filter(Boolean)
      .map((line) => {
        const [meta = "", path = ""] = line.split("\t");
        const [mode = "", type = "", object = "", size = "-"] = meta.split(/ +/);
        return {
          path,
          mode,
          type,
          size: size === "-" ? 0 : Number(size),
          sha: object,
          url: `${base}/api/v1/repos/${user}/${repo}/git/${type === "tree" ? "trees" : "blobs"}/${object}`,
        };
      });
    const perPage = Math.max(1, Number(query.per_page ?? knobs.treePerPage) || knobs.treePerPage);
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    const slice = entries.slice((page - 1) * perPage, page * perPage);
    return send(200, {
      sha: tree,
      url: `${base}/api/v1/repos/${user}/${repo}/git/trees/${tree}`,
      tree: slice,
      truncated: page * perPage < entries.length,
      page,
      total_count: entries.length,
    });
  };
  const prJson = async (repo: string, pr: FakePullRequest) => {
    const head = await branchHead(repo, pr.head.ref);
    if (head !== null) pr.head.sha = head;
    return pr;
  };
  const pulls = async (
    repo: string,
    method: string,
    rest: string | undefined,
    query: Record<string, string>,
    req: IncomingMessage,
    send: Send,
  ) => {
    const list = pullList(repo);
    if (method === "GET" && (rest === undefined || rest === "")) {
      const state = query.state ?? "open";
      const chosen = list.filter((p) => state === "all" || p.state === state).reverse();
      return sendPage(
        await Promise.all(chosen.map((p) => prJson(repo, p))),
        query,
        `/repos/${user}/${repo}/pulls`,
        send,
      );
    }
    if (method === "GET" && /^\d+$/.test(rest ?? "")) {
      const pr = list.find((p) => p.number === Number(rest));
      return pr === undefined ? notFound(send) : send(200, await prJson(repo, pr));
    }
    if (method !== "POST" || (rest !== undefined && rest !== ""))
      return send(405, { message: "method not allowed", url: "" });
    const body = (await readBody(req)) as {
      head?: string;
      base?: string;
      title?: string;
      body?: string;
      labels?: number[];
    };
    if (!body.title) return send(422, { message: "[Title]: Required", url: "" });
    const headSha = body.head === undefined ? null : await branchHead(repo, body.head);
    const baseSha = body.base === undefined ? null : await branchHead(repo, body.base);
    if (headSha === null || baseSha === null) return notFound(send);
    if (body.head === body.base)
      return send(422, {
        message: "Invalid PullRequest: There are no changes between the head and the base",
        url: "",
      });
    const existing = list.find(
      (p) => p.state === "open" && p.head.ref === body.head && p.base.ref === body.base,
    );
    if (existing !== undefined)
      return send(409, {
        message: `pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.id}, head_repo_id: 1, base_repo_id: 1, head_branch: ${body.head}, base_branch: ${body.base}]`,
        url: "",
      });
    const number = nextIndex(repo);
    const mergeBase = await git(repo, ["merge-base"], [headSha, baseSha], [1]);
    const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    const labels = labelList(repo).filter((l) => body.labels?.includes(l.id));
    issueLabelsOf(repo).set(number, labels);
    const side = (ref: string, sha: string) => ({ label: ref, ref, sha, repo_id: 1, repo: null });
    const pr: FakePullRequest = {
      id: nextId++,
      url: `${base}/${user}/${repo}/pulls/${number}`,
      number,
      user: { id: 1, login: user },
      title: body.title,
      body: body.body ?? "",
      labels,
      milestone: null,
      assignee: null,
      assignees: null,
      state: "open",
      is_locked: false,
      comments: 0,
      html_url: `${base}/${user}/${repo}/pulls/${number}`,
      diff_url: `${base}/${user}/${repo}/pulls/${number}.diff`,
      patch_url: `${base}/${user}/${repo}/pulls/${number}.patch`,
      mergeable: true,
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      merged_by: null,
      allow_maintainer_edit: false,
      base: side(body.base as string, baseSha),
      head: side(body.head as string, headSha),
      merge_base: mergeBase,
      due_date: null,
      created_at: now,
      updated_at: now,
      closed_at: null,
    };
    list.push(pr);
    return send(201, pr);
  };
  const indexOf = new Map<string, number>();
  const nextIndex = (repo: string) => {
    const index = (indexOf.get(repo) ?? 0) + 1;
    indexOf.set(repo, index);
    return index;
  };
  const issueLabelsOf = (repo: string) =>
    getOrSet(issueLabels, repo, () => new Map<number, FakeLabel[]>());
  const createLabel = (repo: string, body: LabelBody, send: Send) => {
    if (!body.name) return send(422, { message: "[Name]: Required", url: "" });
    // Gitea (label.NormalizeColor): six hex digits, `#` optional on input, left out on output.
    const color = (body.color ?? "").trim().replace(/^#/, "");
    if (!/^[0-9a-fA-F]{6}$/.test(color))
      return send(422, { message: `invalid color [color: ${body.color ?? ""}]`, url: "" });
    const id = nextId++;
    const label: FakeLabel = {
      id,
      name: body.name,
      exclusive: body.exclusive === true,
      is_archived: false,
      color: color.toLowerCase(),
      description: body.description ?? "",
      url: `${base}/api/v1/repos/${user}/${repo}/labels/${id}`,
    };
    labelList(repo).push(label);
    return send(201, label);
  };
  const addIssueLabels = (
    repo: string,
    index: number,
    body: { labels?: unknown[] },
    send: Send,
  ) => {
    const current = issueLabelsOf(repo).get(index);
    if (current === undefined) return notFound(send);
    for (const wanted of body.labels ?? []) {
      const label = labelList(repo).find((l) => l.id === wanted || l.name === wanted);
      if (label !== undefined && !current.some((l) => l.id === label.id)) current.push(label);
    }
    const pr = pullList(repo).find((p) => p.number === index);
    if (pr !== undefined) pr.labels = [...current];
    return send(200, current);
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
    const m =
      /^\/repos\/([^/]+)\/([^/]+)(?:\/(branches|raw|contents|git\/trees|pulls|labels|issues)(?:\/(.*))?)?$/.exec(
        path,
      );
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
        return sendPage(
          await Promise.all(names.map((b) => branchJson(name, b))),
          query,
          `/repos/${user}/${name}/branches`,
          send,
        );
      }
      const branch = await branchJson(name, rest);
      return branch === null
        ? send(404, { message: "branch does not exist", url: "" })
        : send(200, branch);
    }
    if (kind === "contents" && method === "POST" && (rest === undefined || rest === ""))
      return changeFiles(name, repo.default_branch, (await readBody(req)) as ChangeFilesBody, send);
    if (kind === "git/trees" && method === "GET") return gitTree(name, rest ?? "", query, send);
    if (kind === "pulls") return pulls(name, method, rest, query, req, send);
    if (kind === "labels" && (rest === undefined || rest === "")) {
      if (method === "GET")
        return sendPage(labelList(name), query, `/repos/${user}/${name}/labels`, send);
      if (method === "POST") return createLabel(name, (await readBody(req)) as LabelBody, send);
    }
    const issueLabel = kind === "issues" ? /^(\d+)\/labels$/.exec(rest ?? "") : null;
    if (issueLabel !== null && method === "POST")
      return addIssueLabels(
        name,
        Number(issueLabel[1]),
        (await readBody(req)) as { labels?: unknown[] },
        send,
      );
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
    protectBranch(repo, branch, opts = {}) {
      protections.set(`${repo}\u0000${branch}`, { userCanPush: opts.userCanPush === true });
    },
    pulls: (repo) => pullList(repo),
    closePull(repo, index, opts = {}) {
      const pr = pullList(repo).find((p) => p.number === index);
      if (pr === undefined) throw new Error(`no pull request ${index} in ${repo}`);
      pr.state = "closed";
      pr.closed_at = new Date().toISOString();
      if (opts.merged === true) pr.merged = true;
    },
    async close() {
      await new Promise<void>((done) => server.close(() => done()));
      for (const cleanup of cleanups) await cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}
