import { checkRef, checkRepoPath } from "../../core/forge-path.js";
import { isLoreError, LoreError } from "../../core/lore-error.js";
import type {
  Backend,
  CommitFileArgs,
  CommitFileResult,
  FileWithSha,
  ForgeRepo,
} from "../../ports/forge.js";
import { type GiteaCallContext, giteaNetworkError, giteaStatusError } from "./gitea-errors.js";
import type {
  GiteaBranch,
  GiteaContentsResponse,
  GiteaCreateFileOptions,
  GiteaEditRepoOption,
  GiteaFileResponse,
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

/** Encodes a repository path segment by segment (`/` kept, everything else escaped). */
function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/**
 * The forge port over the Gitea REST API v1 (issue 4 "Forge adapters", `gitea`): the
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
    return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
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
    } = {},
  ): Promise<Response> {
    const url = new URL(`${this.apiBase}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {}))
      url.searchParams.set(key, value);
    const headers: Record<string, string> = {
      Authorization: `token ${this.options.token}`,
      Accept: "application/json",
    };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, {
        method,
        headers,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
        redirect: "follow",
      });
    } catch (error) {
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

  private async json<T>(response: Response): Promise<T> {
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new LoreError(
        "forge_failed",
        { status: response.status, reason: "the answer is not JSON" },
        { cause: error },
      );
    }
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
  ): Promise<string | null> {
    const response = await this.getFileResponse("raw", owner, repo, path, ref);
    if (response === null) return null;
    return new TextDecoder().decode(await response.arrayBuffer());
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
  ): Promise<FileWithSha | null> {
    const response = await this.getFileResponse("contents", owner, repo, path, ref);
    if (response === null) return null;
    const body = await this.json<GiteaContentsResponse | GiteaContentsResponse[]>(response);
    if (Array.isArray(body) || body.type !== "file") return null;
    if (typeof body.content === "string" && body.content.length > 0)
      return { content: Buffer.from(body.content, "base64").toString("utf8"), sha: body.sha };
    if (body.size === 0) return { content: "", sha: body.sha };
    // Case 2: no content for a large file — read it raw, never answer an empty text.
    let raw: string | null = null;
    let cause: unknown;
    try {
      raw = await this.getRawFile(owner, repo, path, ref);
    } catch (error) {
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

  private async getRepo(owner: string, repo: string): Promise<GiteaRepository> {
    return this.json<GiteaRepository>(
      await this.call("GET", this.repoPath(owner, repo), { context: { repo } }),
    );
  }

  private async branchExists(owner: string, repo: string, branch: string): Promise<boolean> {
    const response = await this.call(
      "GET",
      `${this.repoPath(owner, repo)}/branches/${encodePath(branch)}`,
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
    if (args.branch !== undefined) checkRef(args.branch);
    const { owner, repo, path } = args;
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
