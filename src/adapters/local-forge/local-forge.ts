import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { checkRef, checkRepoPath } from "../../core/wiki/forge-path.js";
import { throwIfCancelled, tooLarge, WIKI_LIMITS } from "../../core/wiki/wiki-limits.js";
import type {
  Backend,
  CommitFileArgs,
  CommitFileResult,
  FileWithSha,
  ForgeRepo,
  ReadOptions,
} from "../../ports/forge.js";
import { runGit } from "../git-cli/run-git.js";
import { BatchReaders } from "./batch-readers.js";
import { gitReadFile } from "./git-read-file.js";

/** Options of {@link LocalForge}. */
export interface LocalForgeOptions {
  /** The folder of repositories: each sub-folder `<name>` or `<name>.git` is one (bare or a clone). */
  root: string;
  /** Author and committer of commits made by {@link LocalForge.commitFile}. Default: `Lore <lore@localhost>`. */
  author?: { name: string; email: string };
  /** Time limit of each git command, ms. Default: 30 000. */
  timeoutMs?: number;
  /** Extra environment for git children (e.g. fixed `GIT_COMMITTER_DATE` in tests). Default: none. */
  env?: Readonly<Record<string, string>>;
}

/** How many times a commit is retried when another writer moved the branch first. */
const MAX_COMMIT_ATTEMPTS = 50;
const REPO_NAME = /^[A-Za-z0-9._\p{L}\p{N}-]+$/u;

/**
 * The embedded forge: a folder of git repositories, bare or working clones (federation, “Forge
 * adapters”, `local`). Implements the seed's `Backend` port.
 *
 * - Reads go through git at the default branch (or the ref given): one long-lived
 *   `git cat-file --batch` per repository answers `<ref>:<path>` for every read (closed
 *   when idle); the work tree of a clone is never read.
 * - Commits go through git plumbing, no work tree needed: `hash-object -w`, a temporary index
 *   (`GIT_INDEX_FILE`) filled by `read-tree` + `update-index --index-info`, `write-tree`,
 *   `commit-tree`, then `update-ref <branch> <new> <old>` — the old value is the
 *   compare-and-swap. In a clone whose checked-out branch is written, the clone's index and
 *   work tree follow the commit (`read-tree -u -m`) when they are clean, and the commit is
 *   refused with `forge_worktree_dirty` when they are not — git's
 *   `receive.denyCurrentBranch = updateInstead`; the owner's next `git commit -am` never
 *   reverts it.
 * - Commits to one repository are serialised in process (a queue per repository); a writer
 *   in another process that moves the branch first makes `update-ref` fail, and the commit
 *   is rebuilt on the new head and retried, so nothing is lost.
 */
export class LocalForge implements Backend {
  /** The folder of repositories (absolute). */
  readonly root: string;
  private readonly options: LocalForgeOptions;
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly readers: BatchReaders;

  constructor(options: LocalForgeOptions) {
    this.options = options;
    this.root = resolve(options.root);
    this.readers = new BatchReaders(
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
  }

  /** Ends the long-lived readers (they also end by themselves when idle). Idempotent. */
  async close(): Promise<void> {
    await this.readers.close();
  }

  private git(
    dir: string,
    args: string[],
    extra: {
      values?: string[];
      paths?: string[];
      input?: string;
      env?: Record<string, string>;
      okExitCodes?: number[];
    } = {},
  ) {
    return runGit({
      cwd: dir,
      args,
      ...extra,
      env: { ...this.options.env, ...extra.env },
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
    });
  }

  /** The folder of a repository, or `null` when `<name>` is not a repository under the root. */
  private async findRepo(name: string): Promise<string | null> {
    if (!REPO_NAME.test(name) || name === "." || name === "..") return null;
    for (const candidate of [name, `${name}.git`]) {
      const dir = join(this.root, candidate);
      if (await isRepository(dir)) return dir;
    }
    return null;
  }

  private async repoDir(name: string): Promise<string> {
    const dir = await this.findRepo(name);
    if (dir === null) throw new LoreError("forge_not_found", { repo: name });
    return dir;
  }

  /**
   * The branch `HEAD` names. Read from the `HEAD` file when it is a plain
   * `ref: refs/heads/<branch>` line (no git process: a sync lists hundreds of repositories),
   * else asked of git.
   */
  private async defaultBranch(dir: string): Promise<string> {
    // A clone's own HEAD first: a work tree may hold a user file named HEAD.
    for (const head of [join(dir, ".git", "HEAD"), join(dir, "HEAD")]) {
      const text = await readFile(head, "utf8").catch(() => null);
      const branch = text === null ? null : /^ref: refs\/heads\/(\S+)\n?$/.exec(text)?.[1];
      if (branch !== undefined && branch !== null && checkRefSafe(branch)) return branch;
    }
    const out = await this.git(dir, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
      okExitCodes: [1],
    });
    return out.stdout.toString("utf8").trim() || "main";
  }

