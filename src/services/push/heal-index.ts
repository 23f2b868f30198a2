/**
 * Keeping a hosted repository's index at its default branch's head (seed 004, "Разбор при
 * отправке": «если указатель на миг разошёлся с деревом, расхождение снимается само при
 * следующем чтении, без действий администратора»). The index records per repository the
 * commit it reflects (`repositories.commit_sha`); `post-receive` and every read call
 * {@link healRepoIndex}, which does nothing when that commit is the head and otherwise
 * brings the index there: incrementally, from the diff between the recorded commit and the
 * head, when the recorded commit still exists (a normal push, a force push, a push from
 * elsewhere); by a full re-index when it does not (the history was rewritten and pruned)
 * or nothing was recorded.
 *
 * Concurrency: one heal of a repository runs in one SQLite write transaction (all or
 * nothing: a hook killed mid-way leaves the previous index and its recorded commit, and
 * the next read heals); heals on one connection run one at a time and a heal of a
 * repository already under way is joined, not repeated; a heal that waits for another
 * process's write lock re-reads the recorded commit once it holds it, so work another
 * process did is not redone.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Diagnostic } from "../../core/entry/diagnostic.js";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgeChange } from "../../core/push/knowledge-changes.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { KnowledgeBlob } from "../../ports/git-repo.js";
import type { PushRepo } from "../../ports/push-repo.js";
import { comparePaths } from "../indexing/duplicate-ids.js";
import {
  type IndexReport,
  type IndexWriter,
  indexKnowledge,
  KNOWLEDGE_PREFIX,
  type KnowledgeSource,
  type TreeView,
} from "../indexing/index-knowledge.js";
import { indexRepository, readInOrder } from "../indexing/index-repo.js";

/** What a heal needs (bound by `main/compose-hook.ts` and the server's composition). */
export interface HealDeps {
  /**
   * The index connection the heal writes through. Reads on the same connection while a
   * heal runs see its uncommitted writes: a server passes a connection of its own for
   * writing (as `IndexRefresher` does), a hook its only one.
   */
  index: EntryIndex;
  /**
   * Opens the bare repository for reading, with the isolated git environment (the pushed
   * objects are in the repository by then). The heal closes it.
   */
  openRepo(dir: string): PushRepo;
  /** The language of logged report lines. Default: `en`. */
  lang?: Lang;
  /** Logs what a heal did (one line). Default: nothing. */
  log?: (line: string) => void;
  /** Longest wait for another process's write lock, ms. Default: 600 000. */
  lockWaitMs?: number;
}

/** A hosted repository, as a heal names it. */
export interface HealTarget {
  /** `owner/name`: the repository's name in the index (the `repo` column). */
  fullName: string;
  /** The bare repository's folder. */
  dir: string;
  /** The default branch (`main`): the only one whose files are indexed. */
  defaultBranch: string;
}

/** What {@link updateRepoIndex} did. */
export interface HealResult {
  /** `current` (nothing to do), `incremental`, `full`, or `dropped` (no default branch). */
  how: "current" | "incremental" | "full" | "dropped";
  /** The commit the index reflects now (`null` after `dropped`). */
  commit: string | null;
  /** The index report of the run (absent for `current` and `dropped`). */
  report?: IndexReport;
}

/** Pause between tries for another process's write lock, ms. */
const LOCK_POLL_MS = 25;

/** Per index connection: the tail of its heal queue, and heals under way by repository. */
const queues = new WeakMap<
  EntryIndex,
  { tail: Promise<unknown>; running: Map<string, Promise<HealResult>> }
>();

/**
 * Brings the index of one hosted repository up to its default branch's head when they
 * differ (see the module header). Cheap when they do not: one `git rev-parse` and one
 * SQLite read.
 *
 * @param deps - see {@link HealDeps}.
 * @param repo - the repository: `fullName`, `dir`, `defaultBranch`.
 * @throws LoreError `git_failed` when git fails; `index_failed` / SQLite errors of the
 *   index; an Error when another process holds the index's write lock past `lockWaitMs`.
 */
export async function healRepoIndex(deps: HealDeps, repo: HealTarget): Promise<void> {
  await updateRepoIndex(deps, repo);
}

/**
 * {@link healRepoIndex} with its result: how the index was brought up to date.
 *
 * @returns what was done and the commit the index now reflects.
 */
export async function updateRepoIndex(deps: HealDeps, repo: HealTarget): Promise<HealResult> {
  const git = deps.openRepo(repo.dir);
  try {
    const head = await git.refCommit(`refs/heads/${repo.defaultBranch}`);
    const stored = deps.index.repository(repo.fullName);
    if (head !== undefined && stored?.commit === head && stored.path === git.dir) {
      return { how: "current", commit: head };
    }
    if (head === undefined && stored === undefined) return { how: "current", commit: null };
  } finally {
    await git.close();
  }
  let queue = queues.get(deps.index);
  if (queue === undefined) {
    queue = { tail: Promise.resolve(), running: new Map() };
    queues.set(deps.index, queue);
  }
  const under = queue.running.get(repo.fullName);
  if (under !== undefined) return under;
  const job = queue.tail.then(() => healLocked(deps, repo));
  const own = queue;
  own.tail = job.catch(() => undefined);
  own.running.set(repo.fullName, job);
  try {
    return await job;
  } finally {
    if (own.running.get(repo.fullName) === job) own.running.delete(repo.fullName);
  }
}

