import { isLoreError } from "../../core/errors/lore-error.js";
import { parseStatusMd, summarizeStatus } from "../../core/wiki/tasks-status.js";
import { throwIfCancelled } from "../../core/wiki/wiki-limits.js";
import type { Backend, ForgeRepo } from "../../ports/forge.js";
import { mapWithConcurrency } from "./bounded-pool.js";
import {
  type CacheFile,
  type ProjectStatus,
  readCache,
  type SyncError,
  writeCache,
} from "./projects-cache.js";

/** Path of a project's task board in its repository. */
export const TASKS_STATUS_PATH = ".tasks/STATUS.md";
/** Path of a project's wiki index in its repository. */
export const WIKI_INDEX_PATH = ".wiki/index.md";
/** Default number of repositories read at once. */
export const DEFAULT_SYNC_CONCURRENCY = 8;

/** What {@link runSync} needs. */
export interface RunSyncOptions {
  /** The forge to list and read repositories from. */
  forge: Backend;
  /** Owner passed to the forge's reads (the Gitea user; ignored by the local forge). */
  owner: string;
  /** Goes to `cache.synced_from`: the Gitea URL or the local forge's folder. */
  syncedFrom: string;
  /** Goes to `cache.machine`. */
  machine: string;
  /** The clock, for `fetched_at` / `synced_at`. Default: `() => new Date()`. */
  now?: () => Date;
  /** Most repositories read at once, ≥ 1. Default: {@link DEFAULT_SYNC_CONCURRENCY}. */
  concurrency?: number;
  /**
   * The cache before this sync: a repository that cannot be read now keeps its last good
   * entry from it (with `sync_error`), and a wiki index that cannot be read keeps the
   * previous text. Default: none.
   */
  previous?: CacheFile | null;
  /** The request's abort signal: once aborted, no further repository is read. */
  signal?: AbortSignal;
}

type Outcome =
  | { kind: "skip" }
  | { kind: "project"; data: ProjectStatus }
  | { kind: "error"; data: SyncError; kept?: ProjectStatus };

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function syncOne(
  options: RunSyncOptions,
  repo: ForgeRepo,
  now: () => Date,
  before: ProjectStatus | undefined,
): Promise<Outcome> {
  const { forge, owner, signal } = options;
  const read = { ...(signal === undefined ? {} : { signal }) };
  try {
    throwIfCancelled(signal);
    let wikiError: string | undefined;
    const [tasksRaw, wikiIndex] = await Promise.all([
      forge.getRawFile(owner, repo.name, TASKS_STATUS_PATH, repo.default_branch, {
        ...read,
        limit: "tasksStatusBytes",
      }),
      // A wiki read failure must not break the repository's entry (seed 001 Task 2.6): no
      // `wiki_index` and no sync error, but the reason is kept in `wiki_error`.
      forge
        .getRawFile(owner, repo.name, WIKI_INDEX_PATH, repo.default_branch, {
          ...read,
          limit: "wikiIndexBytes",
        })
        .catch((error: unknown) => {
          if (isLoreError(error) && error.code === "cancelled") throw error;
          wikiError = reasonOf(error);
          return null;
        }),
    ]);
    if (tasksRaw === null && wikiIndex === null && wikiError === undefined) return { kind: "skip" };
    const summary =
      tasksRaw === null
        ? { active_tasks: [], all_tasks_count: 0 }
        : summarizeStatus(parseStatusMd(tasksRaw));
    const data: ProjectStatus = {
      name: repo.name,
      default_branch: repo.default_branch,
      fetched_at: now().toISOString(),
      active_tasks: summary.active_tasks,
      all_tasks_count: summary.all_tasks_count,
      raw: tasksRaw ?? "",
    };
    if (wikiIndex !== null) data.wiki_index = wikiIndex;
    else if (wikiError !== undefined) {
      // A timeout or another failure never replaces a good cached index: keep it.
      if (before?.wiki_index !== undefined) data.wiki_index = before.wiki_index;
      data.wiki_error = wikiError;
    }
    return { kind: "project", data };
  } catch (error) {
    if (isLoreError(error) && error.code === "cancelled") throw error;
    const data: SyncError = { project: repo.name, reason: reasonOf(error) };
    if (before === undefined) return { kind: "error", data };
    // The last good entry stays, with its age (`fetched_at`) and why it is old.
    const kept: ProjectStatus = { ...before, sync_error: data.reason };
    return { kind: "error", data: { ...data, kept_from: before.fetched_at }, kept };
  }
}

