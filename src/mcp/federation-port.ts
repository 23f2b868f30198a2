import type { WikiPageType } from "../core/wiki/wiki-index.js";
import type { WikiCheckReport } from "../core/wiki/wiki-index-check.js";
import type { AskProjectsAnswer, AskProjectsInput } from "../services/federation/ask-projects.js";
import type { CreatedTask, CreateTaskInput } from "../services/federation/create-task.js";
import type { ProjectPage } from "../services/federation/get-from.js";
import type { ProjectsStatus, SyncSummary } from "../services/federation/projects-status.js";
import type { IngestInput, IngestResult } from "../services/wiki/ingest-page.js";
import type { PromoteReport, PromoteResult } from "../services/wiki/promote-page.js";
import type { WikiPage, WikiSearchAnswer, WikiSearchInput } from "../services/wiki/wiki-search.js";

/**
 * What the federation tools need (seeds 000/001): the shared wiki, other
 * projects through the forge and the sync cache, the current project's wiki, tasks.
 * `main/compose-federation.ts` binds it to the configured forge, cache and folders.
 *
 * Every method takes `caller`, the name the refusal should mention (the exposed tool name,
 * or a CLI command), and throws LoreError `federation_disabled` — saying which setting to
 * add — when what it needs is not configured; the other methods keep working.
 */
export interface FederationPort {
  /**
   * Substring search over the shared wiki (slug + title, then body).
   * @throws LoreError `federation_disabled` (no `[wiki] shared`).
   */
  searchShared(input: WikiSearchInput, caller: string): Promise<WikiSearchAnswer>;
  /**
   * One page of the shared wiki.
   * @throws LoreError `federation_disabled`, `invalid_slug`, `page_not_found`.
   */
  getShared(slug: string, caller: string): Promise<WikiPage>;
  /**
   * Seed 000 `knowledge.ask_projects` (`input.signal`: no page read starts after a cancel).
   * @throws LoreError `federation_disabled` (no forge or no cache), `cache_invalid`,
   *   `cancelled`.
   */
  askProjects(input: AskProjectsInput, caller: string): Promise<AskProjectsAnswer>;
  /**
   * Seed 000 `knowledge.get_from`.
   * @throws LoreError `federation_disabled`, `invalid_slug`, `project_unknown`,
   *   `page_not_found`, `fetch_failed`, `cache_invalid`.
   */
  getFrom(project: string, slug: string, caller: string): Promise<ProjectPage>;
  /**
   * Writes a page into the current project's wiki, or another project's through the forge.
   * `signal` (the request's): once aborted, no further file is written (`cancelled`).
   * @throws LoreError `federation_disabled` (target_project without a forge),
   *   `invalid_input`, `invalid_slug`, `cancelled`, the forge's codes.
   */
  ingest(input: IngestInput, caller: string, signal?: AbortSignal): Promise<IngestResult>;
  /**
   * Pages of the current project's wiki that the shared wiki lacks, and the folders skipped
   * (a symlinked type folder: `symlinked_type_folder`).
   * @throws LoreError `federation_disabled` (no shared wiki).
   */
  suggestPromote(caller: string): Promise<PromoteReport>;
  /**
   * Copies one page of the current project's wiki into the shared wiki and its index.
   * @throws LoreError `federation_disabled`, `invalid_slug`, `page_not_found`, `file_exists`.
   */
  promote(slug: string, caller: string): Promise<PromoteResult>;
  /**
   * Adds a task (file + STATUS.md row) to a project through the forge.
   * @throws LoreError `federation_disabled`, `invalid_input`, the forge's codes.
   */
  createTask(input: CreateTaskInput, caller: string): Promise<CreatedTask>;
  /**
   * Syncs the forge into the cache. `signal` (the request's): once aborted, no further
   * repository is read and the cache is left as it was (`cancelled`).
   * @throws LoreError `federation_disabled`, `cancelled`, the forge's codes.
   */
  sync(caller: string, signal?: AbortSignal): Promise<SyncSummary>;
  /**
   * The cached projects, their active tasks, wiki presence and the cache's age.
   * @throws LoreError `federation_disabled` (no cache), `cache_invalid`.
   */
  status(caller: string): Promise<ProjectsStatus>;
  /**
   * Checks wiki indexes for `lore wiki check`: a folder or index file (`path`; default the
   * current project's `.wiki/`), one cached project (`project`), or every cached project
   * with a wiki (`all`).
   * @returns one report per index, `report: null` when that wiki has no index.md.
   * @throws LoreError `federation_disabled` (a cached project without a cache),
   *   `project_unknown`, `cache_invalid`.
   */
  checkIndexes(
    target: { path?: string; project?: string; all?: boolean },
    caller: string,
  ): Promise<{ name: string; report: WikiCheckReport | null }[]>;
}

/** Page types as the tools accept them. */
export type { WikiPageType };
