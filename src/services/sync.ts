import { parseStatusMd, summarizeStatus } from "../core/tasks-status.js";
import type { Backend, ForgeRepo } from "../ports/forge.js";
import { mapWithConcurrency } from "./bounded-pool.js";
import {
  type CacheFile,
  type ProjectStatus,
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
}

type Outcome =
  | { kind: "skip" }
  | { kind: "project"; data: ProjectStatus }
  | { kind: "error"; data: SyncError };

async function syncOne(
  options: RunSyncOptions,
  repo: ForgeRepo,
  now: () => Date,
): Promise<Outcome> {
  const { forge, owner } = options;
  try {
    const [tasksRaw, wikiIndex] = await Promise.all([
      forge.getRawFile(owner, repo.name, TASKS_STATUS_PATH, repo.default_branch),
      // A wiki fetch failure must not break the repository's entry: degrade silently (seed 001 Task 2.6).
      forge.getRawFile(owner, repo.name, WIKI_INDEX_PATH, repo.default_branch).catch(() => null),
    ]);
    if (tasksRaw === null && wikiIndex === null) return { kind: "skip" };
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
    return { kind: "project", data };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "error", data: { project: repo.name, reason } };
  }
}

/**
 * Lists the forge's repositories and caches each one's `.tasks/STATUS.md` and
 * `.wiki/index.md` (seed 000 "Sync extension", seed 001 Task 2.6).
 *
 * Per repository, in a bounded pool, both files are read in parallel at the default
 * branch: neither → skipped; either → a {@link ProjectStatus} (`raw: ""`, no tasks without
 * STATUS.md; `wiki_index` absent without an index); a failed wiki read counts as no wiki
 * (silently); any other failure (STATUS.md read, bad repository) → `errors`, the others
 * go on. Projects and errors keep the forge's listing order.
 *
 * @param options - see {@link RunSyncOptions}.
 * @returns the new cache (not written; see {@link syncToCache}).
 * @throws the forge's LoreError when the repository list itself cannot be read
 *   (`forge_unauthorized`, `forge_unavailable`, `forge_failed`, `git_failed`).
 */
export async function runSync(options: RunSyncOptions): Promise<CacheFile> {
  const now = options.now ?? (() => new Date());
  const repos = await options.forge.listUserRepos();
  const outcomes = await mapWithConcurrency(
    repos,
    options.concurrency ?? DEFAULT_SYNC_CONCURRENCY,
    (repo) => syncOne(options, repo, now),
  );
  const projects: ProjectStatus[] = [];
  const errors: SyncError[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "project") projects.push(outcome.data);
    else if (outcome.kind === "error") errors.push(outcome.data);
  }
  return {
    synced_at: now().toISOString(),
    synced_from: options.syncedFrom,
    machine: options.machine,
    projects,
    errors,
  };
}

/**
 * Runs {@link runSync} and writes the result to `cacheFile` atomically (temp + rename);
 * when the sync throws, the old cache stays untouched.
 *
 * @param options - {@link RunSyncOptions} plus `cacheFile`, the path of `cache.json`.
 * @returns the cache written.
 * @throws as {@link runSync}, and the file system's error when the cache cannot be written.
 */
export async function syncToCache(
  options: RunSyncOptions & { cacheFile: string },
): Promise<CacheFile> {
  const cache = await runSync(options);
  await writeCache(options.cacheFile, cache);
  return cache;
}
