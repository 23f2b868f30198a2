import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { checkRef, checkRepoPath } from "../../core/wiki/forge-path.js";
import {
  throwIfCancelled,
  tooLarge,
  WIKI_LIMITS,
  type WikiLimit,
} from "../../core/wiki/wiki-limits.js";
import type {
  Backend,
  CommitFileArgs,
  CommitFileResult,
  FileWithSha,
  ForgeRepo,
  ReadOptions,
} from "../../ports/forge.js";
import { type GiteaCallContext, giteaNetworkError, giteaStatusError } from "./gitea-errors.js";
import type {
  GiteaBranch,
  GiteaChangeFilesOptions,
  GiteaContentsResponse,
  GiteaCreateFileOptions,
  GiteaCreateLabelOption,
  GiteaCreatePullRequestOption,
  GiteaEditRepoOption,
  GiteaFileResponse,
  GiteaFilesResponse,
  GiteaGitTreeResponse,
  GiteaIssueLabelsOption,
  GiteaLabel,
  GiteaPullRequest,
  GiteaRepository,
  GiteaUpdateFileOptions,
} from "./gitea-types.js";

/** Options of {@link GiteaForge}. */
export interface GiteaForgeOptions {
  /** The server's address, e.g. `https://git.example.com` (the `/api/v1` part is added). */
  url: string;
  /** An access token (from `auth.toml`), sent as `Authorization: token <token>`. */
  token: string;
  /** Time limit of each request, ms. Default: 15 000. */
  timeoutMs?: number;
  /** Repositories per page when listing (Gitea caps it at its `MAX_RESPONSE_ITEMS`, 50 by default). Default: 50. */
  pageSize?: number;
  /** The `fetch` to use. Default: the global one. */
  fetch?: typeof fetch;
}

const MAX_PAGES = 1000;

/** Most redirects followed for one request. */
const MAX_REDIRECTS = 5;

/**
 * Refuses a URL segment that `new URL` would normalise into another endpoint (`.`, `..`),
 * an empty one, and one holding a slash, backslash or control character — before any URL
 * is built, so a token-bearing request can only go where it was meant to.
 *
 * @param value - an owner, repository name, or one segment of a path or branch.
 * @param what - what it is, for the message.
 * @throws LoreError `invalid_input`.
 */
export function checkUrlSegment(value: string, what: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused
  if (value === "" || value === "." || value === ".." || /[/\\\u0000-\u001f\u007f]/.test(value))
    throw new LoreError("invalid_input", {
      reason: `${what} “${value}” is not a valid name (empty, “.”, “..”, a slash or a control character)`,
      reason_ru: `${what} «${value}» — недопустимое имя (пусто, «.», «..», косая черта или управляющий символ)`,
    });
  return value;
}

/** Encodes a repository path segment by segment (`/` kept, everything else escaped), each checked. */
function encodePath(path: string, what = "path segment"): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(checkUrlSegment(segment, what)))
    .join("/");
}

/** An issue or pull request index as a URL segment; refuses anything but a positive integer. */
function positiveIndex(index: number): string {
  if (!Number.isSafeInteger(index) || index < 1)
    throw new LoreError("invalid_input", { reason: `“${index}” is not an issue index` });
  return String(index);
}

/** True for an error of an aborted or timed-out fetch or body read. */
function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "AbortError" || name === "TimeoutError";
}

/**
 * The forge port over the Gitea REST API v1 (federation, “Forge adapters”, `gitea`): the
 * user's repositories with pagination, raw files at a ref, files with their sha (contents
 * API, base64), create/update with sha as compare-and-swap. Wire types live in
 * `gitea-types.ts`; statuses become error kinds only in `gitea-errors.ts`.
 */
export class GiteaForge implements Backend {
  /** The API base, `<url>/api/v1`, no trailing slash. */
  readonly apiBase: string;
  private readonly options: GiteaForgeOptions;

  constructor(options: GiteaForgeOptions) {
    this.options = options;
    this.apiBase = `${options.url.replace(/\/+$/, "")}/api/v1`;
  }

  private repoPath(owner: string, repo: string): string {
    const o = encodeURIComponent(checkUrlSegment(owner, "owner"));
    return `/repos/${o}/${encodeURIComponent(checkUrlSegment(repo, "repository"))}`;
  }