/** One heal inside one write transaction (see the module header). */
async function healLocked(deps: HealDeps, target: HealTarget): Promise<HealResult> {
  const { index } = deps;
  const until = Date.now() + (deps.lockWaitMs ?? 600_000);
  while (!index.tryBeginWrite()) {
    if (Date.now() > until) throw new Error("the index stayed locked by another process");
    await sleep(LOCK_POLL_MS);
  }
  const repo = deps.openRepo(target.dir);
  try {
    const result = await healInTransaction(deps, repo, target);
    index.commitWrite();
    if (result.how !== "current") {
      deps.log?.(
        `lore: ${target.fullName}: index ${result.how === "dropped" ? "dropped (no default branch)" : `at ${result.commit?.slice(0, 12)} (${result.how})`}`,
      );
    }
    return result;
  } catch (error) {
    index.rollbackWrite();
    throw error;
  } finally {
    await repo.close();
  }
}

async function healInTransaction(
  deps: HealDeps,
  repo: PushRepo,
  target: HealTarget,
): Promise<HealResult> {
  const { index } = deps;
  const lang = deps.lang ?? "en";
  // Read again under the lock: another process may have healed meanwhile.
  const head = await repo.refCommit(`refs/heads/${target.defaultBranch}`);
  const stored = index.repository(target.fullName);
  if (head === undefined) {
    if (stored === undefined) return { how: "current", commit: null };
    index.forgetRepository(target.fullName);
    return { how: "dropped", commit: null };
  }
  if (stored?.commit === head && stored.path === repo.dir) return { how: "current", commit: head };
  const from = stored?.commit ?? null;
  let report: IndexReport;
  let how: HealResult["how"];
  if (from !== null && (await repo.hasCommit(from))) {
    const changes = await repo.changedKnowledge(from, head, KNOWLEDGE_PREFIX);
    // Only the changed paths' stored rows are read; the unchanged files are looked up one
    // by one when a run asks (a freed duplicate id), never listed.
    const stored = new Map<string, string>();
    for (const change of changes) {
      for (const path of [change.path, change.oldPath]) {
        const sha = path === undefined ? undefined : index.fileSha(target.fullName, path);
        if (path !== undefined && sha !== undefined) stored.set(path, sha);
      }
    }
    const source = await changedSource(repo, changes, {
      has: (path) => index.fileSha(target.fullName, path) !== undefined,
      get: (path) => {
        const sha = index.fileSha(target.fullName, path);
        return sha === undefined ? undefined : { path, sha, size: 0 };
      },
    });
    report = await indexKnowledge({
      index: listedOnce(index, stored),
      source,
      repoName: target.fullName,
      commit: head,
      gitFolder: repo.dir,
      lang,
    });
    how = "incremental";
  } else {
    report = await indexRepository({
      index,
      repo,
      repoName: target.fullName,
      commit: head,
      lang,
    });
    how = "full";
  }
  index.putRepository({
    repo: target.fullName,
    path: repo.dir,
    kind: "git",
    commit: head,
    indexedAt: Date.now(),
  });
  return { how, commit: head, report };
}

/**
 * The index as `indexKnowledge` writes through, `listFiles` answering with the stored rows
 * of the changed paths only (see `KnowledgeSource.others`): every other method goes to
 * `index`.
 */
function listedOnce(index: EntryIndex, stored: Map<string, string>): IndexWriter {
  // The skipped files' reports are read after the writes, twice (the duplicate re-check and
  // the report): the second read is the first one's answer unless something was written.
  let skipped: Map<string, Diagnostic[]> | undefined;
  return {
    listFiles: () => stored,
    putFile: (file) => {
      skipped = undefined;
      return index.putFile(file);
    },
    deleteFile: (repo, path) => {
      skipped = undefined;
      index.deleteFile(repo, path);
    },
    setBodySource: (repo, folder) => index.setBodySource(repo, folder),
    preloadBodies: (repo, paths) => {
      index.preloadBodies(repo, paths);
    },
    transaction: (fn) => index.transaction(fn),
    idOwners: (source, ids) => index.idOwners(source, ids),
    fileReports: (repo) => index.fileReports(repo),
    skippedReports: (repo) => {
      skipped ??= index.skippedReports(repo);
      return skipped;
    },
    clashes: (repo) => index.clashes(repo),
    pageCacheKib: (kib) => index.pageCacheKib(kib),
    optimize: () => index.optimize(),
  };
}

/**
 * The changed files of the new commit as the indexing service reads them: the added,
 * modified and renamed-to paths with their new blobs (sizes from one `cat-file
 * --batch-check`), in path order; deleted and renamed-from paths are left out, so
 * `indexKnowledge` drops them (a renamed file keeps its id: same entry, new path); `others`
 * answers for the unchanged files.
 */
async function changedSource(
  repo: PushRepo,
  changes: readonly KnowledgeChange[],
  others: TreeView,
): Promise<KnowledgeSource> {
  const sizes = await repo.blobSizes(
    changes.flatMap((change) =>
      change.sha === null || change.refused !== undefined ? [] : [change.sha],
    ),
  );
  const listing: KnowledgeBlob[] = [];
  for (const change of changes) {
    if (change.kind === "deleted" || change.sha === null) continue;
    const blob: KnowledgeBlob = {
      path: change.path,
      sha: change.sha,
      size: sizes.get(change.sha) ?? 0,
    };
    if (change.refused !== undefined) blob.refused = change.refused;
    listing.push(blob);
  }
  listing.sort((a, b) => comparePaths(a.path, b.path));
  return {
    list: async () => listing,
    read: (blobs) => readInOrder(repo, blobs),
    others,
  };
}
