import { stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { escapeFileName, fileNameNotUtf8 } from "../../core/entry/file-name.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { repoIdentity } from "../../core/repos/repo-identity.js";
import type { GitRepo, KnowledgeBlob } from "../../ports/git-repo.js";
import { CatFileBatch } from "./cat-file-batch.js";
import { assertGitValue, runGit } from "./run-git.js";

/** Options of {@link openGitRepo}. */
export interface GitCliRepoOptions {
  /** `HOME` of git children. Default: one empty temp folder per process. */
  home?: string;
  /** Time limit of each git command, and idle limit of `cat-file --batch`, ms. Default: 30 000. */
  timeoutMs?: number;
  /**
   * Extra environment of every git child (see `runGit`'s `env`): a `pre-receive` hook passes
   * git's quarantine variables so the objects of the push are visible. Default: none (the
   * isolated environment only).
   */
  env?: Readonly<Record<string, string>>;
}

const HEX_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The {@link GitRepo} port over the git CLI: short commands through `runGit`, blob reads
 * through one long-lived `git cat-file --batch` started on first use.
 */
export class GitCliRepo implements GitRepo {
  /** The folder git runs in: the work tree top of a clone, or the bare repository. */
  readonly dir: string;
  /** True for a bare repository. */
  readonly bare: boolean;
  protected readonly options: GitCliRepoOptions;
  private batch: CatFileBatch | null = null;

  /** Use {@link openGitRepo}, which checks the folder first. */
  constructor(dir: string, bare: boolean, options: GitCliRepoOptions = {}) {
    this.dir = dir;
    this.bare = bare;
    this.options = options;
  }

  /**
   * Resolves a revision to a commit sha. The default is `HEAD`: in a bare repository (a
   * server's copy) HEAD names the default branch; in a clone it is the checked-out commit,
   * normally the default branch — pass a branch name to index another one.
   *
   * @param rev - a branch, tag or sha; must not start with `-`. Default: `HEAD`.
   * @returns the commit sha (40 hex, or 64 for sha256 repositories).
   * @throws LoreError `invalid_input` for a value starting with `-`; `git_failed` when the
   *   revision does not name a commit (e.g. a repository with no commit yet).
   */
  async resolveCommit(rev = "HEAD"): Promise<string> {
    assertGitValue(rev, "revision");
    const { stdout } = await this.git(
      ["rev-parse", "--verify", "--quiet", "--end-of-options"],
      [`${rev}^{commit}`],
    ).catch((error: unknown) => {
      if (isLoreError(error) && error.code === "git_failed") {
        throw new LoreError(
          "git_failed",
          { reason: `revision “${rev}” is not a commit in ${this.dir}` },
          { data: error.data, cause: error },
        );
      }
      throw error;
    });
    return stdout.toString("latin1").trim();
  }

  /**
   * Lists the `.md` blobs under `prefix` at a commit, with sizes, through
   * `git ls-tree -r -z --long <commit> -- <prefix>`. Symbolic links (mode 120000) and
   * submodules are not entries and are left out.
   *
   * @param commit - a commit sha (from {@link resolveCommit}).
   * @param prefix - a folder relative to the repository root, e.g. `.gitriver/knowledge/`.
   * @returns blobs sorted by path (byte order), paths relative to the repository root.
   * @throws LoreError `git_failed`; `invalid_input` for a value starting with `-`.
   */
  async listKnowledgeBlobs(commit: string, prefix: string): Promise<KnowledgeBlob[]> {
    assertGitValue(commit, "commit");
    const folder = prefix.endsWith("/") ? prefix : `${prefix}/`;
    const { stdout } = await this.git(
      ["ls-tree", "-r", "-z", "--long", "--full-tree"],
      [commit],
      [folder],
    );
    return parseLsTree(stdout.toString("latin1"), folder);
  }

  /**
   * Reads blobs in the order given through one long-lived `git cat-file --batch`
   * (pipelined, at most 256 answers held at once).
   *
   * @param shas - blob shas (40 or 64 hex).
   * @throws LoreError `git_failed` when a blob is missing or git dies or stalls.
   */
  async *readBlobs(shas: readonly string[]): AsyncIterable<{ sha: string; bytes: Uint8Array }> {
    // A batch that died (killed, stalled) is replaced, so one failure does not stick.
    if (this.batch?.failed) await this.close();
    this.batch ??= CatFileBatch.start(this.dir, {
      ...(this.options.home === undefined ? {} : { home: this.options.home }),
      ...(this.options.timeoutMs === undefined ? {} : { idleTimeoutMs: this.options.timeoutMs }),
      ...(this.options.env === undefined ? {} : { env: this.options.env }),
    });
    for await (const object of this.batch.readMany(shas)) {
      yield { sha: object.sha, bytes: object.bytes };
    }
  }

  /**
   * The repository's identity (see `core/repos/repo-identity.ts`): the normalised URL of the
   * `origin` remote, else `commit:<root commit>`, else the folder's path.
   *
   * @throws LoreError `git_failed` when git fails.
   */
  async identity(): Promise<string> {
    const origin = await this.git(["config", "--get", "remote.origin.url"], [], [], [1]);
    const originUrl = origin.exitCode === 0 ? origin.stdout.toString("utf8").trim() : undefined;
    let rootCommits: string[] = [];
    if (originUrl === undefined || originUrl === "") {
      const roots = await this.git(["rev-list", "--max-parents=0", "HEAD", "--"], [], [], [128]);
      if (roots.exitCode === 0) {
        rootCommits = roots.stdout
          .toString("latin1")
          .split("\n")
          .map((line) => line.trim());
      }
    }
    return repoIdentity({ originUrl, rootCommits, path: this.dir });
  }

  /**
   * The entry files whose working copy or staged copy differs from HEAD: modified, added,
   * deleted, renamed and untracked `.md` files under `prefix`, through
   * `git status --porcelain=v1 -z --untracked-files=all`. Empty for a bare repository.
   *
   * @param prefix - e.g. `.gitriver/knowledge/`.
   * @returns repository-relative paths, sorted.
   * @throws LoreError `git_failed`.
   */
  async changedFiles(prefix: string): Promise<string[]> {
    if (this.bare) return [];
    const { stdout } = await this.git(
      ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"],
      [],
      [prefix],
    );
    const paths = new Set<string>();
    for (const record of stdout.toString("utf8").split("\0")) {
      if (record.length < 4) continue;
      const path = record.slice(3);
      if (path.startsWith(prefix) && path.endsWith(".md")) paths.add(path);
    }
    return [...paths].sort();
  }

  /**
   * The files whose change means HEAD may have moved: `HEAD` of the git folder, and
   * `packed-refs` and `refs/` of the common folder (a linked work tree shares it), as
   * absolute paths; the branch HEAD names is added by the watcher once it reads HEAD.
   *
   * @throws LoreError `git_failed`.
   */
  async refFolders(): Promise<{ gitDir: string; commonDir: string }> {
    const { stdout } = await this.git(["rev-parse", "--git-dir", "--git-common-dir"]);
    const [gitDir = ".", commonDir = gitDir] = stdout.toString("utf8").trim().split("\n");
    const abs = (path: string) => (isAbsolute(path) ? path : join(this.dir, path));
    return { gitDir: abs(gitDir), commonDir: abs(commonDir) };
  }

  /** Ends the `cat-file --batch` process, if one runs. Idempotent. */
  async close(): Promise<void> {
    const batch = this.batch;
    this.batch = null;
    await batch?.close();
  }

  /** Runs one git command in {@link dir} with this repository's options (see `runGit`). */
  protected git(
    args: string[],
    values: string[] = [],
    paths: string[] = [],
    okExitCodes: number[] = [],
    input?: string,
  ) {
    return runGit({
      cwd: this.dir,
      args,
      values,
      paths,
      okExitCodes,
      ...(input === undefined ? {} : { input }),
      ...(this.options.home === undefined ? {} : { home: this.options.home }),
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      ...(this.options.env === undefined ? {} : { env: this.options.env }),
    });
  }
}

/**
 * Parses `git ls-tree -r -z --long` output: records `<mode> SP <type> SP <sha> SP+ <size>
 * TAB <path> NUL`. Keeps `.md` blobs under `folder`; leaves out symbolic links (mode
 * 120000), submodules and trees.
 *
 * Paths are git's bytes: a path that is valid UTF-8 is decoded; one that is not is kept
 * with `\xNN` escapes and `refused` as `file_name_not_utf8`, so indexing reports it like
 * `lore check` does, never stores a U+FFFD name.
 *
 * @param text - the whole output, decoded as latin1 (one character per byte).
 * @param folder - the folder prefix (ASCII), ending in `/`.
 * @returns the blobs in git's order (by path).
 */
export function parseLsTree(text: string, folder: string): KnowledgeBlob[] {
  const blobs: KnowledgeBlob[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\0", start);
    if (end === -1) end = text.length;
    const tab = text.indexOf("\t", start);
    const record = start;
    start = end + 1;
    if (tab === -1 || tab > end) continue;
    const raw = text.slice(tab + 1, end);
    if (!raw.endsWith(".md") || !raw.startsWith(folder)) continue;
    const space1 = text.indexOf(" ", record);
    const space2 = text.indexOf(" ", space1 + 1);
    const space3 = text.indexOf(" ", space2 + 1);
    if (space3 === -1 || space3 > tab) continue;
    if (text.slice(space1 + 1, space2) !== "blob" || text.startsWith("120000", record)) continue;
    const sha = text.slice(space2 + 1, space3);
    if (!HEX_SHA.test(sha)) continue;
    const size = Number(text.slice(space3 + 1, tab));
    const bytes = Buffer.from(raw, "latin1");
    const path = decodeUtf8(bytes);
    if (path !== undefined) blobs.push({ path, sha, size });
    else {
      const escaped = escapeFileName(bytes);
      blobs.push({ path: escaped, sha, size, refused: fileNameNotUtf8(escaped) });
    }
  }
  return blobs;
}

/**
 * Opens a git repository (a clone or a bare repository) after checking it is one, with
 * `git rev-parse --is-bare-repository --show-toplevel`.
 *
 * @param dir - the folder; a sub-folder of a work tree opens its top.
 * @param options - see {@link GitCliRepoOptions}.
 * @returns the repository; call `close()` when done.
 * @throws LoreError `path_not_found` when the folder does not exist; `not_a_repository`
 *   when git does not see a repository there.
 */
export async function openGitRepo(
  dir: string,
  options: GitCliRepoOptions = {},
): Promise<GitCliRepo> {
  const absolute = resolve(dir);
  const info = await stat(absolute).catch(() => null);
  if (info === null || !info.isDirectory()) throw new LoreError("path_not_found", { path: dir });
  const probe = (args: string[]) =>
    runGit({
      cwd: absolute,
      args,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.home === undefined ? {} : { home: options.home }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  let bare: boolean;
  try {
    const out = await probe(["rev-parse", "--is-bare-repository"]);
    bare = out.stdout.toString("utf8").trim() === "true";
  } catch (error) {
    throw new LoreError("not_a_repository", { path: dir }, { cause: error });
  }
  if (bare) return new GitCliRepo(absolute, true, options);
  const top = await probe(["rev-parse", "--show-toplevel"]);
  return new GitCliRepo(top.stdout.toString("utf8").trim(), false, options);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as UTF-8 text, or `undefined` when they are not valid UTF-8. */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