  /** One request; non-2xx statuses in `allow` come back as answers, others throw. */
  private async call(
    method: string,
    path: string,
    options: {
      body?: unknown;
      allow?: number[];
      context?: GiteaCallContext;
      query?: Record<string, string>;
      signal?: AbortSignal;
    } = {},
  ): Promise<Response> {
    throwIfCancelled(options.signal);
    let url = new URL(`${this.apiBase}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {}))
      url.searchParams.set(key, value);
    const origin = url.origin;
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 15_000);
    const signal =
      options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
    let response: Response;
    try {
      // Redirects are followed by hand: the token goes only to the configured origin.
      for (let hop = 0; ; hop++) {
        const headers: Record<string, string> = { Accept: "application/json" };
        if (url.origin === origin) headers.Authorization = `token ${this.options.token}`;
        if (options.body !== undefined) headers["Content-Type"] = "application/json";
        response = await (this.options.fetch ?? fetch)(url, {
          method,
          headers,
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          signal,
          redirect: "manual",
        });
        const location = response.headers.get("location");
        if (response.status < 300 || response.status > 399 || location === null) break;
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS)
          throw new LoreError("forge_failed", {
            status: response.status,
            reason: "too many redirects",
          });
        url = new URL(location, url);
      }
    } catch (error) {
      if (isLoreError(error)) throw error;
      throwIfCancelled(options.signal);
      throw giteaNetworkError(error, `${method} ${url.origin}${url.pathname}`);
    }
    if (response.ok || options.allow?.includes(response.status)) return response;
    const text = await response.text().catch(() => "");
    let message = text.slice(0, 300);
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === "string") message = parsed.message;
    } catch {
      // not JSON: keep the body's start
    }
    throw giteaStatusError(response.status, message, options.context);
  }

  private async json<T>(response: Response, signal?: AbortSignal): Promise<T> {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw bodyError(error, response, signal);
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new LoreError(
        "forge_failed",
        { status: response.status, reason: "the answer is not JSON" },
        { cause: error },
      );
    }
  }

  /**
   * The body's bytes, refusing more than `max` (by `Content-Length` before reading, else
   * counted while reading: never held whole when over it).
   */
  private async bytes(
    response: Response,
    where: { repo: string; path: string },
    limit: WikiLimit | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const max = limit === undefined ? Number.POSITIVE_INFINITY : WIKI_LIMITS[limit];
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (limit !== undefined && Number.isFinite(declared) && declared > max) {
      await response.body?.cancel();
      throw tooLarge(where, limit, declared);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      const reader = response.body?.getReader();
      if (reader === undefined) return new Uint8Array(0);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.length;
        if (limit !== undefined && total > max) {
          await reader.cancel();
          throw tooLarge(where, limit);
        }
        chunks.push(value);
      }
    } catch (error) {
      if (isLoreError(error)) throw error;
      throw bodyError(error, response, signal);
    }
    return Buffer.concat(chunks);
  }

  /**
   * Lists the token user's repositories, every page (`GET /user/repos?page=&limit=`),
   * following `Link: rel="next"`, else `X-Total-Count`, else stopping at a short page.
   * @throws LoreError `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async listUserRepos(): Promise<ForgeRepo[]> {
    const limit = this.options.pageSize ?? 50;
    const repos: ForgeRepo[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const response = await this.call("GET", "/user/repos", {
        query: { page: String(page), limit: String(limit) },
      });
      const batch = await this.json<GiteaRepository[]>(response);
      for (const repo of batch)
        repos.push({ name: repo.name, default_branch: repo.default_branch });
      const link = response.headers.get("link");
      const total = Number(response.headers.get("x-total-count") ?? Number.NaN);
      if (batch.length === 0) break;
      if (link !== null) {
        if (!/rel="next"/.test(link)) break;
      } else if (Number.isFinite(total)) {
        if (repos.length >= total) break;
      } else if (batch.length < limit) break;
    }
    return repos;
  }

  /**
   * Checks `path` and `ref`, then `GET /repos/{o}/{r}/{endpoint}/{path}?ref=` (path segments
   * encoded, the ref as a query value).
   * @returns the response, or `null` on 404 (its body cancelled).
   * @throws LoreError `invalid_input`, `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  private async getFileResponse(
    endpoint: "raw" | "contents",
    owner: string,
    repo: string,
    path: string,
    ref: string | undefined,
    signal?: AbortSignal,
  ): Promise<Response | null> {
    checkRepoPath(path);
    if (ref !== undefined) checkRef(ref);
    const response = await this.call(
      "GET",
      `${this.repoPath(owner, repo)}/${endpoint}/${encodePath(path)}`,
      {
        allow: [404],
        context: { repo, path },
        ...(ref === undefined ? {} : { query: { ref } }),
        ...(signal === undefined ? {} : { signal }),
      },
    );
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    return response;
  }

  /**
   * Reads a file's text at `ref` through `GET /repos/{o}/{r}/raw/{path}?ref=` (path
   * segments encoded, the ref as a query value, so `kb/ёлка-update` works — case 3).
   * @returns the text, or `null` on 404 (Gitea answers 404 for a missing file, ref or repository alike).
   * @throws LoreError `invalid_input`, `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async getRawFile(
    owner: string,
    repo: string,
    path: string,
    ref?: string,
    options: ReadOptions = {},
  ): Promise<string | null> {
    const response = await this.getFileResponse("raw", owner, repo, path, ref, options.signal);
    if (response === null) return null;
    return new TextDecoder().decode(
      await this.bytes(response, { repo, path }, options.limit, options.signal),
    );
  }

  /**
   * Reads a file and its blob sha through the contents API (base64). When the API leaves
   * `content` out (`null` or `""`) for a non-empty file — large blobs — the text is read
   * from the raw endpoint at the same ref instead; an empty text is never returned for a
   * non-empty file (case 2).
   * @returns `{ content, sha }`, or `null` on 404 or when the path is not a file.
   * @throws LoreError `file_too_large_for_api` (raw read failed too), `invalid_input`,
   *   `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async getFileWithSha(
    owner: string,
    repo: string,
    path: string,
    ref?: string,
    options: ReadOptions = {},
  ): Promise<FileWithSha | null> {
    const response = await this.getFileResponse("contents", owner, repo, path, ref, options.signal);
    if (response === null) return null;
    // base64 makes the answer about 4/3 of the file, plus the JSON around it.
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (
      options.limit !== undefined &&
      Number.isFinite(declared) &&
      declared > (WIKI_LIMITS[options.limit] * 4) / 3 + 64 * 1024
    ) {
      await response.body?.cancel();
      throw tooLarge({ repo, path }, options.limit);
    }
    const body = await this.json<GiteaContentsResponse | GiteaContentsResponse[]>(
      response,
      options.signal,
    );
    if (Array.isArray(body) || body.type !== "file") return null;
    if (options.limit !== undefined && body.size > WIKI_LIMITS[options.limit])
      throw tooLarge({ repo, path }, options.limit, body.size);
    if (typeof body.content === "string" && body.content.length > 0)
      return { content: Buffer.from(body.content, "base64").toString("utf8"), sha: body.sha };
    if (body.size === 0) return { content: "", sha: body.sha };
    // Case 2: no content for a large file — read it raw, never answer an empty text.
    let raw: string | null = null;
    let cause: unknown;
    try {
      raw = await this.getRawFile(owner, repo, path, ref, options);
    } catch (error) {
      if (
        isLoreError(error) &&
        (error.code === "cancelled" || error.code === "remote_file_too_large")
      )
        throw error;
      cause = error;
    }
    if (raw === null || raw.length === 0)
      throw new LoreError(
        "file_too_large_for_api",
        { repo, path, size: body.size },
        { cause, data: { sha: body.sha } },
      );
    return { content: raw, sha: body.sha };
  }

  /**
   * The token's user name (`GET /user` → `login`), the owner of reads when none is configured.
   * @throws LoreError `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async currentUser(): Promise<string> {
    return (await this.json<{ login: string }>(await this.call("GET", "/user"))).login;
  }

  /**
   * Every page of a listing (`page`, `limit`), following `Link: rel="next"`, else
   * `X-Total-Count`, else stopping at a short page (as {@link listUserRepos}).
   */
  private async allPages<T>(
    path: string,
    context: GiteaCallContext,
    query: Record<string, string> = {},
  ): Promise<T[]> {
    const limit = this.options.pageSize ?? 50;
    const items: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const response = await this.call("GET", path, {
        context,
        query: { ...query, page: String(page), limit: String(limit) },
      });
      const batch = (await this.json<T[] | null>(response)) ?? [];
      items.push(...batch);
      const link = response.headers.get("link");
      const total = Number(response.headers.get("x-total-count") ?? Number.NaN);
      if (batch.length === 0) break;
      if (link !== null && link !== "") {
        if (!/rel="next"/.test(link)) break;
      } else if (Number.isFinite(total)) {
        if (items.length >= total) break;
      } else if (batch.length < limit) break;
    }
    return items;
  }

  /**
   * The repository (`GET /repos/{o}/{r}`): its default branch and whether it is empty.
   * @throws LoreError `forge_not_found`, `forge_unauthorized`, `forge_unavailable`,
   *   `forge_failed`, `invalid_input`.
   */
  async getRepository(owner: string, repo: string): Promise<GiteaRepository> {
    return this.getRepo(owner, repo);
  }

  /**
   * One branch with its head commit and protection (`GET /repos/{o}/{r}/branches/{branch}`).
   * @returns the branch, or `null` when there is no such branch (404).
   * @throws LoreError `forge_unauthorized`, `forge_unavailable`, `forge_failed`, `invalid_input`.
   */
  async getBranch(owner: string, repo: string, branch: string): Promise<GiteaBranch | null> {
    checkRef(branch);
    const response = await this.call(
      "GET",
      `${this.repoPath(owner, repo)}/branches/${encodePath(branch, "branch segment")}`,
      { allow: [404], context: { repo, branch } },
    );
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    return this.json<GiteaBranch>(response);
  }

  /**
   * Every branch of a repository, all pages (`GET /repos/{o}/{r}/branches`).
   * @throws LoreError `forge_not_found`, `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async listBranches(owner: string, repo: string): Promise<GiteaBranch[]> {
    return this.allPages<GiteaBranch>(`${this.repoPath(owner, repo)}/branches`, { repo });
  }

  /**
   * Writes several files in ONE commit (`POST /repos/{o}/{r}/contents`, ChangeFiles,
   * Gitea 1.20+). Gitea checks its own branch protection for the branch written to.
   * @returns the FilesResponse (`commit.sha` is the new commit).
   * @throws LoreError `branch_protected` (403: the branch or a path is protected),
   *   `forge_conflict` (422/409: a `create` path exists, a `sha` is stale, `new_branch`
   *   exists), `forge_not_found` (404: no such branch or repository), `invalid_input`
   *   (other 422, or a bad path), `forge_unauthorized`, `forge_unavailable`, `forge_failed`
   *   (e.g. 413 when a proxy refuses the body's size).
   */
  async changeFiles(
    owner: string,
    repo: string,
    options: GiteaChangeFilesOptions,
  ): Promise<GiteaFilesResponse> {
    for (const file of options.files) checkRepoPath(file.path);
    for (const branch of [options.branch, options.new_branch])
      if (branch !== undefined) checkRef(branch);
    const branch = options.new_branch ?? options.branch;
    const response = await this.call("POST", `${this.repoPath(owner, repo)}/contents`, {
      body: options,
      context: { repo, ...(branch === undefined ? {} : { branch }) },
    });
    return this.json<GiteaFilesResponse>(response);
  }

  /**
   * One page of a git tree (`GET /repos/{o}/{r}/git/trees/{sha}`); `sha` may name a
   * commit (its root tree is listed) or a tree.
   * @returns the page, or `null` when there is no such object (404, 400).
   * @throws LoreError `forge_unauthorized`, `forge_unavailable`, `forge_failed`, `invalid_input`.
   */
  async getTree(
    owner: string,
    repo: string,
    sha: string,
    options: { recursive?: boolean; page?: number; perPage?: number } = {},
  ): Promise<GiteaGitTreeResponse | null> {
    if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(sha))
      throw new LoreError("invalid_input", { reason: `“${sha}” is not an object id` });
    const query: Record<string, string> = { page: String(options.page ?? 1) };
    if (options.recursive === true) query.recursive = "true";
    if (options.perPage !== undefined) query.per_page = String(options.perPage);
    const response = await this.call("GET", `${this.repoPath(owner, repo)}/git/trees/${sha}`, {
      allow: [400, 404],
      context: { repo },
      query,
    });
    if (response.status === 404 || response.status === 400) {
      await response.body?.cancel();
      return null;
    }
    return this.json<GiteaGitTreeResponse>(response);
  }

