/**
 * Indexing one path the user names — a git repository at a commit, its working files, or a
 * plain folder holding `.gitriver/knowledge/` — under the repository's identity, and
 * recording it in `repositories` (seed 004, "Указатель"; `lore index`, `lore mcp`).
 */
import { existsSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Lang } from "../../core/errors/localized-text.js";
import { isLoreError } from "../../core/errors/lore-error.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { GitRepo } from "../../ports/git-repo.js";
import { indexFolder } from "./index-folder.js";
import { type IndexProgress, type IndexReport, KNOWLEDGE_PREFIX } from "./index-knowledge.js";
import { indexRepository } from "./index-repo.js";

/** A git repository as the indexing of a target needs it (the git CLI adapter implements it). */
export interface TargetRepo extends GitRepo {
  /** The work tree top of a clone, or the bare repository's folder. */
  readonly dir: string;
  readonly bare: boolean;
  /** See `GitCliRepo.identity`. */
  identity(): Promise<string>;
  /** See `GitCliRepo.changedFiles`. */
  changedFiles(prefix: string): Promise<string[]>;
}

/** What indexing a target needs. */
export interface IndexTargetDeps {
  index: EntryIndex;
  lang: Lang;
  log: (line: string) => void;
  /**
   * Opens a git repository.
   * @throws LoreError `not_a_repository`, `path_not_found`.
   */
  openRepo(dir: string): Promise<TargetRepo>;
}

/** Options of {@link indexTarget}. */
export interface IndexTargetOptions {
  /** The revision of a git repository to index. Default: HEAD. */
  commit?: string;
  /** Index the working files of a git repository instead of a commit (`--worktree`). */
  worktree?: boolean;
  /** Called after each batch (files done, total, bytes, elapsed ms). */
  onProgress?: (progress: IndexProgress) => void;
  /** Stops the run (see `IndexKnowledgeOptions.signal`). */
  signal?: AbortSignal;
  /**
   * Do nothing when the repository's stored commit is the commit to index and it was
   * read from the same folder: a restart with nothing changed is O(1). Default: false.
   */
  skipWhenCurrent?: boolean;
}

/** The index report plus what was indexed. */
export interface IndexRun extends IndexReport {
  /** The absolute path indexed: a repository's top, or a folder. */
  target: string;
  /** `git` when read from a commit, `folder` when read from the disk. */
  kind: "git" | "folder";
  /** The working files were indexed (`--worktree`). */
  worktree: boolean;
  /** True when nothing was done: the stored commit is current (see `skipWhenCurrent`). */
  current: boolean;
  /**
   * Entry files whose working or staged copy differs from the commit indexed (HEAD); not
   * indexed (`--worktree` would). Empty unless HEAD of a clone was indexed.
   */
  notIndexed: string[];
}

const hasKnowledgeFolder = (dir: string) => existsSync(join(dir, ".gitriver", "knowledge"));

/**
 * Indexes one path under its identity (see `core/repos/repo-identity.ts`) and records the
 * repository (path, kind, commit, time). A folder holding `.gitriver/knowledge/` that is
 * not the top of a git work tree is read from the disk; so is a git repository with no
 * commit yet. When the same folder was stored under another identity before (a remote was
 * added), that stale copy is dropped.
 *
 * @throws LoreError `path_not_found`, `not_a_repository`, `git_failed`, `index_failed`;
 *   the signal's reason when aborted.
 */