  /**
   * Lists the repositories under the root, sorted by name (`.git` suffix dropped), each with
   * the branch its `HEAD` names (an empty repository included).
   * @throws LoreError `forge_unavailable` when the root cannot be read; `git_failed`.
   */
  async listUserRepos(): Promise<ForgeRepo[]> {
    // A listing starts a fresh view (a sync): readers opened before see the folders as they
    // were then (a repository broken since would still answer through its old reader).
    await this.readers.close();
    let names: string[];
    try {
      names = (await readdir(this.root, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch (error) {
      throw new LoreError(
        "forge_unavailable",
        forgeRootUnreadable(this.root, error as NodeJS.ErrnoException),
        { cause: error },
      );
    }
    const repos: ForgeRepo[] = [];
    const seen = new Set<string>();
    for (const folder of names) {
      const name = folder.endsWith(".git") ? folder.slice(0, -4) : folder;
      if (seen.has(name) || !REPO_NAME.test(name)) continue;
      const dir = join(this.root, folder);
      if (!(await isRepository(dir))) continue;
      seen.add(name);
      // One unreadable repository (another owner's folder, a bad HEAD, a folder that only
      // looks like a bare repository) must not fail the listing: it is listed, and its reads
      // fail on their own, per project.
      const branch = await this.defaultBranch(dir).catch(() => "main");
      repos.push({ name, default_branch: branch });
    }
    return repos;
  }

  /**
   * Reads `<ref>:<path>` through the repository's long-lived `cat-file --batch` (no git
   * process per file); without a ref, the default branch a listing reports.
   */
  private async read(
    repo: string,
    path: string,
    ref: string | undefined,
    options: ReadOptions = {},
  ): Promise<{ sha: string; bytes: Buffer } | null> {
    throwIfCancelled(options.signal);
    checkRepoPath(path);
    if (ref !== undefined) checkRef(ref);
    const dir = await this.repoDir(repo);
    // The default branch as commits see it (a detached HEAD reads the branch, not the commit).
    const rev = ref ?? (await this.defaultBranch(dir));
    checkRef(rev);
    const maxBytes = options.limit === undefined ? undefined : WIKI_LIMITS[options.limit];
    const object = await this.readers.read(dir, rev, path, maxBytes);
    if (object === null || object.type !== "blob") return null;
    if (object.bytes === null)
      throw tooLarge({ repo, path }, options.limit ?? "wikiPageBytes", object.size);
    return { sha: object.sha, bytes: object.bytes };
  }

  /**
   * Reads a file at `ref` (default: the default branch).
   * @returns its text (UTF-8), or `null` when the file, the ref or any commit is missing.
   * @throws LoreError `forge_not_found`, `invalid_input` (unsafe path or ref), `git_failed`,
   *   `remote_file_too_large` (over `options.limit`), `cancelled`.
   */
  async getRawFile(
    _owner: string,
    repo: string,
    path: string,
    ref?: string,
    options?: ReadOptions,
  ): Promise<string | null> {
    const blob = await this.read(repo, path, ref, options);
    return blob === null ? null : blob.bytes.toString("utf8");
  }

  /**
   * Reads a file and its blob sha at `ref` (default: the default branch).
   * @returns `{ content, sha }`, or `null` when missing.
   * @throws LoreError `forge_not_found`, `invalid_input`, `git_failed`,
   *   `remote_file_too_large`, `cancelled`.
   */
  async getFileWithSha(
    _owner: string,
    repo: string,
    path: string,
    ref?: string,
    options?: ReadOptions,
  ): Promise<FileWithSha | null> {
    const blob = await this.read(repo, path, ref, options);
    return blob === null ? null : { content: blob.bytes.toString("utf8"), sha: blob.sha };
  }

  /**
   * Writes one file in one commit on `branch` (default: the default branch; a missing
   * branch starts from the default branch's head), `sha` as compare-and-swap.
   * @returns `{ sha: <blob sha>, commit: <commit sha> }`.
   * @throws LoreError `forge_conflict` (the file exists on create, or its sha differs on
   *   update), `forge_not_found`, `invalid_input`, `git_failed` (also after
   *   {@link MAX_COMMIT_ATTEMPTS} lost races).
   */
  async commitFile(args: CommitFileArgs): Promise<CommitFileResult> {
    checkRepoPath(args.path);
    const dir = await this.repoDir(args.repo);
    return this.exclusive(dir, () => this.commitNow(dir, args));
  }

  /** Runs `work` after every earlier queued work on `dir` has settled. */
  private async exclusive<T>(dir: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(dir) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(dir, settled);
    try {
      return await run;
    } finally {
      if (this.queues.get(dir) === settled) this.queues.delete(dir);
    }
  }

  private async commitNow(dir: string, args: CommitFileArgs): Promise<CommitFileResult> {
    const defaultBranch = await this.defaultBranch(dir);
    const branch = args.branch ?? defaultBranch;
    checkRef(branch);
    const ref = `refs/heads/${branch}`;
    await this.git(dir, ["check-ref-format"], { values: [ref] }).catch((error: unknown) => {
      throw new LoreError(
        "invalid_input",
        { reason: `“${branch}” is not a valid branch name` },
        { cause: error },
      );
    });
    const blob = (
      await this.git(dir, ["hash-object", "-w", "--stdin"], { input: args.content })
    ).stdout
      .toString("utf8")
      .trim();
    const author = this.options.author ?? { name: "Lore", email: "lore@localhost" };
    const identity = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
    // A clone whose checked-out branch is written: its index and work tree follow the commit
    // when they are clean, else nothing is committed (receive.denyCurrentBranch = updateInstead).
    const checkedOut = branch === defaultBranch && (await hasWorkTree(dir));
    for (let attempt = 1; ; attempt++) {
      throwIfCancelled(args.signal);
      const old = await this.resolve(dir, ref);
      if (checkedOut) await this.requireCleanWorkTree(dir, args.repo, branch, old);
      const base =
        old ??
        (branch === defaultBranch ? null : await this.resolve(dir, `refs/heads/${defaultBranch}`));
      const current =
        base === null ? null : await gitReadFile(dir, base, args.path, this.options.timeoutMs);
      if (args.sha === undefined && current !== null)
        throw conflict(args, `it already exists (sha ${current.sha}); pass its sha to update it`);
      if (args.sha !== undefined && current?.sha !== args.sha)
        throw conflict(
          args,
          current === null
            ? "it no longer exists"
            : `its sha is now ${current.sha}, not ${args.sha}`,
        );
      const tree = await this.treeWith(dir, base, args.path, blob);
      const parents = base === null ? [] : ["-p", base];
      const commit = (
        await this.git(dir, ["commit-tree", tree, ...parents, "-F", "-"], {
          input: args.message,
          env: identity,
        })
      ).stdout
        .toString("utf8")
        .trim();
      const expected = old ?? "0".repeat(blob.length);
      if (checkedOut) await this.updateWorkTree(dir, args.repo, branch, old, commit);
      try {
        await this.git(dir, ["update-ref", "-m", "lore: commit file"], {
          values: [ref, commit, expected],
        });
        return { sha: blob, commit };
      } catch (error) {
        // The branch moved under us: put the work tree back before trying again.
        if (checkedOut)
          await this.git(dir, ["read-tree", "-u", "-m"], {
            values: [commit, old ?? EMPTY_TREE],
          }).catch(() => {});
        // Another writer moved the branch (or holds its lock): rebuild on the new head.
        if (!isLoreError(error) || attempt >= MAX_COMMIT_ATTEMPTS) throw error;
        await new Promise((done) => setTimeout(done, 2 + Math.floor(Math.random() * 20)));
      }
    }
  }

  /**
   * Refuses (LoreError `forge_worktree_dirty`) when the work tree or the index of a clone
   * differs from its checked-out commit, as `receive.denyCurrentBranch = updateInstead` does.
   */
  private async requireCleanWorkTree(
    dir: string,
    repo: string,
    branch: string,
    head: string | null,
  ): Promise<void> {
    await this.git(dir, ["update-index", "-q", "--refresh"], { okExitCodes: [1] });
    const files = await this.git(dir, ["diff-files", "--quiet", "--ignore-submodules"], {
      okExitCodes: [1],
    });
    const staged =
      head === null
        ? { exitCode: 0 }
        : await this.git(dir, ["diff-index", "--quiet", "--cached", "--ignore-submodules"], {
            values: [head],
            okExitCodes: [1],
          });
    if (files.exitCode !== 0 || staged.exitCode !== 0)
      throw new LoreError("forge_worktree_dirty", { repo, branch });
  }

  /** Moves a clean clone's index and work tree from `head` to `commit` (a fast-forward). */
  private async updateWorkTree(
    dir: string,
    repo: string,
    branch: string,
    head: string | null,
    commit: string,
  ): Promise<void> {
    try {
      await this.git(dir, ["read-tree", "-u", "-m"], { values: [head ?? EMPTY_TREE, commit] });
    } catch (error) {
      // e.g. an untracked file where the commit puts one: the user's file is never overwritten.
      throw new LoreError("forge_worktree_dirty", { repo, branch }, { cause: error });
    }
  }

  private async resolve(dir: string, ref: string): Promise<string | null> {
    const out = await this.git(dir, ["rev-parse", "--verify", "--quiet"], {
      values: [`${ref}^{commit}`],
      okExitCodes: [1],
    });
    return out.exitCode === 0 ? out.stdout.toString("utf8").trim() : null;
  }

  /** The tree of `base` (or an empty tree) with `path` set to `blob`, through a temporary index. */
  private async treeWith(
    dir: string,
    base: string | null,
    path: string,
    blob: string,
  ): Promise<string> {
    const temp = await mkdtemp(join(tmpdir(), "lore-index-"));
    const env = { GIT_INDEX_FILE: join(temp, "index") };
    try {
      if (base === null) await this.git(dir, ["read-tree", "--empty"], { env });
      else await this.git(dir, ["read-tree"], { values: [base], env });
      await this.git(dir, ["update-index", "--index-info"], {
        input: `100644 blob ${blob}\t${path}\n`,
        env,
      });
      return (await this.git(dir, ["write-tree"], { env })).stdout.toString("utf8").trim();
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }
}

function conflict(args: CommitFileArgs, reason: string): LoreError {
  return new LoreError("forge_conflict", { path: args.path, repo: args.repo, reason });
}

/** True when `checkRef` accepts the branch name. */
function checkRefSafe(branch: string): boolean {
  try {
    checkRef(branch);
    return true;
  } catch {
    return false;
  }
}

/** git's empty tree (sha1 repositories). */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** True for a clone (a folder with `.git` inside), false for a bare repository. */
async function hasWorkTree(dir: string): Promise<boolean> {
  return (await stat(join(dir, ".git")).catch(() => null)) !== null;
}

/** True for a bare repository folder or a folder with a `.git` inside. */
async function isRepository(dir: string): Promise<boolean> {
  const kind = async (path: string) => (await stat(path).catch(() => null)) ?? null;
  const folder = await kind(dir);
  if (folder === null || !folder.isDirectory()) return false;
  if ((await kind(join(dir, ".git"))) !== null) return true;
  const [head, objects, refs] = await Promise.all([
    kind(join(dir, "HEAD")),
    kind(join(dir, "objects")),
    kind(join(dir, "refs")),
  ]);
  return head?.isFile() === true && objects?.isDirectory() === true && refs?.isDirectory() === true;
}

/**
 * The reason of `forge_unavailable` when the forge's root folder cannot be listed: what is
 * wrong with the folder and what to do, in English and Russian (never Node's raw text).
 */
function forgeRootUnreadable(
  root: string,
  error: NodeJS.ErrnoException,
): { reason: string; reason_ru: string } {
  if (error.code === "ENOENT") {
    return {
      reason: `the [forge] root ${root} does not exist; create it, or fix root in lore.toml`,
      reason_ru: `корня [forge] ${root} нет; создайте папку или исправьте root в lore.toml`,
    };
  }
  if (error.code === "ENOTDIR") {
    return {
      reason: `the [forge] root ${root} is a file, not a folder of repositories; fix root in lore.toml`,
      reason_ru: `корень [forge] ${root} — файл, а не папка репозиториев; исправьте root в lore.toml`,
    };
  }
  const code = error.code ?? "error";
  return {
    reason: `the [forge] root ${root} cannot be read (${code})`,
    reason_ru: `корень [forge] ${root} не читается (${code})`,
  };
}