  /**
   * Opens a pull request (`POST /repos/{o}/{r}/pulls`).
   * @throws LoreError `forge_conflict` (409: an open pull request for the same head and
   *   base exists), `forge_not_found` (404: head or base branch missing), `invalid_input`
   *   (422), `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async createPullRequest(
    owner: string,
    repo: string,
    option: GiteaCreatePullRequestOption,
  ): Promise<GiteaPullRequest> {
    checkRef(option.head);
    checkRef(option.base);
    const response = await this.call("POST", `${this.repoPath(owner, repo)}/pulls`, {
      body: option,
      context: { repo, branch: option.base },
    });
    return this.json<GiteaPullRequest>(response);
  }

  /**
   * One pull request by its index (`GET /repos/{o}/{r}/pulls/{index}`).
   * @returns the pull request, or `null` when there is none (404).
   * @throws LoreError `forge_unauthorized`, `forge_unavailable`, `forge_failed`, `invalid_input`.
   */
  async getPullRequest(
    owner: string,
    repo: string,
    index: number,
  ): Promise<GiteaPullRequest | null> {
    const response = await this.call(
      "GET",
      `${this.repoPath(owner, repo)}/pulls/${positiveIndex(index)}`,
      { allow: [404], context: { repo } },
    );
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    return this.json<GiteaPullRequest>(response);
  }