export async function indexTarget(
  deps: IndexTargetDeps,
  target: string,
  opts: IndexTargetOptions = {},
): Promise<IndexRun> {
  const { index } = deps;
  const common = {
    index,
    lang: deps.lang,
    ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }),
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
  };
  const record = (repo: string, path: string, kind: "git" | "folder", commit: string | null) => {
    index.transaction(() => {
      for (const stale of index.repositoriesAt(path)) {
        if (stale.repo !== repo) index.forgetRepository(stale.repo);
      }
      index.putRepository({ repo, path, kind, commit, indexedAt: Date.now() });
    });
  };
  // The same folder under another identity is dropped after the run (see `record`).
  const supersededAt = (path: string, repo: string) =>
    index
      .repositoriesAt(path)
      .map((stale) => stale.repo)
      .filter((stale) => stale !== repo);
  const fromFolder = async (dir: string, identity: string, kind: "git" | "folder") => {
    const supersedes = supersededAt(dir, identity);
    const report = await indexFolder({ ...common, dir, repoName: identity, supersedes });
    record(identity, dir, kind, null);
    return {
      ...report,
      target: dir,
      kind: "folder" as const,
      worktree: kind === "git",
      current: false,
      notIndexed: [],
    };
  };
  const dir = resolve(target);
  let repo: TargetRepo;
  try {
    repo = await deps.openRepo(dir);
  } catch (error) {
    const notGit = isLoreError(error) && error.code === "not_a_repository";
    if (notGit && hasKnowledgeFolder(dir)) return fromFolder(dir, dir, "folder");
    throw error;
  }
  try {
    // A folder with its own knowledge inside someone else's work tree is that folder.
    if (!repo.bare && hasKnowledgeFolder(dir) && realpathSync(dir) !== realpathSync(repo.dir)) {
      return await fromFolder(dir, dir, "folder");
    }
    const identity = await repo.identity();
    if (opts.worktree === true && !repo.bare) return await fromFolder(repo.dir, identity, "git");
    let commit = opts.commit;
    if (commit === undefined) {
      try {
        commit = await repo.resolveCommit();
      } catch (error) {
        if (repo.bare || !hasKnowledgeFolder(repo.dir)) throw error;
        deps.log(
          deps.lang === "ru"
            ? `lore: в ${repo.dir} ещё нет коммита; читаю файлы с диска`
            : `lore: ${repo.dir} has no commit yet; reading the files from the disk`,
        );
        return await fromFolder(repo.dir, identity, "git");
      }
    }
    const stored = index.repository(identity);
    if (opts.skipWhenCurrent === true && stored?.commit === commit && stored.path === repo.dir) {
      return {
        ...emptyReport(identity, commit),
        target: repo.dir,
        kind: "git",
        worktree: false,
        current: true,
        notIndexed: [],
      };
    }
    const report = await indexRepository({
      ...common,
      repo,
      repoName: identity,
      commit,
      supersedes: supersededAt(repo.dir, identity),
    });
    opts.signal?.throwIfAborted();
    record(identity, repo.dir, "git", commit);
    const notIndexed =
      opts.commit === undefined && !repo.bare ? await repo.changedFiles(KNOWLEDGE_PREFIX) : [];
    return {
      ...report,
      target: repo.dir,
      kind: "git",
      worktree: false,
      current: false,
      notIndexed,
    };
  } finally {
    await repo.close();
  }
}

function emptyReport(repo: string, commit: string): IndexReport {
  return {
    repo,
    commit,
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    skipped: 0,
    deferred: 0,
    read: 0,
    diagnostics: [],
    diagnosticsOmitted: 0,
    lines: [],
  };
}

/**
 * The notice for entry files that differ from HEAD (`lore index`): `2 entry files differ
 * from HEAD and were not indexed: a.md, b.md — commit them, or --worktree`.
 *
 * @param paths - the files (repository-relative).
 * @param lang - the language.
 * @returns the line, or `undefined` when there are none.
 */
export function notIndexedNotice(paths: readonly string[], lang: Lang): string | undefined {
  if (paths.length === 0) return undefined;
  const shown = paths.slice(0, 10).join(", ") + (paths.length > 10 ? ", …" : "");
  const n = paths.length;
  return lang === "ru"
    ? `${n} ${n === 1 ? "файл записи отличается" : "файлов записей отличаются"} от HEAD и ${n === 1 ? "не проиндексирован" : "не проиндексированы"}: ${shown} — закоммитьте ${n === 1 ? "его" : "их"} или --worktree [worktree_differs]`
    : `${n} entry file${n === 1 ? " differs" : "s differ"} from HEAD and ${n === 1 ? "was" : "were"} not indexed: ${shown} — commit ${n === 1 ? "it" : "them"}, or --worktree [worktree_differs]`;
}
