import type { ActiveTask } from "../core/tasks-status.js";
import { parseWikiIndex } from "../core/wiki-index.js";
import type { CacheFile, SyncError } from "./projects-cache.js";

/** One cached project as `projects.status` shows it (the raw files left out). */
export interface ProjectStatusView {
  name: string;
  default_branch: string;
  /** True when the repository has `.wiki/index.md`. */
  has_wiki: boolean;
  /** Pages its index lists in the canonical layout (0 without a wiki, or a non-canonical index). */
  wiki_pages: number;
  /** Tasks whose status is not `done`. */
  active_tasks: ActiveTask[];
  all_tasks_count: number;
  fetched_at: string;
}

/** `projects.status` (issue 4 "Tools"): the cache as an agent needs it. */
export interface ProjectsStatus {
  /** When the cache was written; `null` when there is no cache yet. */
  synced_at: string | null;
  /** Seconds since `synced_at` (whole); `null` without a cache. */
  age_seconds: number | null;
  synced_from: string | null;
  machine: string | null;
  projects: ProjectStatusView[];
  errors: SyncError[];
}

/** What `projects.sync` answers: counts, not the cache itself. */
export interface SyncSummary {
  synced_at: string;
  synced_from: string;
  /** Repositories with a task board or a wiki. */
  projects: number;
  /** …of them with `.wiki/index.md`. */
  with_wiki: number;
  /** Active tasks over all projects. */
  active_tasks: number;
  /** Repositories that could not be read. */
  errors: SyncError[];
}

/**
 * The cache seen by `projects.status`: each project with its active tasks, whether it has
 * a wiki and how many canonical pages its index lists, plus the cache's age.
 *
 * @param cache - the cache, or `null` when never synced.
 * @param now - the current time.
 */
export function projectsStatus(cache: CacheFile | null, now: Date): ProjectsStatus {
  if (cache === null) {
    return {
      synced_at: null,
      age_seconds: null,
      synced_from: null,
      machine: null,
      projects: [],
      errors: [],
    };
  }
  const age = Math.max(0, Math.floor((now.getTime() - Date.parse(cache.synced_at)) / 1000));
  return {
    synced_at: cache.synced_at,
    age_seconds: Number.isFinite(age) ? age : null,
    synced_from: cache.synced_from,
    machine: cache.machine,
    projects: cache.projects.map((p) => ({
      name: p.name,
      default_branch: p.default_branch,
      has_wiki: p.wiki_index !== undefined,
      wiki_pages: p.wiki_index === undefined ? 0 : parseWikiIndex(p.wiki_index).length,
      active_tasks: p.active_tasks,
      all_tasks_count: p.all_tasks_count,
      fetched_at: p.fetched_at,
    })),
    errors: cache.errors,
  };
}

/**
 * The summary `projects.sync` and `lore sync` print.
 *
 * @param cache - the cache just written.
 */
export function syncSummary(cache: CacheFile): SyncSummary {
  return {
    synced_at: cache.synced_at,
    synced_from: cache.synced_from,
    projects: cache.projects.length,
    with_wiki: cache.projects.filter((p) => p.wiki_index !== undefined).length,
    active_tasks: cache.projects.reduce((n, p) => n + p.active_tasks.length, 0),
    errors: cache.errors,
  };
}