  /**
   * Pull requests of a repository, every page (`GET /repos/{o}/{r}/pulls?state=`).
   * @param state - `open` (default), `closed` or `all`.
   * @throws LoreError `forge_not_found`, `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async listPullRequests(
    owner: string,
    repo: string,
    state: "open" | "closed" | "all" = "open",
  ): Promise<GiteaPullRequest[]> {
    return this.allPages<GiteaPullRequest>(
      `${this.repoPath(owner, repo)}/pulls`,
      { repo },
      { state },
    );
  }

  /**
   * The repository's labels, every page (`GET /repos/{o}/{r}/labels`).
   * @throws LoreError `forge_not_found`, `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async listLabels(owner: string, repo: string): Promise<GiteaLabel[]> {
    return this.allPages<GiteaLabel>(`${this.repoPath(owner, repo)}/labels`, { repo });
  }

  /**
   * Creates a label (`POST /repos/{o}/{r}/labels`). Gitea does not refuse a second label of
   * the same name, so callers look for it first.
   * @throws LoreError `invalid_input` (422: a colour not `#rrggbb`), `forge_not_found`,
   *   `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  async createLabel(
    owner: string,
    repo: string,
    option: GiteaCreateLabelOption,
  ): Promise<GiteaLabel> {
    const response = await this.call("POST", `${this.repoPath(owner, repo)}/labels`, {
      body: option,
      context: { repo },
    });
    return this.json<GiteaLabel>(response);
  }

  /**
   * Adds labels to an issue or pull request (`POST /repos/{o}/{r}/issues/{index}/labels`);
   * the pull request's index is its `number`.
   * @returns every label the issue has afterwards.
   * @throws LoreError `forge_not_found` (no such issue), `forge_unauthorized`,
   *   `forge_unavailable`, `forge_failed`, `invalid_input`.
   */
  async addIssueLabels(
    owner: string,
    repo: string,
    index: number,
    labels: number[],
  ): Promise<GiteaLabel[]> {
    const response = await this.call(
      "POST",
      `${this.repoPath(owner, repo)}/issues/${positiveIndex(index)}/labels`,
      { body: { labels } satisfies GiteaIssueLabelsOption, context: { repo } },
    );
    return this.json<GiteaLabel[]>(response);
  }

