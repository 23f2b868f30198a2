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
 * repository already under way is joined, not repeated — and once the joined heal ends,
 * the default branch's head is compared again with the head the joiner saw, and healed
 * again when the branch moved meanwhile (the joined heal may have aimed at an older head);
 * a heal that waits for another process's write lock re-reads the recorded commit once it
 * holds it, so work another process did is not redone. Each caller waits for the write
 * lock (its own heal's, or the one it joins, or the heals queued before it on the
 * connection) at most its own `lockWaitMs`: a push passes {@link PUSH_LOCK_WAIT_MS}.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Diagnostic } from "../../core/entry/diagnostic.js";
import type { Lang } from "../../core/errors/localized-text.js";
import { LoreError } from "../../core/errors/lore-error.js";
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
  /**
   * Longest wait for the index's write lock (held by another process, or by an earlier heal
   * on the same connection), ms. Default: {@link READ_LOCK_WAIT_MS}.
   */
  lockWaitMs?: number;
  /**
   * When the write lock is taken and the knowledge files are the same at the recorded
   * commit and at the head (a push that changed no knowledge file), return `deferred` at
   * once instead of waiting: the entries are right already, and only the recorded commit
   * lags until the next heal (the next read's). Default: false (wait).
   */
  deferUnchanged?: boolean;
}

/** The longest wait of a read's heal for the index's write lock, ms (10 min). */
export const READ_LOCK_WAIT_MS = 600_000;

/**
 * The longest wait of a push's index update for the index's write lock, ms (seed 004,
 * "Разбор при отправке": the push always goes through). A `lore index` or a heal of a large
 * repository holding the lock longer makes the update give up — the push is accepted and
 * its index is brought up to date by the next read — rather than stall the pusher.
 */
export const PUSH_LOCK_WAIT_MS = 3_000;

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
  /**
   * `current` (nothing to do), `incremental`, `full`, `dropped` (no default branch), or
   * `deferred` (`HealDeps.deferUnchanged`: the lock was taken and no knowledge file changed;
   * the recorded commit is left for the next heal).
   */
  how: "current" | "incremental" | "full" | "dropped" | "deferred";
  /** The commit the index reflects now (`null` after `dropped`; the recorded one after `deferred`). */
  commit: string | null;
  /** The index report of the run (absent for `current` and `dropped`). */
  report?: IndexReport;
}

/** Pause between tries for another process's write lock, ms. */
const LOCK_POLL_MS = 25;

/** A heal under way: its result, and a promise settled once it holds the write lock (or ended). */
interface RunningHeal {
  job: Promise<HealResult>;
  locked: Promise<void>;
}

/** Per index connection: the tail of its heal queue, and heals under way by repository. */
const queues = new WeakMap<
  EntryIndex,
  { tail: Promise<unknown>; running: Map<string, RunningHeal> }
>();

/**
 * Brings the index of one hosted repository up to its default branch's head when they
 * differ (see the module header). Cheap when they do not: one `git rev-parse` and one
 * SQLite read.
 *
 * @param deps - see {@link HealDeps}.
 * @param repo - the repository: `fullName`, `dir`, `defaultBranch`.
 * @throws LoreError `git_failed` when git fails; `index_failed` / SQLite errors of the
 *   index, also when the write lock stayed taken past `lockWaitMs`.
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
  const waitMs = deps.lockWaitMs ?? READ_LOCK_WAIT_MS;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const git = deps.openRepo(repo.dir);
    let head: string | undefined;
    try {
      head = await git.refCommit(`refs/heads/${repo.defaultBranch}`);
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
    if (under !== undefined) {
      // Joined: the lock waited for at most this caller's own bound; then, the branch may
      // have moved past the head the joined heal aimed at: compare again.
      await withinDeadline(under.locked, deadline, waitMs);
      const result = await under.job;
      if (result.commit === (head ?? null) && result.how !== "deferred") return result;
      continue;
    }
    const own = queue;
    const before = own.tail;
    let onLocked = () => {};
    const locked = new Promise<void>((resolve) => {
      onLocked = resolve;
    });
    const job = (async () => {
      // The heals queued before this one on the connection hold (or wait for) its lock.
      await withinDeadline(before, deadline, waitMs);
      return healLocked(deps, repo, deadline, waitMs, onLocked);
    })();
    const settled = job.finally(onLocked);
    // The queue goes on only once the earlier heals ended too (this one may give up first).
    own.tail = Promise.allSettled([before, settled]);
    own.running.set(repo.fullName, { job: settled, locked });
    try {
      return await settled;
    } finally {
      if (own.running.get(repo.fullName)?.job === settled) own.running.delete(repo.fullName);
    }
  }
}

/** The refusal of a heal that waited `waitMs` for the write lock in vain. */
function lockedOut(waitMs: number): LoreError {
  const seconds = Math.max(1, Math.round(waitMs / 1000));
  return new LoreError("index_failed", {
    reason: `the index's write lock stayed taken for ${seconds} s (another process or a heal under way); the next read brings the index up to date`,
    reason_ru: `блокировка записи указателя была занята ${seconds} с (другой процесс или идущее восстановление); указатель догонит ветку при следующем чтении`,
  });
}

/** Waits for `promise` to settle (its outcome ignored) until `deadline`, else throws {@link lockedOut}. */
async function withinDeadline(
  promise: Promise<unknown>,
  deadline: number,
  waitMs: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now()));
  });
  try {
    const first = await Promise.race([
      promise.then(
        () => "done" as const,
        () => "done" as const,
      ),
      late,
    ]);
    if (first === "late") throw lockedOut(waitMs);
  } finally {
    clearTimeout(timer);
  }
}

/** One heal inside one write transaction (see the module header). */
async function healLocked(
  deps: HealDeps,
  target: HealTarget,
  deadline: number,
  waitMs: number,
  onLocked: () => void,
): Promise<HealResult> {
  const { index } = deps;
  let first = true;
  while (!index.tryBeginWrite()) {
    if (first && deps.deferUnchanged === true) {
      const deferred = await unchangedKnowledge(deps, target);
      if (deferred !== undefined) return deferred;
    }
    first = false;
    if (Date.now() > deadline) throw lockedOut(waitMs);
    await sleep(LOCK_POLL_MS);
  }
  onLocked();
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

/**
 * `deferred` when the recorded commit exists, is recorded for this folder, and no
 * knowledge file differs between it and the head (see `HealDeps.deferUnchanged`); else
 * `undefined` (the heal has work to do).
 */
async function unchangedKnowledge(
  deps: HealDeps,
  target: HealTarget,
): Promise<HealResult | undefined> {
  const repo = deps.openRepo(target.dir);
  try {
    const stored = deps.index.repository(target.fullName);
    const head = await repo.refCommit(`refs/heads/${target.defaultBranch}`);
    const from = stored?.commit ?? null;
    if (from === null || head === undefined || stored?.path !== repo.dir) return undefined;
    if (!(await repo.hasCommit(from))) return undefined;
    const changes = await repo.changedKnowledge(from, head, KNOWLEDGE_PREFIX);
    return changes.length === 0 ? { how: "deferred", commit: from } : undefined;
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
