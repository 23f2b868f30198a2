import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { LoreError } from "../../core/errors/lore-error.js";
import type { ActiveTask } from "../../core/wiki/tasks-status.js";

/**
 * One synced repository in `cache.json` (seed 001, Task 2.1, `ProjectStatus`): exactly
 * these fields.
 */
export interface ProjectStatus {
  /** Repository name. */
  name: string;
  /** Its default branch at sync time (reads of its pages use it). */
  default_branch: string;
  /** When this repository was read, ISO 8601 UTC. */
  fetched_at: string;
  /** Tasks of `.tasks/STATUS.md` whose status is not `done`. */
  active_tasks: ActiveTask[];
  /** Number of task rows in STATUS.md (0 without one). */
  all_tasks_count: number;
  /** Raw `.tasks/STATUS.md` text, `""` when the repository has none. */
  raw: string;
  /** Raw `.wiki/index.md`, absent when the repository has none (seed 000 "Cache extension"). */
  wiki_index?: string;
  /**
   * Why `.wiki/index.md` could not be read at the last sync (over the size limit, a read
   * error, a timeout); absent when it was read or is absent. When the previous sync had
   * read it, `wiki_index` keeps that text.
   */
  wiki_error?: string;
  /**
   * Why the last sync could not read this repository; absent when it could. The entry is
   * then the last good one, from `fetched_at`.
   */
  sync_error?: string;
}

/** A repository sync could not read (anything but a failed wiki fetch). */
export interface SyncError {
  /** Repository name. */
  project: string;
  /** The error's message (English). */
  reason: string;
  /** When the last good entry kept in `projects` for it was read (ISO 8601), if one was. */
  kept_from?: string;
}

/** The whole `cache.json` (seed 001, `CacheFile`): exactly these fields. */
export interface CacheFile {
  /** When the sync finished, ISO 8601 UTC. */
  synced_at: string;
  /** Where it synced from: the Gitea URL, or the local forge's folder. */
  synced_from: string;
  /** The machine's name (config `machine`, else the host name). */
  machine: string;
  /** Repositories with STATUS.md or a wiki index, in the forge's listing order. */
  projects: ProjectStatus[];
  /** Repositories that failed. */
  errors: SyncError[];
  /**
   * Repositories the forge listed that hold neither a board nor a wiki (skipped, seed 001
   * Task 2): they answer "no wiki", not "unknown project". Absent when none was skipped.
   */
  skipped?: string[];
}

const activeTask = z.object({ slug: z.string(), status: z.string(), next: z.string() });
const cacheSchema = z.object({
  synced_at: z.string(),
  synced_from: z.string(),
  machine: z.string(),
  projects: z.array(
    z.object({
      name: z.string(),
      default_branch: z.string(),
      fetched_at: z.string(),
      active_tasks: z.array(activeTask),
      all_tasks_count: z.number(),
      raw: z.string(),
      wiki_index: z.string().optional(),
      wiki_error: z.string().optional(),
      sync_error: z.string().optional(),
    }),
  ),
  errors: z.array(
    z.object({
      project: z.string(),
      reason: z.string(),
      kept_from: z.string().optional(),
    }),
  ),
  skipped: z.array(z.string()).optional(),
});

/**
 * Reads `cache.json` (seed 001, `readCache`).
 *
 * @param file - the cache file's path.
 * @returns the cache, or `null` when the file does not exist.
 * @throws LoreError `cache_invalid` when the file is not JSON or not the cache's shape.
 */
export async function readCache(file: string): Promise<CacheFile | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new LoreError("cache_invalid", { path: file, reason: String(error) }, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LoreError(
      "cache_invalid",
      { path: file, reason: "not JSON", reason_ru: "не JSON" },
      { cause: error },
    );
  }
  const parsed = cacheSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const reason = `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "wrong shape"}`;
    throw new LoreError("cache_invalid", { path: file, reason });
  }
  const cache = parsed.data as CacheFile;
  // Optional fields zod left as `undefined` are dropped, so the cache reads as it was written.
  for (const project of cache.projects)
    for (const key of ["wiki_index", "wiki_error", "sync_error"] as const)
      if (project[key] === undefined) delete project[key];
  for (const error of cache.errors) if (error.kept_from === undefined) delete error.kept_from;
  if (cache.skipped === undefined) delete cache.skipped;
  return cache;
}

/**
 * A {@link readCache} that parses the file again only when it changed (another inode —
 * every write renames a new file in — another size or mtime), so repeated questions do not
 * parse the same cache each time. The cache given back is shared: callers must not change it.
 *
 * @returns the reader; it throws as {@link readCache}.
 */
export function memoCacheReader(): (file: string) => Promise<CacheFile | null> {
  let last: { file: string; key: string; cache: CacheFile | null } | undefined;
  return async (file) => {
    const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw new LoreError("cache_invalid", { path: file, reason: String(error) }, { cause: error });
    });
    if (info === null) return null;
    const key = `${info.ino}:${info.size}:${info.mtimeMs}`;
    if (last !== undefined && last.file === file && last.key === key) return last.cache;
    const cache = await readCache(file);
    last = { file, key, cache };
    return cache;
  };
}

/**
 * Writes `cache.json` atomically (seed 001, `writeCache`; federation, “Sync and the cache”):
 * the JSON goes to a temp file beside it (mode 0600), is flushed to disk, then renamed over
 * the cache, so a crash leaves either the old cache or the new one, never half of one.
 * Makes the parent folder when missing.
 *
 * @param file - the cache file's path.
 * @param cache - the cache to write (pretty JSON, 2 spaces, final newline).
 * @throws the file system's error (with its `code`) when the folder cannot be written.
 */
export async function writeCache(file: string, cache: CacheFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(cache, null, 2)}\n`, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