  private async getRepo(owner: string, repo: string): Promise<GiteaRepository> {
    return this.json<GiteaRepository>(
      await this.call("GET", this.repoPath(owner, repo), { context: { repo } }),
    );
  }

  private async branchExists(owner: string, repo: string, branch: string): Promise<boolean> {
    const response = await this.call(
      "GET",
      `${this.repoPath(owner, repo)}/branches/${encodePath(branch, "branch segment")}`,
      {
        allow: [404],
        context: { repo },
      },
    );
    await response.body?.cancel();
    return response.status !== 404;
  }

  /**
   * Creates (`POST`, no `sha`) or updates (`PUT`, with `sha`) one file through the contents
   * API. A `branch` that does not exist yet is created from the default branch
   * (`new_branch`). After the first commit into an empty repository the default branch is
   * checked: when it names no branch, it is set to the branch that got the commit (case 4).
   * @returns `{ sha: <blob sha>, commit: <commit sha> }`.
   * @throws LoreError `forge_conflict` (stale sha: 409, or 422 about the sha / an existing
   *   file), `forge_not_found`, `forge_unauthorized`, `forge_unavailable`, `forge_failed`,
   *   `default_branch_mismatch` (the default branch could not be fixed; `data` holds the
   *   commit), `invalid_input`.
   */
  async commitFile(args: CommitFileArgs): Promise<CommitFileResult> {
    checkRepoPath(args.path);
    if (args.branch !== undefined) {
      checkRef(args.branch);
      encodePath(args.branch, "branch segment");
    }
    const { owner, repo, path } = args;
    this.repoPath(owner, repo);
    throwIfCancelled(args.signal);
    const before = args.sha === undefined ? await this.getRepo(owner, repo) : null;
    const body: GiteaCreateFileOptions = {
      content: Buffer.from(args.content, "utf8").toString("base64"),
      message: args.message,
    };
    if (args.branch !== undefined) {
      if (before?.empty !== true && !(await this.branchExists(owner, repo, args.branch)))
        body.new_branch = args.branch;
      else body.branch = args.branch;
    }
    const url = `${this.repoPath(owner, repo)}/contents/${encodePath(path)}`;
    const context = { repo, path };
    const response =
      args.sha === undefined
        ? await this.call("POST", url, { body, context })
        : await this.call("PUT", url, {
            body: { ...body, sha: args.sha } satisfies GiteaUpdateFileOptions,
            context,
          });
    const answer = await this.json<GiteaFileResponse>(response);
    const result = { sha: answer.content?.sha ?? "", commit: answer.commit.sha };
    if (before?.empty === true)
      await this.checkDefaultBranch(owner, repo, args.branch ?? before.default_branch, result);
    return result;
  }

