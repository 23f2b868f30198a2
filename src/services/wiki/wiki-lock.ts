import { lstat, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { holdLockFile, lockFilePath } from "../files/lock-file.js";

/** Longest wait for another writer's lock, ms. */
export const WIKI_LOCK_WAIT_MS = 30_000;
/** A lock file older than this is taken over (its writer was killed), ms. */
export const WIKI_LOCK_STALE_MS = 60_000;

/** In-process queues, by lock key: writers in one process wait here, not on the file. */
const queues = new Map<string, Promise<unknown>>();

/**
 * The folder of wiki lock files: `<tmp>/lore-wiki-locks-<uid>` (mode 0700, this user's),
 * outside every wiki, so no user file can ever be taken for a lock.
 */
async function lockFolder(): Promise<string> {
  if (folder !== undefined) return folder;
  const uid = process.getuid?.();
  const shared = join(tmpdir(), `lore-wiki-locks-${uid ?? "user"}`);
  await mkdir(shared, { recursive: true, mode: 0o700 }).catch(() => {});
  const info = await lstat(shared).catch(() => null);
  // Used only when it is a real folder of this user closed to others; else a private one
  // (locking then holds within this process only, never through someone else's folder).
  folder =
    info?.isDirectory() === true &&
    (uid === undefined || info.uid === uid) &&
    (info.mode & 0o077) === 0
      ? shared
      : await mkdtemp(join(tmpdir(), "lore-wiki-locks-"));
  return folder;
}

let folder: string | undefined;

async function withLockFile<T>(key: string, fn: () => Promise<T>): Promise<T> {
  return holdLockFile(
    lockFilePath(await lockFolder(), key),
    {
      waitMs: WIKI_LOCK_WAIT_MS,
      staleMs: WIKI_LOCK_STALE_MS,
      onTimeout: () =>
        new LoreError("forge_conflict", {
          path: key,
          repo: "the wiki",
          reason: `another writer held it for ${WIKI_LOCK_WAIT_MS} ms`,
          reason_ru: `другой писатель держал его ${WIKI_LOCK_WAIT_MS} мс`,
        }),
    },
    fn,
  );
}

/**
 * Runs `fn` holding the write lock named `key` (e.g. a wiki folder's real path): writers in
 * this process wait in a queue; writers in other processes wait on a lock file in a
 * per-user folder of the temp dir (taken over when its writer is gone). Serialises the
 * read-modify-write of a wiki's `index.md` and `log.md`, so that N parallel ingests give N
 * index lines and N log lines.
 *
 * @param key - what is locked.
 * @param fn - the work.
 * @returns what `fn` returns.
 * @throws what `fn` throws; LoreError `forge_conflict` when another process held the lock
 *   past {@link WIKI_LOCK_WAIT_MS}.
 */
export async function withWikiLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(
    () => withLockFile(key, fn),
    () => withLockFile(key, fn),
  );
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
