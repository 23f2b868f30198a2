/**
 * Cross-process write locks as lock files: created with `O_EXCL` (`wx`, mode 0600) holding
 * the writer's pid, removed when the work is done, taken over when their writer is gone.
 * Used by `knowledge_write_file` (a root's file) and by the wiki writes (`index.md`,
 * `log.md`); each keeps its lock files in a folder of its own, outside every root and wiki,
 * so no file a user writes can ever be taken for a lock.
 */
import { createHash } from "node:crypto";
import { open, readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoreError } from "../../core/errors/lore-error.js";

/** How long to wait for a lock and when to take one over. */
export interface LockFileOptions {
  /** Longest wait for another writer's lock, ms. */
  waitMs: number;
  /** A lock file older than this is taken over (its writer was killed), ms. */
  staleMs: number;
  /** The refusal when the wait runs out (e.g. `file_busy`). */
  onTimeout: () => LoreError;
}

/**
 * The lock file for `key` in `folder`: named by a hash of the key (a real path, say), so
 * any key makes a safe, short file name.
 */
export function lockFilePath(folder: string, key: string): string {
  return join(folder, `${createHash("sha256").update(key).digest("hex").slice(0, 40)}.lock`);
}

/**
 * Runs `fn` holding the lock file `lock`: waits (5–25 ms steps) while another live writer
 * holds it, takes it over when that writer's pid is gone or the file is older than
 * `staleMs`, and removes it when `fn` settles.
 *
 * @param lock - the lock file's path (its folder exists).
 * @param options - see {@link LockFileOptions}.
 * @param fn - the work.
 * @returns what `fn` returns.
 * @throws what `fn` throws; `options.onTimeout()` when the wait passes `waitMs`; the file
 *   system's error when the lock file cannot be created (other than it existing).
 */
export async function holdLockFile<T>(
  lock: string,
  options: LockFileOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    try {
      const handle = await open(lock, "wx", 0o600);
      await handle.writeFile(String(process.pid)).finally(() => handle.close());
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (await staleLock(lock, options.staleMs)) {
        await unlink(lock).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) throw options.onTimeout();
      await sleep(5 + Math.floor(Math.random() * 20));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => {});
  }
}

/** Whether a lock file was left by a writer that is gone (its pid is dead, or it is old). */
async function staleLock(lock: string, staleMs: number): Promise<boolean> {
  const info = await stat(lock).catch(() => null);
  if (info === null) return false;
  if (Date.now() - info.mtimeMs > staleMs) return true;
  const pid = Number((await readFile(lock, "utf8").catch(() => "")).trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