  /** Case 4: after the first commit, make the default branch name an existing branch. */
  private async checkDefaultBranch(
    owner: string,
    repo: string,
    wanted: string,
    result: CommitFileResult,
  ): Promise<void> {
    const after = await this.getRepo(owner, repo);
    if (await this.branchExists(owner, repo, after.default_branch)) return;
    const branches = await this.json<GiteaBranch[]>(
      await this.call("GET", `${this.repoPath(owner, repo)}/branches`, { context: { repo } }),
    );
    const target =
      branches.find((b) => b.name === wanted)?.name ??
      (branches.length === 1 ? branches[0]?.name : undefined);
    const mismatch = (cause?: unknown) =>
      new LoreError(
        "default_branch_mismatch",
        {
          repo,
          branch: target ?? branches.map((b) => b.name).join(", "),
          default_branch: after.default_branch,
        },
        { data: { ...result }, cause },
      );
    if (target === undefined) throw mismatch();
    try {
      await this.call("PATCH", this.repoPath(owner, repo), {
        body: { default_branch: target } satisfies GiteaEditRepoOption,
        context: { repo },
      });
    } catch (error) {
      if (isLoreError(error)) throw mismatch(error);
      throw error;
    }
    if ((await this.getRepo(owner, repo)).default_branch !== target) throw mismatch();
  }
}

/**
 * What a failed body read becomes: a cancel is `cancelled`; a timeout or a dropped
 * connection mid-body is `forge_unavailable` (not "the answer is not JSON").
 */
function bodyError(error: unknown, response: Response, signal: AbortSignal | undefined): LoreError {
  if (signal?.aborted === true) return new LoreError("cancelled", {}, { cause: error });
  const reason = isAbort(error)
    ? `the answer (HTTP ${response.status}) did not arrive in time`
    : `the answer (HTTP ${response.status}) broke off: ${error instanceof Error ? error.message : String(error)}`;
  return new LoreError("forge_unavailable", { reason }, { cause: error });
}