/**
 * Lists the forge's repositories and caches each one's `.tasks/STATUS.md` and
 * `.wiki/index.md` (seed 000 "Sync extension", seed 001 Task 2.6).
 *
 * Per repository, in a bounded pool, both files are read in parallel at the default
 * branch (STATUS.md up to 1 MiB, index.md up to 2 MiB): neither → skipped (named in
 * `skipped`); either → a {@link ProjectStatus} (`raw: ""`, no tasks without STATUS.md;
 * `wiki_index` absent without an index); a failed wiki read counts as no wiki for the
 * seed's fields, with the reason in `wiki_error` (and the previous index kept when there
 * was one); any other failure (STATUS.md read, a bad or unreadable repository, a timeout)
 * → `errors` with its code, and the repository's last good entry from `previous` is kept
 * (`sync_error`, `kept_from`) — one unreadable repository never fails the others.
 * Projects and errors keep the forge's listing order.
 *
 * @param options - see {@link RunSyncOptions}.
 * @returns the new cache (not written; see {@link syncToCache}).
 * @throws the forge's LoreError when the repository list itself cannot be read
 *   (`forge_unauthorized`, `forge_unavailable`, `forge_failed`, `git_failed`); `cancelled`
 *   when `signal` was aborted.
 */
export async function runSync(options: RunSyncOptions): Promise<CacheFile> {
  const now = options.now ?? (() => new Date());
  throwIfCancelled(options.signal);
  const repos = await options.forge.listUserRepos();
  const before = new Map((options.previous?.projects ?? []).map((p) => [p.name, p] as const));
  const outcomes = await mapWithConcurrency(
    repos,
    options.concurrency ?? DEFAULT_SYNC_CONCURRENCY,
    (repo) => syncOne(options, repo, now, before.get(repo.name)),
  );
  throwIfCancelled(options.signal);
  const projects: ProjectStatus[] = [];
  const errors: SyncError[] = [];
  const skipped: string[] = [];
  for (const [at, outcome] of outcomes.entries()) {
    if (outcome.kind === "skip") skipped.push(repos[at]?.name ?? "");
    else if (outcome.kind === "project") projects.push(outcome.data);
    else if (outcome.kind === "error") {
      errors.push(outcome.data);
      if (outcome.kept !== undefined) projects.push(outcome.kept);
    }
  }
  return {
    synced_at: now().toISOString(),
    synced_from: options.syncedFrom,
    machine: options.machine,
    projects,
    errors,
    // Only when some repository was skipped, so a cache of seed 001's shape stays as it was.
    ...(skipped.length === 0 ? {} : { skipped }),
  };
}

/**
 * Runs {@link runSync} over the current cache (`previous`, unless given) and writes the
 * result to `cacheFile` atomically (temp + rename); when the sync throws or is cancelled,
 * the old cache stays untouched.
 *
 * @param options - {@link RunSyncOptions} plus `cacheFile`, the path of `cache.json`.
 * @returns the cache written.
 * @throws as {@link runSync}, and the file system's error when the cache cannot be written.
 */
export async function syncToCache(
  options: RunSyncOptions & { cacheFile: string },
): Promise<CacheFile> {
  // The cache being replaced gives each unreadable repository its last good entry.
  const previous =
    options.previous !== undefined
      ? options.previous
      : await readCache(options.cacheFile).catch(() => null);
  const cache = await runSync({ ...options, previous });
  throwIfCancelled(options.signal);
  await writeCache(options.cacheFile, cache);
  return cache;
}
