import type { ActiveTask } from "../../core/wiki/tasks-status.js";
import { checkWikiIndex } from "../../core/wiki/wiki-index-check.js";
import type { CacheFile, ProjectStatus, SyncError } from "./projects-cache.js";

/** What a project's cached wiki index holds, as sync and projects_status count it. */
export interface WikiCounts {
  /** Pages the index lists (what ask_projects can serve). */
  pages: number;
  /** Lines that link pages but could not be read (see `lore wiki check`). */
  lines_not_read: number;
  /** Lines and headings read although not canonical (`-- title`, no title, `## Concepts · 12`). */
  lines_with_warnings: number;
  /** One line for people: `wiki: 41 pages, 3 lines not read`. */
  summary: string;
}

/**
 * Counts a project's cached wiki index: pages read, lines not read, lines read with a
 * warning, and the one-line summary (`wiki: 41 pages, 3 lines not read`; `wiki: none`;
 * `wiki: unreadable — <reason>`; `wiki: empty`).
 *
 * @param project - a cached project.
 * @returns the counts, or `null` when the project has no wiki and none failed to read.
 */
export function wikiCounts(project: ProjectStatus): WikiCounts | null {
  if (project.wiki_index === undefined) {
    if (project.wiki_error === undefined) return null;
    return {
      pages: 0,
      lines_not_read: 0,
      lines_with_warnings: 0,
      summary: `wiki: unreadable — ${project.wiki_error}`,
    };
  }
  const report = checkWikiIndex(project.wiki_index);
  const pages = report.entries.length;
  const notRead = report.unread.length;
  const parts = [`${pages} page${pages === 1 ? "" : "s"}`];
  if (notRead > 0) parts.push(`${notRead} line${notRead === 1 ? "" : "s"} not read`);
  const stale =
    project.wiki_error === undefined ? "" : ` (kept; last read failed: ${project.wiki_error})`;
  return {
    pages,
    lines_not_read: notRead,
    lines_with_warnings: report.warnings.length,
    summary:
      pages === 0 && notRead === 0 ? `wiki: empty${stale}` : `wiki: ${parts.join(", ")}${stale}`,
  };
}

/** One cached project as `projects.status` shows it (the raw files left out). */
export interface ProjectStatusView {
  name: string;
  default_branch: string;
  /** True when the repository has `.wiki/index.md`. */
  has_wiki: boolean;
  /** Pages its index lists (0 without a wiki); non-canonical lines that were read count. */
  wiki_pages: number;
  /** Lines of its index that link pages but could not be read (0 without a wiki). */
  wiki_lines_not_read: number;
  /** `wiki: 41 pages, 3 lines not read`, `wiki: none`, `wiki: empty`, `wiki: unreadable — …`. */
  wiki: string;
  /** Why the last sync could not read the repository; the entry is then from `fetched_at`. */
  sync_error?: string;
  /** Tasks whose status is not `done`. */
  active_tasks: ActiveTask[];
  all_tasks_count: number;
  fetched_at: string;
}

/** `projects.status` (federation, “Tools”): the cache as an agent needs it. */
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
  /**
   * Repositories that could not be read, each with `kept_from` and `kept_age_seconds` when
   * its last good entry was kept.
   */
  errors: (SyncError & { kept_age_seconds?: number })[];
  /** Per project with a wiki: `{ project, pages, lines_not_read, summary }`, in cache order. */
  wikis: { project: string; pages: number; lines_not_read: number; summary: string }[];
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
    projects: cache.projects.map((p) => {
      const counts = wikiCounts(p);
      return {
        name: p.name,
        default_branch: p.default_branch,
        has_wiki: p.wiki_index !== undefined,
        wiki_pages: counts?.pages ?? 0,
        wiki_lines_not_read: counts?.lines_not_read ?? 0,
        wiki: counts?.summary ?? "wiki: none",
        active_tasks: p.active_tasks,
        all_tasks_count: p.all_tasks_count,
        fetched_at: p.fetched_at,
        ...(p.sync_error === undefined ? {} : { sync_error: p.sync_error }),
      };
    }),
    errors: cache.errors,
  };
}

/**
 * The summary `projects.sync` and `lore sync` print: counts, the repositories that failed
 * (with the age of the entry kept for each), and each wiki's pages and lines not read.
 *
 * @param cache - the cache just written.
 * @param now - the current time (for the ages). Default: now.
 */
export function syncSummary(cache: CacheFile, now: Date = new Date()): SyncSummary {
  const wikis: SyncSummary["wikis"] = [];
  for (const p of cache.projects) {
    const counts = wikiCounts(p);
    if (counts !== null)
      wikis.push({
        project: p.name,
        pages: counts.pages,
        lines_not_read: counts.lines_not_read,
        summary: counts.summary,
      });
  }
  const age = (iso: string) => Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 1000));
  return {
    synced_at: cache.synced_at,
    synced_from: cache.synced_from,
    projects: cache.projects.length,
    with_wiki: cache.projects.filter((p) => p.wiki_index !== undefined).length,
    active_tasks: cache.projects.reduce((n, p) => n + p.active_tasks.length, 0),
    errors: cache.errors.map((e) =>
      e.kept_from === undefined ? e : { ...e, kept_age_seconds: age(e.kept_from) },
    ),
    wikis,
  };
}
